import { create } from 'zustand';
import { persist, createJSONStorage } from 'zustand/middleware';
import { prefixedStorage } from '../util/storage';
import {
  getRefreshToken,
  removeRefreshToken,
  removeToken,
  setRefreshToken,
  setToken,
} from '../util/auth';
import * as api from '../api/user';
import type { MenuNode, TokenResponse, TopMenu } from '../api/user';
import { setUnauthorizedHandler } from '../api/request';
import { navigateTo } from '../util/navigate';
import { toast } from '../util/notify';
import { website } from '../config';
import { useTagsStore } from './tags';
import { useCommonStore, useLockStore } from './common';
import { flattenButtons, formatMenu } from './menu';
import { clearPrefetch, prefetch, take } from './prefetch';
import i18n from '../i18n';

const lang = () => i18n.language;

/** Starts the first requests of the workspace as soon as there is a token (they overlap its code download). */
function prefetchSession(): void {
  clearPrefetch();
  prefetch(`routes:${lang()}`, () => api.getMenu());
  prefetch(`buttons:${lang()}`, () => api.getButtons());
  prefetch(`top:${lang()}`, () => api.getTopMenu());
}

export interface UserInfo {
  userId?: string;
  account?: string;
  userName?: string;
  nickName?: string;
  realName?: string;
  avatar?: string;
  roleName?: string;
  tenantId?: string;
  oauthId?: string;
}

interface UserState {
  tenantId: string;
  userInfo: UserInfo;
  permission: Record<string, boolean>;
  roles: string[];
  /** Side menu of the chosen top menu. */
  menu: MenuNode[];
  /** Id of the chosen top menu ('' = all). */
  menuId: string;
  /** Every menu the user may see (route resolution and search). */
  menuAll: MenuNode[];
  topMenu: TopMenu[];
  token: string;
  refreshToken: string;
  /** When the current token was obtained, epoch ms. */
  tokenDatetime: number;
  expiresIn: number;
  applyToken: (res: TokenResponse) => void;
  login: (form: api.LoginForm) => Promise<void>;
  loginByPhone: (tenantId: string, phone: string, code: string) => Promise<void>;
  /** Social login; an identity bound to no user (user_id -1) answers its oauth id for registration. */
  loginBySocial: (tenantId: string, source: string, code: string, state: string) => Promise<{ register: false } | { register: true; oauthId: string; tenantId: string; name?: string }>;
  refresh: () => Promise<void>;
  logout: () => Promise<void>;
  fedLogout: () => void;
  loadButtons: () => Promise<void>;
  loadMenu: (topMenuId?: string) => Promise<MenuNode[]>;
  loadMenuAll: () => Promise<MenuNode[]>;
  loadTopMenu: () => Promise<TopMenu[]>;
}

const empty = {
  userInfo: {},
  permission: {},
  roles: [],
  menu: [],
  menuId: '',
  menuAll: [],
  topMenu: [],
  token: '',
  refreshToken: '',
  tokenDatetime: 0,
  expiresIn: 0,
};

function onLoggedIn(): void {
  prefetchSession();
  useTagsStore.getState().reset();
  useLockStore.getState().clearLock();
  useCommonStore.getState().clearLockPasswd();
}

export const useUserStore = create<UserState>()(
  persist(
    (set, get) => ({
      tenantId: website.tenantId,
      ...empty,
      applyToken: (res) => {
        setToken(res.access_token);
        setRefreshToken(res.refresh_token);
        set({
          token: res.access_token,
          refreshToken: res.refresh_token,
          tokenDatetime: Date.now(),
          expiresIn: res.expires_in ?? 0,
          tenantId: res.tenant_id ?? get().tenantId,
          roles: (res.role_name ?? '').split(',').filter(Boolean),
          userInfo: {
            userId: res.user_id,
            account: res.account,
            userName: res.user_name ?? res.account,
            nickName: res.nick_name,
            realName: res.real_name,
            avatar: res.avatar,
            roleName: res.role_name,
            tenantId: res.tenant_id,
            oauthId: res.oauth_id,
          },
        });
      },
      login: async (form) => {
        const { data } = await api.loginByUsername(form);
        if (data.error_description) {
          toast.error(data.error_description);
          throw new Error(data.error_description);
        }
        get().applyToken(data);
        set({ tenantId: form.tenantId });
        onLoggedIn();
      },
      loginByPhone: async (tenantId, phone, code) => {
        const { data } = await api.loginByPhone(tenantId, phone, code);
        if (data.error_description) {
          toast.error(data.error_description);
          throw new Error(data.error_description);
        }
        get().applyToken(data);
        onLoggedIn();
      },
      loginBySocial: async (tenantId, source, code, state) => {
        const { data } = await api.loginBySocial(tenantId, source, code, state);
        if (data.error_description) {
          toast.error(data.error_description);
          throw new Error(data.error_description);
        }
        if (!data.access_token || data.user_id === '-1') {
          return { register: true, oauthId: data.oauth_id ?? '', tenantId: data.tenant_id ?? tenantId, name: data.nick_name || data.user_name };
        }
        get().applyToken(data);
        set({ tenantId: data.tenant_id ?? tenantId });
        onLoggedIn();
        return { register: false };
      },
      refresh: async () => {
        const refresh = getRefreshToken() || get().refreshToken;
        const { data } = await api.refreshToken(refresh, get().tenantId);
        get().applyToken(data);
      },
      logout: async () => {
        try {
          await api.logout();
        } catch {
          /* the local session is cleared whatever the server says */
        }
        get().fedLogout();
      },
      fedLogout: () => {
        removeToken();
        removeRefreshToken();
        clearPrefetch();
        set({ ...empty });
        useTagsStore.getState().reset();
        useLockStore.getState().clearLock();
        useCommonStore.getState().clearLockPasswd();
      },
      loadButtons: async () => {
        const { data } = await take(`buttons:${lang()}`, api.getButtons);
        set({ permission: flattenButtons(data.data ?? []) });
      },
      loadMenu: async (topMenuId) => {
        const { data } = await (topMenuId ? api.getMenu(topMenuId) : take(`routes:${lang()}`, () => api.getMenu()));
        const menu = formatMenu(data.data ?? [], get().roles);
        set({ menu, menuId: topMenuId ?? '' });
        return menu;
      },
      loadMenuAll: async () => {
        const { data } = await take(`routes:${lang()}`, () => api.getMenu());
        const menuAll = formatMenu(data.data ?? [], get().roles);
        set({ menuAll });
        return menuAll;
      },
      loadTopMenu: async () => {
        const { data } = await take(`top:${lang()}`, api.getTopMenu);
        const topMenu = [...(data.data ?? [])].sort((a, b) => (a.sort ?? 0) - (b.sort ?? 0));
        set({ topMenu });
        return topMenu;
      },
    }),
    {
      name: 'user',
      storage: createJSONStorage(() => prefixedStorage()),
      partialize: (s) => ({
        tenantId: s.tenantId,
        userInfo: s.userInfo,
        permission: s.permission,
        roles: s.roles,
        menu: s.menu,
        menuId: s.menuId,
        menuAll: s.menuAll,
        topMenu: s.topMenu,
        token: s.token,
        refreshToken: s.refreshToken,
        tokenDatetime: s.tokenDatetime,
        expiresIn: s.expiresIn,
      }),
    },
  ),
);

// A 401 anywhere logs out and goes to /login (spec §8).
setUnauthorizedHandler(() => {
  useUserStore.getState().fedLogout();
  navigateTo('/login', { replace: true });
});
