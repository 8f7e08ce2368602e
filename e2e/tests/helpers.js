import { expect } from '@playwright/test';

// login signs in through the form and waits for the workspace to be interactive.
export async function login(page, { tenant = '000000', account = 'admin', password = 'admin' } = {}) {
  await page.goto('/login');
  const tenantInput = page.getByPlaceholder('请输入租户ID');
  await tenantInput.fill(tenant);
  await page.getByPlaceholder('请输入账号').fill(account);
  await page.getByPlaceholder('请输入密码').fill(password);
  await page.locator('form[name=login] button[type=submit]').click();
  await page.waitForURL('**/wel/index');
  await expect(page.locator('.bb-shell')).toBeVisible();
}

// api calls the server directly (test setup only), signed in as the given user.
export async function apiLogin(request, { tenant = '000000', account = 'admin', password = 'admin' } = {}) {
  const md5 = (await import('node:crypto')).createHash('md5').update(password).digest('hex');
  const res = await request.post(`/api/blade-auth/oauth/token?tenantId=${tenant}&username=${account}&password=${md5}&grant_type=password&scope=all`, {
    headers: { Authorization: 'Basic c2FiZXI6c2FiZXJfc2VjcmV0', 'Tenant-Id': tenant },
  });
  expect(res.status()).toBe(200);
  const body = await res.json();
  const headers = { Authorization: 'Basic c2FiZXI6c2FiZXJfc2VjcmV0', 'Blade-Auth': `bearer ${body.access_token}` };
  return {
    body,
    get: async (path) => (await (await request.get(path, { headers })).json()).data,
    post: async (path, data) => {
      const res = await request.post(path, { headers, data });
      const json = await res.json();
      expect(json.success, `${path}: ${json.msg}`).toBe(true);
      return json.data;
    },
  };
}

// openMenu clicks through the side menu: a group, then a leaf.
export async function openMenu(page, group, leaf) {
  const side = page.locator('.ant-layout-sider');
  const item = side.getByText(leaf, { exact: true });
  if (!(await item.isVisible())) await side.getByText(group, { exact: true }).click();
  await expect(item).toBeVisible();
  // A click while the submenu is still growing open was lost under load: wait until its collapse
  // motion (antd's ant-motion-collapse-* classes, gone when the motion ends) is over.
  await expect(side.locator('[class*="ant-motion-collapse"]')).toHaveCount(0);
  await item.click();
  await expect(page.getByRole('tab', { name: leaf, exact: true })).toHaveAttribute('aria-selected', 'true');
}

// confirm answers the newest confirmation (a modal confirm or a popconfirm) with OK: after the modal's
// opening zoom (a click during it can miss the button), and until it has closed.
export async function confirm(page) {
  const box = page.locator('.ant-modal-confirm, .ant-popconfirm').last();
  await expect(box).toBeVisible();
  await expect(page.locator('.ant-modal[class*="ant-zoom"]')).toHaveCount(0);
  await box.getByRole('button', { name: /确\s*定|OK/ }).click();
  await expect(box).toBeHidden();
}
