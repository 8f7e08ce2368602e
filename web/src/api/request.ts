import axios, { AxiosError, type AxiosResponse, type InternalAxiosRequestConfig } from 'axios';
import { website } from '../config';
import { basicAuth, getToken } from '../util/auth';
import { toast } from '../util/notify';
import i18n from '../i18n';
import './types';

/**
 * The one axios instance of the console (spec §7-§8).
 * - every path is prefixed with /api (paths already starting with /api are left alone);
 * - Basic client header always; `Blade-Auth: bearer <token>` when a token exists (unless meta.isToken === false);
 * - `Tenant-Id` on token requests (meta.tenantId); cookies are sent; Accept-Language follows the UI;
 * - HTTP 200-500 resolve at the transport level and are judged by the body code (or the status);
 * - whitelisted codes reject silently; 401 logs out and goes to /login; any other non-200 shows
 *   msg / error_description / 未知错误 and rejects; network failures reject with an Error.
 */

type UnauthorizedHandler = () => void;

let onUnauthorized: UnauthorizedHandler = () => {
  /* installed by the session store (store/user.ts) */
};

export const setUnauthorizedHandler = (fn: UnauthorizedHandler): void => {
  onUnauthorized = fn;
};

export const withApiPrefix = (url: string): string => {
  if (/^https?:\/\//i.test(url)) return url;
  const prefix = website.apiPrefix;
  if (url === prefix || url.startsWith(`${prefix}/`)) return url;
  return `${prefix}${url.startsWith('/') ? '' : '/'}${url}`;
};

export class RequestError extends Error {
  readonly code?: number;
  readonly response?: AxiosResponse;
  constructor(message: string, code?: number, response?: AxiosResponse, cause?: unknown) {
    super(message, { cause });
    this.name = 'RequestError';
    this.code = code;
    this.response = response;
  }
}

const request = axios.create({
  timeout: website.timeout,
  withCredentials: true,
  validateStatus: (status) => status >= 200 && status <= 500,
});

request.interceptors.request.use((config: InternalAxiosRequestConfig) => {
  const meta = config.meta ?? {};
  if (config.url) config.url = withApiPrefix(config.url);
  config.headers.set('Authorization', basicAuth());
  const token = getToken();
  if (token && meta.isToken !== false) config.headers.set(website.tokenHeader, `bearer ${token}`);
  if (meta.tenantId) config.headers.set('Tenant-Id', meta.tenantId);
  config.headers.set('Accept-Language', i18n.language === 'en' ? 'en' : 'zh');
  return config;
});

interface Body {
  code?: number;
  msg?: string;
  error_description?: string;
}

const isBody = (d: unknown): d is Body => typeof d === 'object' && d !== null && !(d instanceof Blob);

/** A JSON error answer to a blob request (export) is parsed so its code and msg are read. */
export async function readBlobBody(res: AxiosResponse): Promise<AxiosResponse> {
  const d: unknown = res.data;
  if (d instanceof Blob && /json/i.test(d.type)) {
    try {
      res.data = JSON.parse(await d.text()) as unknown;
    } catch {
      /* keep the blob */
    }
  }
  return res;
}

request.interceptors.response.use(
  async (raw) => {
    const res = await readBlobBody(raw);
    const body: Body = isBody(res.data) ? res.data : {};
    const status = body.code || res.status;
    if (website.statusWhiteList.includes(status)) return Promise.reject(res);
    if (status === 401) onUnauthorized();
    if (status !== 200) {
      const message = body.msg || body.error_description || i18n.t('request.unknown');
      toast.error(message);
      return Promise.reject(new RequestError(message, status, res));
    }
    return res;
  },
  (error: unknown) => {
    const message = error instanceof AxiosError || error instanceof Error ? error.message : String(error);
    return Promise.reject(new RequestError(message, undefined, undefined, error));
  },
);

export default request;
