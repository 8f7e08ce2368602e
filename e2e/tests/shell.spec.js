import { test, expect } from '@playwright/test';
import { login, openMenu } from './helpers.js';

// The tab strip's tabs (the home page has tabs of its own: 待办事务 and 待签事务).
const tabs = (page, options) => page.locator('.bb-tags').getByRole('tab', options);
const tab = (page, name) => tabs(page, { name, exact: true });

test('menu navigation opens tabs; closing, close-others and close-all follow the rules', async ({ page }) => {
  await login(page);
  await expect(tab(page, '首页')).toBeVisible();
  await openMenu(page, '系统管理', '参数管理');
  await expect(page).toHaveURL(/\/system\/param/);
  await openMenu(page, '系统管理', '岗位管理');
  await openMenu(page, '系统管理', '应用管理');
  // opening an open page again does not add a tab
  await openMenu(page, '系统管理', '参数管理');
  await expect(tabs(page)).toHaveCount(4);

  // closing the active tab opens the previous one in the strip
  await openMenu(page, '系统管理', '应用管理');
  await tab(page, '应用管理').locator('..').getByRole('button', { name: 'remove' }).click();
  await expect(tab(page, '应用管理')).toHaveCount(0);
  await expect(tabs(page, { selected: true })).toHaveText('岗位管理');
  await expect(page).toHaveURL(/\/system\/post/);

  // close others keeps the active tab and home
  await tab(page, '岗位管理').click();
  await page.locator('.bb-tags-menu').click();
  await page.getByText('关闭其它').click();
  await expect(tabs(page)).toHaveCount(2);
  await expect(tab(page, '首页')).toBeVisible();
  await expect(tab(page, '岗位管理')).toBeVisible();

  // close all resets to home, which cannot be closed
  await page.locator('.bb-tags-menu').click();
  await page.getByText('关闭所有').click();
  await expect(tabs(page)).toHaveCount(1);
  await expect(page).toHaveURL(/\/wel\/index/);
  await expect(tab(page, '首页').locator('..').getByRole('button', { name: 'remove' })).toHaveCount(0);
});

test('menu search finds leaf menus by prefix and Esc closes it', async ({ page }) => {
  await login(page);
  // exact: the top bar's button is labelled 搜索; once 参数管理 has loaded, its search bar has a
  // "search 搜索" button too, and a loose name matched both whenever that page was quick enough.
  const openSearch = page.getByRole('button', { name: '搜索', exact: true });
  await openSearch.click();
  const input = page.getByPlaceholder('请输入菜单名称');
  await input.fill('参数');
  await page.locator('.ant-select-item-option, .ant-select-dropdown').getByText('参数管理').first().click();
  await expect(tab(page, '参数管理')).toHaveAttribute('aria-selected', 'true');
  await openSearch.click();
  await expect(page.getByPlaceholder('请输入菜单名称')).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(page.getByPlaceholder('请输入菜单名称')).toBeHidden();
});

test('lock asks for a password, forces /lock, and unlocks with it', async ({ page }) => {
  await login(page);
  await page.getByRole('button', { name: '锁屏' }).click();
  const dialog = page.locator('.ant-modal').filter({ hasText: '锁屏密码' });
  await dialog.getByRole('button', { name: /确\s*定/ }).click();
  await expect(dialog.getByText('锁屏密码不能为空')).toBeVisible();
  await dialog.getByPlaceholder('请输入锁屏密码').fill('123');
  await dialog.getByRole('button', { name: /确\s*定/ }).click();
  await page.waitForURL('**/lock');
  // while locked, any page goes back to /lock
  await page.goto('/system/param');
  await page.waitForURL('**/lock');
  await page.getByPlaceholder('请输入锁屏密码').fill('wrong');
  await page.getByRole('button', { name: /解\s*锁/ }).click();
  await expect(page.getByText('解锁密码错误,请重新输入').first()).toBeVisible();
  await page.getByPlaceholder('请输入锁屏密码').fill('123');
  await page.getByRole('button', { name: /解\s*锁/ }).click();
  await expect(page.locator('.bb-shell')).toBeVisible();
  await expect(page).not.toHaveURL(/\/lock/);
});

test('switching the language changes menus, labels and the page title', async ({ page }) => {
  await login(page);
  await openMenu(page, '系统管理', '参数管理');
  await page.getByRole('button', { name: '中英文' }).click();
  await page.getByText('English', { exact: true }).click();
  const side = page.locator('.ant-layout-sider');
  await expect(side.getByText('System', { exact: false }).first()).toBeVisible();
  await expect(page.locator('.ant-layout-content').getByText('Parameter name').first()).toBeVisible();
  await expect(page).toHaveTitle(/Bluebird/);
  const enTitle = await page.title();
  expect(enTitle).not.toMatch(/参数|登录|管理控制台/);
  // and back
  await page.getByRole('button', { name: 'Language' }).or(page.getByRole('button', { name: '中英文' })).first().click();
  await page.getByText('中文', { exact: true }).click();
  await expect(side.getByText('系统管理', { exact: true })).toBeVisible();
});
