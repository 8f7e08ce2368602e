import { describe, expect, it, beforeEach } from 'vitest';
import { http, HttpResponse } from 'msw';
import { screen, fireEvent, waitFor, render, within } from '@testing-library/react';
import { MemoryRouter, useLocation } from 'react-router';
import { server } from './server';
import { ok } from './utils';
import { AppRoutes } from '../App';
import { useUserStore } from '../store/user';
import { useTagsStore } from '../store/tags';
import { setLanguage } from '../i18n';
import type { ResourceMeta } from '../resource/types';

const paramMeta: ResourceMeta = {
  name: 'param', service: 'blade-system', path: '/api/blade-system/param', menuCode: 'param',
  label: { zh: '参数', en: 'Parameter' }, paged: true,
  fields: [{ name: 'paramName', type: 'string', label: { zh: '参数名称', en: 'Parameter name' }, list: true, form: true, search: true }],
  actions: ['list', 'detail', 'submit', 'remove'], permissions: {},
};

function mockServer() {
  const menus = [
    { id: '1', code: 'system', name: '系统管理', path: '/system', source: 'SettingOutlined', sort: 1, category: 1, children: [
      { id: '11', code: 'param', name: '参数管理', path: '/system/param', source: 'ToolOutlined', sort: 1, category: 1 },
    ] },
  ];
  server.use(
    http.post('*/api/blade-auth/oauth/token', () =>
      HttpResponse.json({ access_token: 'tok', refresh_token: 'ref', tenant_id: '000000', user_id: '1', account: 'admin', user_name: 'admin', real_name: '管理员', role_name: 'administrator', expires_in: 3600 }),
    ),
    http.get('*/api/blade-system/menu/routes', () => HttpResponse.json(ok(menus))),
    http.get('*/api/blade-system/menu/buttons', () => HttpResponse.json(ok([]))),
    http.get('*/api/blade-system/menu/top-menu', () => HttpResponse.json(ok([{ id: 't0', code: '000', name: '平台管理', source: 'SettingOutlined', sort: 1 }]))),
    http.get('*/api/meta/resources', () => HttpResponse.json(ok([paramMeta]))),
    http.get('*/api/blade-system/param/list', () =>
      HttpResponse.json(ok({ records: [{ id: '1', paramName: 'account.failCount' }], total: 1, size: 10, current: 1, pages: 1 })),
    ),
  );
}

function Where() {
  const l = useLocation();
  return <div data-testid="where">{l.pathname}</div>;
}

const renderApp = (path: string) =>
  render(
    <MemoryRouter initialEntries={[path]}>
      <AppRoutes />
      <Where />
    </MemoryRouter>,
  );

describe('app routes, guard and shell', () => {
  beforeEach(async () => {
    await setLanguage('zh');
    useUserStore.getState().fedLogout();
  });

  it('sends anonymous users to /login, signs in, opens a menu page as a tab and closes it', async () => {
    mockServer();
    renderApp('/system/param');
    await waitFor(() => expect(screen.getByTestId('where')).toHaveTextContent('/login'));
    fireEvent.change(await screen.findByLabelText('请输入账号'), { target: { value: 'admin' } });
    fireEvent.change(screen.getByLabelText('请输入密码'), { target: { value: 'admin' } });
    fireEvent.click(screen.getByRole('button', { name: '登录' }));
    await waitFor(() => expect(screen.getByTestId('where')).toHaveTextContent('/wel/index'));
    expect(await screen.findByText(/欢迎使用 Bluebird/)).toBeInTheDocument();
    expect(document.title).toContain('首页');

    // from the side menu (the home page's shortcuts may name the screen too)
    const sider = document.querySelector('.bb-sider') as HTMLElement;
    fireEvent.click(await within(sider).findByText('系统管理'));
    fireEvent.click(await within(sider).findByText('参数管理'));
    await waitFor(() => expect(screen.getByTestId('where')).toHaveTextContent('/system/param'));
    expect(await screen.findByText('account.failCount')).toBeInTheDocument();
    expect(useTagsStore.getState().tagList.map((t) => t.value)).toEqual(['/wel/index', '/system/param']);
    await waitFor(() => expect(document.title).toContain('参数管理'));

    const tabs = document.querySelector('.bb-tags') as HTMLElement;
    fireEvent.click(within(tabs).getByRole('button', { name: /remove|关闭/i }));
    await waitFor(() => expect(screen.getByTestId('where')).toHaveTextContent('/wel/index'));
    expect(useTagsStore.getState().tagList.map((t) => t.value)).toEqual(['/wel/index']);
  });

  it('redirects unknown paths of a signed-in user to /404 and / to /wel/index', async () => {
    mockServer();
    await useUserStore.getState().login({ tenantId: '000000', username: 'admin', password: 'admin' });
    renderApp('/');
    await waitFor(() => expect(screen.getByTestId('where')).toHaveTextContent('/wel/index'));
    renderApp('/no/such/page');
    await waitFor(() => expect(screen.getAllByTestId('where')[1]).toHaveTextContent('/404'));
  });

  it('sends a signed-in user from /login to the home page', async () => {
    mockServer();
    await useUserStore.getState().login({ tenantId: '000000', username: 'admin', password: 'admin' });
    renderApp('/login');
    await waitFor(() => expect(screen.getByTestId('where')).toHaveTextContent('/wel/index'));
  });
});
