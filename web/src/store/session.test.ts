import { describe, expect, it, beforeEach } from 'vitest';
import { http, HttpResponse, delay } from 'msw';
import { server, signInPrefetch } from '../test/server';
import { checkToken, refreshAfter } from './session';
import { useUserStore } from './user';
import { useTagsStore } from './tags';
import { useCommonStore, useLockStore } from './common';
import { getToken, setToken } from '../util/auth';

const signIn = (ageSeconds: number) => {
  setToken('old');
  useUserStore.setState({ token: 'old', refreshToken: 'r-old', tokenDatetime: Date.now() - ageSeconds * 1000, expiresIn: 3600 });
};

describe('session', () => {
  beforeEach(() => useUserStore.getState().fedLogout());

  it('refreshes at the configured token time, never twice at once', async () => {
    let calls = 0;
    server.use(
      http.post('*/api/blade-auth/oauth/token', async ({ request }) => {
        calls++;
        expect(new URL(request.url).searchParams.get('grant_type')).toBe('refresh_token');
        expect(new URL(request.url).searchParams.get('refresh_token')).toBe('r-old');
        await delay(20);
        return HttpResponse.json({ access_token: 'new', refresh_token: 'r-new', expires_in: 3600 });
      }),
    );
    signIn(100);
    expect(await checkToken()).toBe(false);
    expect(calls).toBe(0);
    signIn(3001);
    const [a, b] = await Promise.all([checkToken(), checkToken()]);
    expect([a, b].sort()).toEqual([false, true]);
    expect(calls).toBe(1);
    expect(getToken()).toBe('new');
    expect(useUserStore.getState().refreshToken).toBe('r-new');
  });

  it('never refreshes later than a minute before expires_in', () => {
    expect(refreshAfter(3000, 3600)).toBe(3000);
    expect(refreshAfter(3000, 600)).toBe(540);
    expect(refreshAfter(3000, 0)).toBe(3000);
  });

  it('login clears tabs and lock; logout clears token, menus, roles, tabs and lock', async () => {
    server.use(
      http.post('*/api/blade-auth/oauth/token', () =>
        HttpResponse.json({ access_token: 'a1', refresh_token: 'r1', tenant_id: '000000', role_name: 'administrator,admin', account: 'admin', user_id: '1' }),
      ),
      http.get('*/api/blade-auth/oauth/logout', () => HttpResponse.json({ code: 200, success: true, msg: '', data: null })),
      ...signInPrefetch(),
    );
    useTagsStore.getState().add({ label: 'x', value: '/x' });
    useLockStore.getState().setLock();
    await useUserStore.getState().login({ tenantId: '000000', username: 'admin', password: 'admin' });
    expect(useTagsStore.getState().tagList.map((t) => t.value)).toEqual(['/wel/index']);
    expect(useLockStore.getState().isLock).toBe(false);
    expect(useUserStore.getState().roles).toEqual(['administrator', 'admin']);
    expect(getToken()).toBe('a1');
    expect(document.cookie).toContain('saber-refresh-token=r1');

    useUserStore.setState({ menu: [{ id: '1', code: 'a', name: 'a', path: '/a' }], permission: { a_add: true } });
    useTagsStore.getState().add({ label: 'y', value: '/y' });
    useLockStore.getState().setLock();
    useCommonStore.getState().setLockPasswd('pw');
    await useUserStore.getState().logout();
    const s = useUserStore.getState();
    expect(s.token).toBe('');
    expect(s.menu).toEqual([]);
    expect(s.roles).toEqual([]);
    expect(s.permission).toEqual({});
    expect(getToken()).toBeUndefined();
    expect(useTagsStore.getState().tagList).toHaveLength(1);
    expect(useLockStore.getState().isLock).toBe(false);
    expect(useCommonStore.getState().lockPasswd).toBe('');
    expect(sessionStorage.getItem('saber-isLock')).toContain('false');
  });
});
