import { test, expect } from '@playwright/test';
import { login, confirm } from './helpers.js';

test('a wrong password shows the server error and stays on /login', async ({ page }) => {
  await page.goto('/login');
  await page.getByPlaceholder('请输入账号').fill('admin');
  await page.getByPlaceholder('请输入密码').fill('wrong');
  await page.locator('form[name=login] button[type=submit]').click();
  await expect(page.getByText('用户名或密码错误')).toBeVisible();
  await expect(page).toHaveURL(/\/login/);
});

test('login reaches the workspace; unknown paths go to 404; / goes to /wel', async ({ page }) => {
  await login(page);
  await expect(page.locator('.ant-layout-sider').getByText('系统管理', { exact: true })).toBeVisible();
  await page.goto('/');
  await page.waitForURL('**/wel/index');
  await page.goto('/no/such/page');
  await page.waitForURL('**/404');
});

test('logout asks for confirmation and returns to /login', async ({ page }) => {
  await login(page);
  await page.locator('.bb-user').click();
  await page.getByText('退出登录').click();
  await confirm(page);
  await page.waitForURL('**/login');
  // the session is gone: a deep link goes back to /login
  await page.goto('/system/param');
  await page.waitForURL('**/login**');
});
