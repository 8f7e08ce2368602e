import { test, expect } from '@playwright/test';
import { apiLogin, login } from './helpers.js';

// flatten walks a menu tree into a code → node map.
function flatten(nodes, out = {}) {
  for (const n of nodes || []) {
    out[n.code] = n;
    flatten(n.children, out);
  }
  return out;
}

test('a role grant changes what a second user sees', async ({ page, request }) => {
  const admin = await apiLogin(request);
  const menus = flatten(await admin.get('/api/blade-system/menu/list'));
  const deptId = admin.body.dept_id;
  const role = await admin.post('/api/blade-system/role/submit', { roleName: '仓管员', roleAlias: 'keeper', sort: 9, parentId: '0' });
  const grant = (codes) => admin.post('/api/blade-system/role/grant', {
    roleIds: [role.id], menuIds: codes.map((c) => menus[c].id), dataScopeIds: [], apiScopeIds: [],
  });
  await grant(['system', 'param', 'param_view', 'post']);
  await admin.post('/api/blade-user/submit', { account: 'keeper1', name: '仓管一号', realName: '仓管一号', password: 'keeper123', roleId: role.id, deptId });

  await login(page, { account: 'keeper1', password: 'keeper123' });
  const side = page.locator('.ant-layout-sider');
  await side.getByText('系统管理', { exact: true }).click();
  await expect(side.getByText('参数管理', { exact: true })).toBeVisible();
  await expect(side.getByText('岗位管理', { exact: true })).toBeVisible();
  await expect(side.getByText('用户管理', { exact: true })).toHaveCount(0);
  await expect(side.getByText('权限管理', { exact: true })).toHaveCount(0);
  // param_view only: no add button on the parameter page
  await side.getByText('参数管理', { exact: true }).click();
  const content = page.locator('.ant-layout-content');
  await expect(content.getByText('account.failCount')).toBeVisible();
  await expect(content.getByRole('button', { name: /新\s*增/ })).toHaveCount(0);

  // the administrator changes the grant: posts out, users in
  await grant(['system', 'param', 'param_view', 'param_add', 'user']);
  await page.reload();
  await expect(page.locator('.bb-shell')).toBeVisible();
  if (!(await side.getByText('用户管理', { exact: true }).isVisible())) await side.getByText('系统管理', { exact: true }).click();
  await expect(side.getByText('用户管理', { exact: true })).toBeVisible();
  await expect(side.getByText('岗位管理', { exact: true })).toHaveCount(0);
  await expect(content.getByRole('button', { name: /新\s*增/ })).toBeVisible();
});
