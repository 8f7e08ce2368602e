import { describe, expect, it, beforeEach } from 'vitest';
import { http, HttpResponse } from 'msw';
import { screen, waitFor, fireEvent, within } from '@testing-library/react';
import { server } from '../test/server';
import { ok, renderWithProviders } from '../test/utils';
import { setLanguage } from '../i18n';
import { useUserStore } from '../store/user';
import RoleGrantDialog from './RoleGrantDialog';
import UserPage from './UserPage';
import { userListParams, isEnabled, tenantQuery } from './userApi';
import { settingParams } from './TenantPage';
import { childDefaults, parentBody, parentFormFields } from './DictManager';
import { wireValues } from '../resource/fields';
import dayjs from 'dayjs';
import type { FieldMeta, ResourceMeta } from '../resource/types';

const node = (id: string, title: string, children?: unknown[]) => ({ id, key: id, value: id, title, children });

describe('role grant dialog', () => {
  beforeEach(async () => {
    await setLanguage('zh');
  });

  it('opens with the held keys and saves menus, data scope and API scope with their ancestors', async () => {
    const bodies: unknown[] = [];
    let keysQuery = '';
    server.use(
      http.get('*/api/blade-system/menu/grant-tree', () =>
        HttpResponse.json(
          ok({
            menu: [node('sys', '系统管理', [node('user', '用户管理', [node('user_add', '新增'), node('user_edit', '修改')]), node('dept', '部门管理')])],
            dataScope: [node('user', '用户管理', [node('ds1', '本人数据')])],
            apiScope: [node('user', '用户管理', [node('as1', '用户接口')])],
          }),
        ),
      ),
      http.get('*/api/blade-system/menu/role-tree-keys', ({ request }) => {
        keysQuery = new URL(request.url).searchParams.get('roleIds') ?? '';
        return HttpResponse.json(ok({ menu: ['sys', 'user', 'user_add'], dataScope: ['user', 'ds1'], apiScope: [] }));
      }),
      http.post('*/api/blade-system/role/grant', async ({ request }) => {
        bodies.push(await request.json());
        return HttpResponse.json(ok(null));
      }),
    );
    let closed = 0;
    renderWithProviders(<RoleGrantDialog roleIds={['r1', 'r2']} open onClose={() => closed++} />);
    const sys = (await screen.findByText('系统管理')).closest('.ant-tree-treenode')!;
    expect(keysQuery).toBe('r1,r2');
    // The held parent 'sys' must not check all its children (dept is not held): it is half checked.
    await waitFor(() => expect(sys.querySelector('.ant-tree-checkbox-indeterminate')).not.toBeNull());
    expect(sys.querySelector('.ant-tree-checkbox-checked')).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: /保\s*存/ }));
    await waitFor(() => expect(bodies).toHaveLength(1));
    expect(bodies[0]).toEqual({ roleIds: ['r1', 'r2'], menuIds: ['sys', 'user', 'user_add'], dataScopeIds: ['user', 'ds1'], apiScopeIds: [] });
    await waitFor(() => expect(closed).toBe(1));
  });
});

const userMeta: ResourceMeta = {
  name: '',
  service: 'blade-user',
  path: '/api/blade-user',
  menuCode: 'user',
  label: { zh: '用户', en: 'User' },
  paged: true,
  fields: [
    { name: 'account', type: 'string', label: { zh: '登录账号', en: 'Account' }, list: true, form: true, search: true, required: true },
    { name: 'realName', type: 'string', label: { zh: '用户姓名', en: 'Name' }, list: true, form: true },
    { name: 'password', type: 'password', label: { zh: '密码', en: 'Password' }, list: false, form: true },
    { name: 'status', type: 'int', label: { zh: '状态', en: 'Status' }, list: false, form: false },
  ],
  actions: ['page', 'detail', 'submit', 'remove'],
  permissions: { add: 'user_add', edit: 'user_edit', delete: 'user_delete', view: 'user_view' },
};

