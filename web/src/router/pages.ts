import type { ComponentType, LazyExoticComponent } from 'react';
import type { MenuNode } from '../api/user';
import { findMenuByPath } from '../store/menu';
import { lazyPage } from '../util/lazy';
import WelPage from '../pages/wel/WelPage';

export interface PageDef {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- page props differ
  component: LazyExoticComponent<ComponentType<any>> | ComponentType<any>;
  /** i18n key of the tab label. */
  labelKey?: string;
  keepAlive?: boolean;
  isTab?: boolean;
}

/** Static logged-in routes of spec §2. */
export const STATIC_PAGES: Record<string, PageDef> = {
  // The first page after sign-in is part of the shell's chunk: no second round trip before it shows.
  '/wel/index': { component: WelPage, labelKey: 'route.home', keepAlive: true },
  '/wel/dashboard': { component: lazyPage(() => import('../pages/wel/DashboardPage')), labelKey: 'route.dashboard' },
  '/test/index': { component: lazyPage(() => import('../pages/test/TestPage')), labelKey: 'route.test' },
  '/info/index': { component: lazyPage(() => import('../pages/info/InfoPage')), labelKey: 'route.info' },
  '/dict-horizontal/index': { component: lazyPage(() => import('../pages/dict/DictHorizontalPage')), labelKey: 'route.dictHorizontal' },
  '/dict-vertical/index': { component: lazyPage(() => import('../pages/dict/DictLayoutPage')), labelKey: 'route.dictVertical' },
  '/myiframe': { component: lazyPage(() => import('../pages/iframe/IframePage')), labelKey: 'route.iframe', keepAlive: true },
};

export const GenericResourcePage = lazyPage(() => import('../resource/ResourcePage'));

/** The generic page of a fixed resource (by menu code), whatever the menu's code. */
function GenericPage(code: string) {
  return lazyPage(async () => {
    const { MetaPage } = await import('../resource/ResourcePage');
    return { default: (p: { menu?: MenuNode }) => MetaPage({ code, menu: p.menu }) };
  });
}

/** One of the five work lists (/work/start, claim, todo, send, done): one page component by list kind. */
function WorkList(kind: 'start' | 'claim' | 'todo' | 'send' | 'done') {
  return lazyPage(async () => {
    const { WorkPage } = await import('../flow/WorkPage');
    return { default: () => WorkPage({ kind }) };
  });
}

/**
 * Custom pages keyed by menu path (without the /index suffix). A menu path not listed here renders
 * the generic resource page of the resource whose menuCode is the menu's code.
 */
export const PAGE_REGISTRY: Record<string, PageDef> = {
  '/system/user': { component: lazyPage(() => import('../system/UserPage')) },
  '/system/dept': { component: lazyPage(() => import('../system/DeptPage')) },
  '/authority/role': { component: lazyPage(() => import('../system/RolePage')) },
  '/system/menu': { component: lazyPage(() => import('../system/MenuPage')) },
  '/system/topmenu': { component: lazyPage(() => import('../system/TopMenuPage')) },
  '/system/tenant': { component: lazyPage(() => import('../system/TenantPage')) },
  '/system/tenantpackage': { component: lazyPage(() => import('../system/TenantPackagePage')) },
  '/system/dict': { component: lazyPage(() => import('../system/DictPage')) },
  '/system/dictbiz': { component: lazyPage(() => import('../system/DictBizPage')) },
  '/base/region': { component: lazyPage(() => import('../system/RegionPage')) },
  '/authority/datascope': { component: lazyPage(() => import('../system/DataScopePage')) },
  '/authority/apiscope': { component: lazyPage(() => import('../system/ScopePage')) },
  // Material stock (issue #11): the threshold monitor and the stock list with its ledger
  '/system/user/monitor': { component: lazyPage(() => import('../stock/StockMonitorPage')) },
  '/stock/material-stock': { component: lazyPage(() => import('../stock/MaterialStockPage')) },
  // Workflow (issue #10): designer, deployment, definitions, instances and the five work lists
  '/flow/model': { component: lazyPage(() => import('../flow/ModelPage')) },
  '/flow/deploy': { component: lazyPage(() => import('../flow/DeployPage')) },
  '/flow/manager': { component: lazyPage(() => import('../flow/ManagerPage')) },
  '/flow/follow': { component: lazyPage(() => import('../flow/FollowPage')) },
  '/work/start': { component: WorkList('start') },
  '/work/claim': { component: WorkList('claim') },
  '/work/todo': { component: WorkList('todo') },
  '/work/send': { component: WorkList('send') },
  '/work/done': { component: WorkList('done') },
  // Resources (issue #12): attachments with upload and download; oss and sms are generic (menu code = resource)
  '/resource/attach': { component: lazyPage(() => import('../resourcecenter/AttachPage')) },
  // Online-duration statistics (issue #12): a table and a chart per day
  '/system/user/log': { component: lazyPage(() => import('../logs/UserActivePage')) },
  // Generic pages (metadata only): parameters, posts, clients, data sources.
  '/system/param': { component: GenericPage('param') },
  '/system/post': { component: GenericPage('post') },
  '/system/client': { component: GenericPage('client') },
  '/tool/datasource': { component: GenericPage('datasource') },
  // The client website's jobs are the job openings of /office-manage/offers (one table, website/job).
  '/website/job': { component: GenericPage('offers') },
  // Notices: the generic page with a rich-text body (web/src/desk)
  '/desk/notice': { component: lazyPage(() => import('../desk/NoticePage')) },
  // Reports and the code generator (issue #12): pickers for the definitions, the run's chart, gen-code's zip
  '/report/reportlist': { component: lazyPage(() => import('../report/ReportPage')) },
  '/tool/code': { component: lazyPage(() => import('../develop/CodePage')) },
};

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
