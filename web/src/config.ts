/**
 * Site configuration (BladeX "website" settings, spec §9). Everything the console treats as a
 * business constant lives here so that a deployment can change it in one place.
 */
export interface WebsiteConfig {
  title: { zh: string; en: string };
  /** Local storage keys are `${keyPrefix}${name}`. */
  keyPrefix: string;
  clientId: string;
  clientSecret: string;
  /** Header carrying the bearer token. */
  tokenHeader: string;
  /** Cookie names of the tokens. */
  accessTokenKey: string;
  refreshTokenKey: string;
  /** Seconds after login at which the token is refreshed. */
  tokenTime: number;
  /** How often the token age is checked, ms. */
  tokenCheckInterval: number;
  /** Request time-out, ms. */
  timeout: number;
  /** Script chunk time-out, ms. */
  chunkTimeout: number;
  apiPrefix: string;
  tenantMode: boolean;
  tenantId: string;
  captchaMode: boolean;
  lockPage: string;
  /** Response codes rejected silently by the request wrapper. */
  statusWhiteList: number[];
  /** The home page; it becomes closable only when isFirstPage is true. */
  firstPage: { label: string; value: string; close: boolean };
  isFirstPage: boolean;
  /** Optional top-bar widgets. */
  setting: {
    lock: boolean;
    theme: boolean;
    color: boolean;
    search: boolean;
    language: boolean;
    errlog: boolean;
    fullscreen: boolean;
    tag: boolean;
  };
  /** Top menu codes opened in this app and sibling applications on the same host. */
  inAppTopMenuCodes: string[];
  siblingApps: Record<string, string>;
  defaultColor: string;
  defaultTheme: string;
  lockRedirectDelay: number;
  noticeNextPageDelay: number;
  errorLogBadgeMax: number;
  pageSizes: number[];
  pageSize: number;
  /** Where the error-log dialog uploads local logs. */
  errorLogUploadUrl: string;
  /** Avatar shown when a user has none or it fails to load. */
  defaultAvatar: string;
}

export const website: WebsiteConfig = {
  title: { zh: 'Bluebird 管理控制台', en: 'Bluebird Console' },
  keyPrefix: 'saber-',
  clientId: 'saber',
  clientSecret: 'saber_secret',
  tokenHeader: 'Blade-Auth',
  accessTokenKey: 'saber-access-token',
  refreshTokenKey: 'saber-refresh-token',
  tokenTime: 3000,
  tokenCheckInterval: 10000,
  timeout: 60000,
  chunkTimeout: 120000,
  apiPrefix: '/api',
  tenantMode: true,
  tenantId: '000000',
  captchaMode: false,
  lockPage: '/lock',
  statusWhiteList: [],
  firstPage: { label: 'home', value: '/wel/index', close: false },
  isFirstPage: false,
  setting: {
    lock: true,
    theme: true,
    color: true,
    search: true,
    language: true,
    errlog: true,
    fullscreen: true,
    tag: true,
  },
  inAppTopMenuCodes: ['000', '001'],
  siblingApps: { '002': 'pdm/', '003': 'erp/', '004': 'scm/' },
  defaultColor: '#409EFF',
  defaultTheme: 'theme-default',
  lockRedirectDelay: 100,
  noticeNextPageDelay: 1000,
  errorLogBadgeMax: 99,
  pageSizes: [10, 30, 50, 100, 200],
  pageSize: 10,
  errorLogUploadUrl: '/blade-log/error/client-logs',
  defaultAvatar: '/img/avatar.svg',
};
