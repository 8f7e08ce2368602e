import { test, expect } from '@playwright/test';
import { apiLogin, login, openMenu, confirm } from './helpers.js';

const shot = async (page, name) => {
  if (process.env.BLUEBIRD_SHOTS) await page.screenshot({ path: `${process.env.BLUEBIRD_SHOTS}/logs-${name}.png`, fullPage: true });
};

// Issue #12 parts 4 and 7: a request in the API log, an export in the goods-download monitor
// (marked checked), and today's online time from the console's own heartbeat.
test('API log, goods-download monitor and online duration', async ({ page, request }) => {
  const api = await apiLogin(request);
  await api.get('/api/blade-system/dict/list?e2eMarker=logs-spec&password=not-shown');
  // another tenant's admin is online today too: the platform administrator's statistics show both
  const other = await api.post('/api/blade-system/tenant/submit', { tenantName: `日志${Date.now()}`, linkman: 'e2e' });
  await (await apiLogin(request, { tenant: other.tenantId })).post('/api/log-service/heartbeat');

  await login(page);
  await openMenu(page, '系统监控', '接口日志');
  const content = page.locator('.ant-layout-content');
  await content.getByPlaceholder('请输入请求地址').fill('/api/blade-system/dict/list');
  await content.getByRole('button', { name: /搜\s*索/ }).click();
  const row = content.locator('tbody tr.ant-table-row').first();
  await expect(row).toContainText('/api/blade-system/dict/list');
  await row.getByText('查看').click();
  const detail = page.locator('.ant-modal').filter({ hasText: '请求参数' });
  await expect(detail).toContainText('e2eMarker=logs-spec');
  await expect(detail).toContainText('password=******');
  await expect(detail).not.toContainText('not-shown');
  await shot(page, 'api-detail');
  await page.keyboard.press('Escape');

  // export the API log: the download is recorded in the monitor
  const download = page.waitForEvent('download');
  await content.getByRole('button', { name: /导\s*出/ }).first().click();
  await download;

  await openMenu(page, '系统监控', '货物下载监控');
  const monitor = page.locator('.ant-layout-content');
  const record = monitor.locator('tbody tr.ant-table-row', { hasText: 'blade-log/api' }).first();
  await expect(record).toBeVisible();
  await record.locator('input[type=checkbox]').check();
  await monitor.getByRole('button', { name: '标记已检查' }).first().click();
  await confirm(page);
  await expect(page.getByText('已标记为已检查')).toBeVisible();
  await expect(monitor.locator('tbody tr.ant-table-row', { hasText: 'blade-log/api' }).first()).toContainText('admin');
  await shot(page, 'goods-download');

  await openMenu(page, '系统管理', '在线时长统计');
  const today = new Date().toISOString().slice(0, 10);
  const stats = page.locator('.ant-layout-content');
  // the platform administrator sees every tenant's rows, and each tenant has an "admin": the tenant column
  // tells them apart
  await expect(stats.getByRole('columnheader', { name: '租户ID' })).toBeVisible();
  const todays = stats.locator('tbody tr', { hasText: today }).filter({ hasText: 'admin' });
  await expect(todays.filter({ hasText: '000000' })).toHaveCount(1);
  await expect(todays.filter({ hasText: other.tenantId })).toHaveCount(1);
  await expect(stats.getByTestId('user-active-chart').locator('canvas')).toBeVisible();
  await shot(page, 'online-duration');
});
