import { md5 } from 'js-md5';
import request from './request';
import type { R } from './types';
import { website } from '../config';

/** Raw OAuth2 answer of /blade-auth/oauth/token (no envelope). */
export interface TokenResponse {
  access_token: string;
  token_type?: string;
  refresh_token: string;
  expires_in?: number;
  tenant_id?: string;
  user_id?: string;
  dept_id?: string;
  role_id?: string;
  oauth_id?: string;
  account?: string;
  user_name?: string;
  nick_name?: string;
  real_name?: string;
  role_name?: string;
  avatar?: string;
  license?: string;
  error?: string;
  error_description?: string;
}

export interface LoginForm {
  tenantId: string;
  username: string;
  password: string;
  type?: 'account' | 'phone';
  key?: string;
  code?: string;
}

const tokenUrl = '/blade-auth/oauth/token';

/** Password (or captcha) grant; the password goes as md5 hex. */
export function loginByUsername(form: LoginForm) {
  const captcha = website.captchaMode && form.key;
  return request.post<TokenResponse>(tokenUrl, null, {
    meta: { isToken: false, tenantId: form.tenantId },
    headers: captcha ? { 'Captcha-Key': form.key, 'Captcha-Code': form.code } : undefined,
    params: {
      tenantId: form.tenantId,
      username: form.username,
      password: md5(form.password),
      grant_type: captcha ? 'captcha' : 'password',
      scope: 'all',
      type: form.type ?? 'account',
    },
  });
}

/** Phone login: password grant with type=phone, the phone number and the SMS code. */
export function loginByPhone(tenantId: string, phone: string, code: string) {
  return request.post<TokenResponse>(tokenUrl, null, {
    meta: { isToken: false, tenantId },
    params: { tenantId, phone, username: phone, code, grant_type: 'password', scope: 'all', type: 'phone' },
  });
}

/** Social grant: the provider sent the browser back to /login with code, state and source. */
export function loginBySocial(tenantId: string, source: string, code: string, state: string) {
  return request.post<TokenResponse>(tokenUrl, null, {
    meta: { isToken: false, tenantId },
    params: { tenantId, source, code, state, grant_type: 'social', scope: 'all' },
  });
}

export interface SocialProvider {
  source: string;
  name: string;
}

/** The tenant's social login providers (buttons on the login page). */
export const getSocialProviders = (tenantId: string) =>
  request.get<R<SocialProvider[]>>('/blade-auth/oauth/social/providers', { meta: { isToken: false, tenantId }, params: { tenantId } });

/** Where a provider button sends the browser (the server redirects on to the provider). */
export const socialRenderUrl = (source: string, tenantId: string): string =>
  `${website.apiPrefix}/blade-auth/oauth/social/render/${encodeURIComponent(source)}?tenantId=${encodeURIComponent(tenantId)}`;

export function refreshToken(refresh: string, tenantId: string) {
  return request.post<TokenResponse>(tokenUrl, null, {
    meta: { isToken: false, tenantId },
    params: { tenantId, refresh_token: refresh, grant_type: 'refresh_token', scope: 'all' },
  });
}

export const getCaptcha = () =>
  request.get<{ key: string; image: string }>('/blade-auth/oauth/captcha', { meta: { isToken: false } });

export const logout = () => request.get<R<unknown>>('/blade-auth/oauth/logout');

export const clearCache = () => request.get<R<unknown>>('/blade-auth/oauth/clear-cache');

export const sendSmsCode = (tenantId: string, phone: string) =>
  request.post<R<{ key: string; expiresIn: number }>>('/blade-auth/oauth/sms/send', null, {
    meta: { isToken: false, tenantId },
    params: { tenantId, phone },
  });

export interface MenuNode {
  id: string;
  parentId?: string;
  code: string;
  name: string;
  alias?: string;
  path: string;
  source?: string;
  sort?: number;
  category?: number;
  action?: number;
  isOpen?: number;
  children?: MenuNode[];
  meta?: { keepAlive?: boolean; isTab?: boolean; roles?: string[]; i18n?: string };
}

export interface TopMenu {
  id: string;
  code: string;
  name: string;
  source?: string;
  path?: string;
  sort?: number;
}

export const getMenu = (topMenuId?: string) =>
  request.get<R<MenuNode[]>>('/blade-system/menu/routes', {
    params: topMenuId ? { topMenuId } : undefined,
  });

export const getButtons = () => request.get<R<MenuNode[]>>('/blade-system/menu/buttons');

export const getTopMenu = () => request.get<R<TopMenu[]>>('/blade-system/menu/top-menu');

export interface RegisterGuestForm {
  tenantId: string;
  name: string;
  account: string;
  password: string;
  oauthId?: string;
}

/** Registration of a guest (or of a third-party identity: oauthId); the password goes as md5. */
export const registerGuest = (form: RegisterGuestForm, oauthId?: string) =>
  request.post<R<unknown>>(
    '/blade-user/register-guest',
    { tenantId: form.tenantId, name: form.name ?? '', account: form.account, password: md5(form.password), oauthId: oauthId ?? form.oauthId ?? '' },
    { meta: { isToken: false, tenantId: form.tenantId } },
  );

export const sendLogs = (logs: unknown[]) => request.post<R<unknown>>(website.errorLogUploadUrl, logs);
