import type { ComponentType, LazyExoticComponent } from 'react';
import type { MenuNode } from '../api/user';
import { findMenuByPath } from '../store/menu';
import { lazyPage } from '../util/lazy';

export interface PageDef {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- page props differ
  component: LazyExoticComponent<ComponentType<any>>;
  /** i18n key of the tab label. */
  labelKey?: string;
  keepAlive?: boolean;
  isTab?: boolean;
}

/** Static logged-in routes of spec §2. */
export const STATIC_PAGES: Record<string, PageDef> = {
  '/wel/index': { component: lazyPage(() => import('../pages/wel/WelPage')), labelKey: 'route.home', keepAlive: true },
  '/wel/dashboard': { component: lazyPage(() => import('../pages/wel/DashboardPage')), labelKey: 'route.dashboard' },
  '/test/index': { component: lazyPage(() => import('../pages/test/TestPage')), labelKey: 'route.test' },
  '/myiframe': { component: lazyPage(() => import('../pages/iframe/IframePage')), labelKey: 'route.iframe', keepAlive: true },
};

/**
 * Custom pages keyed by menu path (without the /index suffix). A menu path not listed here renders
 * the generic resource page of the resource whose menuCode is the menu's code.
 */
export const PAGE_REGISTRY: Record<string, PageDef> = {};

export const GenericResourcePage = lazyPage(() => import('../resource/ResourcePage'));

export type Resolved =
  | { kind: 'static'; def: PageDef; path: string }
  | { kind: 'menu'; def?: PageDef; menu: MenuNode; path: string }
  | { kind: 'forbidden'; path: string }
  | { kind: 'unknown'; path: string };

const stripIndex = (p: string): string => p.replace(/\/index$/, '') || '/';

/** Which page a logged-in path shows. */
export function resolvePage(pathname: string, menuAll: MenuNode[]): Resolved {
  if (pathname.startsWith('/myiframe/') || pathname === '/myiframe') {
    return { kind: 'static', def: STATIC_PAGES['/myiframe'], path: pathname };
  }
  const stat = STATIC_PAGES[pathname];
  if (stat) return { kind: 'static', def: stat, path: pathname };
  const custom = PAGE_REGISTRY[stripIndex(pathname)];
  const menu = findMenuByPath(menuAll, pathname);
  if (menu) return { kind: 'menu', def: custom, menu, path: pathname };
  if (custom) return { kind: 'forbidden', path: pathname };
  return { kind: 'unknown', path: pathname };
}