describe('user page', () => {
  beforeEach(async () => {
    await setLanguage('zh');
    useUserStore.setState({ permission: { user_add: true, user_enabled: true, user_role: true, user_reset: true } });
  });

  it('filters the list by the department chosen in the tree and toggles users on and off', async () => {
    const pages: URLSearchParams[] = [];
    const enabled: URLSearchParams[] = [];
    server.use(
      http.get('*/api/meta/resources', () => HttpResponse.json(ok([userMeta]))),
      http.get('*/api/blade-system/dept/tree', () => HttpResponse.json(ok([node('d1', '总部', [node('d2', '研发部')])]))),
      http.get('*/api/blade-user/page', ({ request }) => {
        const q = new URL(request.url).searchParams;
        pages.push(q);
        return HttpResponse.json(ok({ records: [{ id: 'u1', account: 'alice', realName: 'Alice', status: 1, roleName: '用户', deptName: '研发部' }], total: 1, size: 10, current: 1, pages: 1 }));
      }),
      http.post('*/api/blade-user/enabledStatus', ({ request }) => {
        enabled.push(new URL(request.url).searchParams);
        return HttpResponse.json(ok(null));
      }),
    );
    renderWithProviders(<UserPage />);
    await screen.findByText('alice');
    expect(pages[0].has('deptId')).toBe(false);
    fireEvent.click(await screen.findByText('研发部', { selector: '.ant-tree-title' }));
    await waitFor(() => expect(pages.some((q) => q.get('deptId') === 'd2')).toBe(true));
    const row = screen.getByText('alice').closest('tr')!;
    fireEvent.click(within(row).getByRole('switch'));
    await waitFor(() => expect(enabled).toHaveLength(1));
    expect(enabled[0].get('ids')).toBe('u1');
    expect(enabled[0].get('enabledStatus')).toBe('0');
  });

  it('asks for a selection before granting roles or resetting passwords', async () => {
    server.use(
      http.get('*/api/meta/resources', () => HttpResponse.json(ok([userMeta]))),
      http.get('*/api/blade-system/dept/tree', () => HttpResponse.json(ok([]))),
      http.get('*/api/blade-user/page', () => HttpResponse.json(ok({ records: [], total: 0, size: 10, current: 1, pages: 0 }))),
    );
    renderWithProviders(<UserPage />);
    fireEvent.click(await screen.findByRole('button', { name: /密码重置/ }));
    expect(await screen.findByText('请选择至少一条数据')).toBeInTheDocument();
  });

  it("opens the role dialog with the chosen users' current roles ticked (those they all hold)", async () => {
    const roleIds: Record<string, string> = { u1: 'r1,r2', u2: 'r2,r3' };
    let granted: URLSearchParams | undefined;
    server.use(
      http.get('*/api/meta/resources', () => HttpResponse.json(ok([userMeta]))),
      http.get('*/api/blade-system/dept/tree', () => HttpResponse.json(ok([]))),
      http.get('*/api/blade-system/role/tree', () => HttpResponse.json(ok([node('r1', '管理员'), node('r2', '用户'), node('r3', '访客')]))),
      http.get('*/api/blade-user/page', () =>
        HttpResponse.json(ok({ records: [{ id: 'u1', account: 'alice', status: 1 }, { id: 'u2', account: 'bob', status: 1 }], total: 2, size: 10, current: 1, pages: 1 })),
      ),
      // the list rows carry no roleId: the dialog reads the users' details
      http.get('*/api/blade-user/detail', ({ request }) => {
        const id = new URL(request.url).searchParams.get('id') ?? '';
        return HttpResponse.json(ok({ id, roleId: roleIds[id] }));
      }),
      http.post('*/api/blade-user/grant', ({ request }) => {
        granted = new URL(request.url).searchParams;
        return HttpResponse.json(ok(null));
      }),
    );
    renderWithProviders(<UserPage />);
    const rowOf = async (account: string) => (await screen.findByText(account)).closest('tr')!;
    const roleDialog = async () => (await screen.findByText('角色配置', { selector: '.bb-dialog-title span' })).closest<HTMLElement>('.ant-modal')!;
    const ticked = (dialog: HTMLElement) =>
      [...dialog.querySelectorAll('.ant-tree-treenode-checkbox-checked .ant-tree-title')].map((e) => e.textContent);
    fireEvent.click(within(await rowOf('alice')).getByRole('checkbox'));
    fireEvent.click(screen.getByRole('button', { name: /角色配置/ }));
    let dialog = await roleDialog();
    await waitFor(() => expect(ticked(dialog)).toEqual(['管理员', '用户']));
    fireEvent.click(within(dialog).getByRole('button', { name: /取\s*消/ }));
    await waitFor(() => expect(screen.queryByText('角色配置', { selector: '.bb-dialog-title span' })).toBeNull());

    fireEvent.click(within(await rowOf('bob')).getByRole('checkbox'));
    fireEvent.click(screen.getByRole('button', { name: /角色配置/ }));
    dialog = await roleDialog();
    await waitFor(() => expect(ticked(dialog)).toEqual(['用户']));
    fireEvent.click(within(dialog).getByText('访客'));
    fireEvent.click(within(dialog).getByRole('button', { name: /保\s*存/ }));
    await waitFor(() => expect(granted).toBeDefined());
    expect([granted!.get('userIds'), granted!.get('roleIds')]).toEqual(['u1,u2', 'r2,r3']);
  });

  it("asks for another tenant's roles, departments and posts by its tenantId, for its own by none", () => {
    useUserStore.setState({ tenantId: '000000' });
    expect(tenantQuery('000000')).toBeUndefined();
    expect(tenantQuery(undefined)).toBeUndefined();
    expect(tenantQuery('')).toBeUndefined();
    expect(tenantQuery('654321')).toEqual({ tenantId: '654321' });
  });

  it('builds its list parameters and reads the enabled flag', () => {
    expect(userListParams(undefined)).toEqual({ deptId: undefined });
    expect(userListParams('')).toEqual({ deptId: undefined });
    expect(userListParams('42')).toEqual({ deptId: '42' });
    expect(isEnabled(1)).toBe(true);
    expect(isEnabled('1')).toBe(true);
    expect(isEnabled(0)).toBe(false);
  });
});

