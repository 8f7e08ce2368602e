import { website } from '../config';

export interface RouteMeta {
  /** false: reachable without signing in. */
  isAuth?: boolean;
  /** false: not added as a tab. */
  isTab?: boolean;
  keepAlive?: boolean;
}

export interface GuardInput {
  path: string;
  search: string;
  /** A token cookie exists. */
  hasToken: boolean;
  /** The session store's token. */
  storeToken: string;
  isLock: boolean;
  meta: RouteMeta;
}

export type GuardResult =
  | { action: 'next'; addTag: boolean }
  | { action: 'redirect'; to: string }
  | { action: 'logout' }
  | { action: 'open'; url: string; back: string };

/**
 * The navigation guard of spec §2:
 * - signed in: a locked screen forces the lock page; /login goes to /; an empty store token clears the
 *   session and goes to /login; a `target` query opens a new window; otherwise the page is shown and
 *   added as a tab unless its route opts out;
 * - not signed in: only routes marked isAuth === false are allowed, any other goes to /login.
 */
export function guard(input: GuardInput): GuardResult {
  const { path, search, hasToken, storeToken, isLock, meta } = input;
  if (hasToken) {
    if (isLock && path !== website.lockPage) return { action: 'redirect', to: website.lockPage };
    if (path === '/login') return { action: 'redirect', to: '/' };
    if (!storeToken) return { action: 'logout' };
    const params = new URLSearchParams(search);
    if (params.has('target')) {
      params.delete('target');
      const q = params.toString();
      return { action: 'open', url: `${path}${q ? `?${q}` : ''}`, back: website.firstPage.value };
    }
    return { action: 'next', addTag: meta.isTab !== false && meta.isAuth !== false };
  }
  if (meta.isAuth === false) return { action: 'next', addTag: false };
  return { action: 'redirect', to: '/login' };
}
