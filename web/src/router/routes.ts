import type { RouteMeta } from './guard';

/** Public routes (spec §2): reachable without signing in and never added as tabs. */
export const PUBLIC_ROUTES: Record<string, RouteMeta> = {
  '/login': { isAuth: false, isTab: false },
  '/register': { isAuth: false, isTab: false },
  '/lock': { isAuth: false, isTab: false },
  '/404': { isAuth: false, isTab: false },
  '/403': { isAuth: false, isTab: false },
  '/500': { isAuth: false, isTab: false },
};

/** Paths that only redirect. */
export const REDIRECTS: Record<string, string> = {
  '/': '/wel/index',
  '/wel': '/wel/index',
};

export function routeMeta(path: string): RouteMeta {
  if (PUBLIC_ROUTES[path]) return PUBLIC_ROUTES[path];
  if (REDIRECTS[path]) return { isTab: false };
  return {};
}
