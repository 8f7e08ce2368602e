import { website } from '../config';

/** Bases the same build is served under, and the top menu each one opens with. */
const SIBLING_BASES: Record<string, string> = Object.fromEntries(
  Object.entries(website.siblingApps).map(([code, p]) => [`/${p.replace(/\/$/, '')}`, code]),
);

/** The basename this page was loaded under: '/', '/pdm', '/erp' or '/scm'. */
export function routerBase(pathname: string = window.location.pathname): string {
  for (const base of Object.keys(SIBLING_BASES)) {
    if (pathname === base || pathname.startsWith(`${base}/`)) return base;
  }
  return '/';
}

/** The top-menu code preselected by the base path ('002' under /pdm/), if any. */
export function baseTopMenuCode(pathname: string = window.location.pathname): string | undefined {
  return SIBLING_BASES[routerBase(pathname)];
}

/** URL of a sibling application on the same host, e.g. '/erp/'. */
export function siblingUrl(code: string): string | undefined {
  const p = website.siblingApps[code];
  return p ? `/${p}` : undefined;
}
