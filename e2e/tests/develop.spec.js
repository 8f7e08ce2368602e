import { test, expect } from '@playwright/test';
import { login, openMenu } from './helpers.js';

const SHOTS = process.env.BLUEBIRD_SHOTS;
const shot = async (page, name) => SHOTS && page.screenshot({ path: `${SHOTS}/${name}.png` });

test('build a report with its chart and see it', async ({ page }) => {
  await login(page);
  await openMenu(page, '报表管理', '报表管理');
  const content = page.locator('.ant-layout-content');
  await expect(content.getByText('各部门用户数')).toBeVisible();

  await content.getByRole('button', { name: /新\s*增/ }).first().click();
  const dialog = page.locator('.ant-modal').filter({ hasText: '报表名称' });
  await dialog.getByPlaceholder('请输入报表名称').fill('端到端报表');
  await dialog.locator('.ant-select').filter({ hasText: '请选择数据来源' }).click();
  await page.keyboard.type('blade-system/post');
  await page.locator('.ant-select-dropdown:visible .ant-select-item-option').first().click();
  await dialog.locator('.ant-select').filter({ hasText: '请选择分组字段' }).click();
  await page.keyboard.type('岗位类型'); // the list is long and virtual: narrow it
  await page.locator('.ant-select-dropdown:visible .ant-select-item-option', { hasText: '岗位类型' }).first().click();
  await page.keyboard.press('Escape');
  await dialog.locator('.ant-select').filter({ hasText: '请选择统计值' }).click();
  await page.keyboard.type('数量');
  await page.locator('.ant-select-dropdown:visible .ant-select-item-option', { hasText: '数量' }).first().click();
  await page.keyboard.press('Escape');
  await dialog.getByRole('button', { name: /保\s*存/ }).click();
  await expect(page.getByText('新增成功')).toBeVisible();

  const row = content.locator('tr', { hasText: '端到端报表' });
  await row.getByText('查看报表').click();
  const view = page.getByTestId('report-view');
  await expect(view.locator('canvas').first()).toBeVisible();
  await expect(view.locator('.ant-table-tbody tr').first()).toBeVisible();
  await expect(view.locator('th', { hasText: '数量' })).toBeVisible();
  await shot(page, 'report-run');
  const download = page.waitForEvent('download');
  await view.getByRole('button', { name: /导出/ }).click();
  expect((await download).suggestedFilename()).toMatch(/^端到端报表-\d+\.xlsx$/);
});

test('generate code for a table and download the zip', async ({ page }) => {
  await login(page);
  await openMenu(page, '研发工具', '代码生成');
  const content = page.locator('.ant-layout-content');
  await content.getByRole('button', { name: /新\s*增/ }).first().click();
  const dialog = page.locator('.ant-modal').filter({ hasText: '模块名' });
  await dialog.getByPlaceholder('请输入模块名').fill('参数');
  await dialog.locator('.ant-select').filter({ hasText: '请选择数据表' }).click();
  await page.keyboard.type('blade_param');
  await page.locator('.ant-select-dropdown:visible .ant-select-item-option', { hasText: /^blade_param$/ }).click();
  await dialog.getByPlaceholder('请输入表前缀').fill('blade_');
  await dialog.getByPlaceholder('请输入服务名').fill('bluebird-demo');
  await dialog.getByPlaceholder('请输入Go包名').fill('demo');
  await dialog.getByRole('button', { name: /保\s*存/ }).click();
  await expect(page.getByText('新增成功')).toBeVisible();

  const row = content.locator('tr', { hasText: 'blade_param' });
  await row.getByText('字段', { exact: true }).click();
  await expect(page.locator('.ant-modal').filter({ hasText: 'param_key' })).toBeVisible();
  await shot(page, 'code-columns');
  await page.keyboard.press('Escape');

  const download = page.waitForEvent('download');
  await row.getByText('代码生成', { exact: true }).click();
  const file = await (await download).path();
  const zip = (await import('node:fs')).readFileSync(file).toString('latin1');
  for (const name of ['internal/demo/param.go', 'migrations/', 'internal/seed/seeddata/param_menu.txt', 'README.md']) {
    expect(zip.includes(name), name).toBe(true);
  }
});
