import { test, expect } from '@playwright/test';
import { mkdirSync } from 'node:fs';
import { apiLogin, login, openMenu } from './helpers.js';

const SHOTS = process.env.BLUEBIRD_SHOTS;
const shot = async (page, name) => {
  if (!SHOTS) return;
  mkdirSync(`${SHOTS}/desk`, { recursive: true });
  await page.screenshot({ path: `${SHOTS}/desk/${name}.png` });
};

test('a notice published with the editor is unread in the bell, read once opened, and on the home page', async ({ page }) => {
  test.setTimeout(60_000);
  await page.setViewportSize({ width: 1400, height: 850 });
  await login(page);
  await openMenu(page, '工作台', '通知公告');
  const content = page.locator('.ant-layout-content');
  await content.getByRole('button', { name: /新\s*增/ }).first().click();
  const dialog = page.locator('.ant-modal').filter({ hasText: '通知标题' });
  await dialog.getByPlaceholder('请输入通知标题').fill('端到端停电通知');
  await dialog.locator('.ant-select').first().click();
  await page.locator('.ant-select-dropdown:visible').getByText('发布通知', { exact: true }).click();
  const editor = dialog.getByRole('textbox', { name: '通知内容' });
  await editor.click();
  await page.keyboard.type('明天停电');
  await page.keyboard.press('Control+A');
  await dialog.getByRole('button', { name: '加粗' }).click();
  await shot(page, 'notice-editor');
  await dialog.getByRole('button', { name: /保\s*存/ }).click();
  await expect(page.getByText('新增成功')).toBeVisible();
  await expect(content.locator('tr', { hasText: '端到端停电通知' })).toBeVisible();

  // the bell: unread, then read once opened
  await page.getByRole('button', { name: '消息' }).click();
  const item = page.getByTestId('notice-list').locator('[data-read]', { hasText: '端到端停电通知' });
  await expect(item).toHaveAttribute('data-read', 'false');
  await shot(page, 'bell-unread');
  await item.click();
  const reader = page.getByTestId('notice-reader');
  await expect(reader.locator('b', { hasText: '明天停电' })).toBeVisible();
  await shot(page, 'notice-reader');
  await page.keyboard.press('Escape');
  await expect(reader).toBeHidden();
  await expect(page.getByTestId('notice-list').locator('[data-read]', { hasText: '端到端停电通知' })).toHaveAttribute('data-read', 'true');

  // the home page at both widths, in zh and en: the notice and the to-do block
  for (const width of [1400, 800]) {
    for (const lang of ['zh', 'en']) {
      await page.evaluate((l) => localStorage.setItem('saber-language', JSON.stringify({ content: l })), lang);
      await page.setViewportSize({ width, height: 850 });
      await page.goto('/wel/index');
      await expect(page.getByTestId('home-notices')).toContainText('端到端停电通知');
      await expect(page.getByTestId('home-tasks')).toBeVisible();
      await expect(page.getByTestId('home-figures')).toBeVisible();
      await shot(page, `home-${width}-${lang}`);
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      expect(overflow).toBeLessThanOrEqual(0);
    }
  }
});

test('a user without the notice menu sees no notice block', async ({ page, request }) => {
  const admin = await apiLogin(request);
  const tree = await admin.get('/api/blade-system/menu/list');
  const ids = {};
  const walk = (nodes) => nodes.forEach((n) => ((ids[n.code] = n.id), walk(n.children ?? [])));
  walk(tree);
  const tenant = await admin.post('/api/blade-system/tenant/submit', { tenantName: `Desk ${Date.now()}`, linkman: 'e2e' });
  const ta = await apiLogin(request, { tenant: tenant.tenantId });
  const role = await ta.post('/api/blade-system/role/submit', { roleName: '办事员', roleAlias: 'clerk', sort: 2 });
  await ta.post('/api/blade-system/role/grant', { roleIds: [role.id], menuIds: [ids.work, ids.work_todo] });
  await ta.post('/api/blade-user/submit', {
    account: 'clerk1', name: 'clerk1', realName: '办事员', password: 'secret1', roleId: role.id, deptId: ta.body.dept_id, phone: '13800000000',
  });
  await login(page, { tenant: tenant.tenantId, account: 'clerk1', password: 'secret1' });
  await expect(page.getByTestId('home-tasks')).toBeVisible();
  await expect(page.getByTestId('home-notices')).toHaveCount(0);
  await shot(page, 'home-without-notices');
});
