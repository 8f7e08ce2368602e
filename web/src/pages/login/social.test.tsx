import { describe, expect, it, beforeEach } from 'vitest';
import { http, HttpResponse } from 'msw';
import { screen, waitFor, fireEvent, render } from '@testing-library/react';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router';
import { md5 } from 'js-md5';
import { server, signInPrefetch } from '../../test/server';
import { ok } from '../../test/utils';
import { setLanguage } from '../../i18n';
import { useUserStore } from '../../store/user';
import LoginPage from './LoginPage';
import { socialCallback } from './SocialLogin';

function Where() {
  const l = useLocation();
  return <div data-testid="where">{`${l.pathname}${l.search}`}</div>;
}

const renderAt = (url: string) =>
  render(
    <MemoryRouter initialEntries={[url]}>
      <Routes>
        <Route path="/login" element={<LoginPage />} />
        <Route path="*" element={<div>home</div>} />
      </Routes>
      <Where />
    </MemoryRouter>,
  );

describe('social login', () => {
  beforeEach(async () => {
    await setLanguage('zh');
    useUserStore.getState().fedLogout();
  });

  it('reads the provider return query', () => {
    expect(socialCallback('?code=c&state=s&source=gitee&tenantId=000001')).toEqual({ code: 'c', state: 's', source: 'gitee', tenantId: '000001' });
    expect(socialCallback('?code=c&source=gitee')).toBeNull();
    expect(socialCallback('')).toBeNull();
  });

  it("shows a button per provider of the tenant, going to the server's render endpoint", async () => {
    const asked: string[] = [];
    server.use(
      http.get('*/api/blade-auth/oauth/social/providers', ({ request }) => {
        asked.push(new URL(request.url).searchParams.get('tenantId') ?? '');
        return HttpResponse.json(ok([{ source: 'gitee', name: 'Gitee' }, { source: 'corp', name: '企业账号' }]));
      }),
    );
    renderAt('/login');
    const btn = await screen.findByRole('link', { name: /Gitee/ });
    expect(btn).toHaveAttribute('href', '/api/blade-auth/oauth/social/render/gitee?tenantId=000000');
    expect(screen.getByRole('link', { name: /企业账号/ })).toHaveAttribute('href', '/api/blade-auth/oauth/social/render/corp?tenantId=000000');
    expect(asked).toContain('000000');
  });

  it('signs a bound identity in with the social grant', async () => {
    const tokenQueries: URLSearchParams[] = [];
    server.use(
      http.get('*/api/blade-auth/oauth/social/providers', () => HttpResponse.json(ok([]))),
      http.post('*/api/blade-auth/oauth/token', ({ request }) => {
        tokenQueries.push(new URL(request.url).searchParams);
        return HttpResponse.json({ access_token: 'tok', refresh_token: 'ref', user_id: '7', tenant_id: '000000', account: 'alice', role_name: 'user', oauth_id: '99' });
      }),
      ...signInPrefetch(),
    );
    renderAt('/login?code=c1&state=s1&source=gitee&tenantId=000000');
    await waitFor(() => expect(screen.getByTestId('where')).toHaveTextContent(/^\/$/));
    const q = tokenQueries[0];
    expect(q.get('grant_type')).toBe('social');
    expect([q.get('source'), q.get('code'), q.get('state'), q.get('tenantId')]).toEqual(['gitee', 'c1', 's1', '000000']);
    expect(useUserStore.getState().token).toBe('tok');
  });

  it('opens the registration dialog for an identity bound to no user, registers it and logs out to /login', async () => {
    let registered: Record<string, string> | undefined;
    server.use(
      http.get('*/api/blade-auth/oauth/social/providers', () => HttpResponse.json(ok([]))),
      http.post('*/api/blade-auth/oauth/token', () => HttpResponse.json({ user_id: '-1', oauth_id: '555', tenant_id: '000000', nick_name: 'Octo' })),
      http.post('*/api/blade-user/register-guest', async ({ request }) => {
        registered = (await request.json()) as Record<string, string>;
        return HttpResponse.json(ok(null));
      }),
    );
    renderAt('/login?code=c&state=s&source=gitee&tenantId=000000');
    const dialog = await screen.findByRole('dialog', { name: '账号注册' });
    expect(useUserStore.getState().token).toBe('');
    fireEvent.click(screen.getByRole('button', { name: '提交' }));
    expect(await screen.findByText('请先输入账号名称')).toBeInTheDocument();
    expect(screen.getAllByText('请先输入密码')).toHaveLength(2);
    fireEvent.change(screen.getByLabelText('账号名称'), { target: { value: 'octo' } });
    fireEvent.change(screen.getByLabelText('密码'), { target: { value: 'pw1' } });
    fireEvent.change(screen.getByLabelText('确认密码'), { target: { value: 'pw2' } });
    fireEvent.click(screen.getByRole('button', { name: '提交' }));
    expect(await screen.findByText('两次密码输入不一致')).toBeInTheDocument();
    fireEvent.change(screen.getByLabelText('确认密码'), { target: { value: 'pw1' } });
    fireEvent.click(screen.getByRole('button', { name: '提交' }));
    await waitFor(() => expect(registered).toBeDefined());
    expect(registered).toEqual({ tenantId: '000000', name: 'Octo', account: 'octo', password: md5('pw1'), oauthId: '555' });
    expect(await screen.findByText('注册申请已提交,请耐心等待管理员通过!')).toBeInTheDocument();
    await waitFor(() => expect(screen.getByTestId('where')).toHaveTextContent(/^\/login$/));
    expect(dialog).not.toBeInTheDocument();
  });
});