describe('small rules of the platform screens', () => {
  it('sends tenant settings with only the values given', () => {
    expect(settingParams(['1', '2'], { accountNumber: -1 })).toEqual({ ids: '1,2', accountNumber: '-1' });
    expect(settingParams(['1'], { expireTime: dayjs('2030-01-02 03:04:05') })).toEqual({ ids: '1', expireTime: '2030-01-02 03:04:05' });
  });

  it('saves parent dictionaries as roots (parentId 0, dictKey -1) without those fields in the form', () => {
    const fields = ['parentId', 'code', 'dictKey', 'dictValue', 'sort', 'isSealed'].map((name) => ({ name, type: 'string', label: {} }) as FieldMeta);
    expect(parentFormFields(fields).map((f) => f.name)).toEqual(['code', 'dictValue', 'sort', 'isSealed']);
    expect(parentBody({ code: 'c', dictValue: 'v' })).toEqual({ code: 'c', dictValue: 'v', parentId: '0', dictKey: '-1' });
    expect(childDefaults({ id: '9', code: 'c' })).toEqual({ parentId: '9', code: 'c', sort: 1, isSealed: 0 });
  });

  it('sends values in the JSON type the metadata declares (valueType)', () => {
    const fields: FieldMeta[] = [
      { name: 'category', type: 'dict', dict: 'post_category', valueType: 'int', label: {} },
      { name: 'kind', type: 'dict', dict: 'oss', valueType: 'string', label: {} },
      { name: 'packageId', type: 'select', valueType: 'id', label: {} },
    ];
    expect(wireValues(fields, { category: '2', kind: '2', packageId: '12', other: '3' })).toEqual({ category: 2, kind: '2', packageId: '12', other: '3' });
    expect(wireValues(fields, { category: 'x' })).toEqual({ category: 'x' });
  });
});
