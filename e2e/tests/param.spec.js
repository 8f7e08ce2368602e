import { test, expect } from '@playwright/test';
import { login, openMenu } from './helpers.js';

test('system parameter: validation messages, create, edit, delete', async ({ page }) => {
  await login(page);
  await openMenu(page, '系统管理', '参数管理');
  const content = page.locator('.ant-layout-content');
  await expect(content.getByText('account.failCount')).toBeVisible();

  // add: blur validation, then all three messages on save
  await content.getByRole('button', { name: /新\s*增/ }).first().click();
  const dialog = page.locator('.ant-modal').filter({ hasText: '参数名称' });
  await dialog.getByPlaceholder('请输入参数名称').focus();
  await dialog.getByPlaceholder('请输入参数键名').focus();
  await expect(dialog.getByText('请输入参数名称', { exact: true })).toBeVisible();
  await dialog.getByRole('button', { name: /保\s*存/ }).click();
  await expect(dialog.getByText('请输入参数键名', { exact: true })).toBeVisible();
  await expect(dialog.getByText('请输入参数键值', { exact: true })).toBeVisible();

  await dialog.getByPlaceholder('请输入参数名称').fill('端到端参数');
  await dialog.getByPlaceholder('请输入参数键名').fill('e2e.key');
  await dialog.getByPlaceholder('请输入参数键值').fill('第一行\n第二行');
  await dialog.getByRole('button', { name: /保\s*存/ }).click();
  await expect(page.getByText('新增成功')).toBeVisible();
  await expect(dialog).toBeHidden();
  const row = content.locator('tr', { hasText: 'e2e.key' });
  await expect(row).toBeVisible();

  // search sends only the filled filter
  await content.getByPlaceholder('请输入参数键名').fill('e2e');
  await content.getByRole('button', { name: /搜\s*索/ }).click();
  await expect(content.locator('tbody tr.ant-table-row')).toHaveCount(1);

  // edit
  await row.getByText('编辑').click();
  const edit = page.locator('.ant-modal').filter({ hasText: '参数名称' });
  await edit.getByPlaceholder('请输入参数键值').fill('改过的值');
  await edit.getByRole('button', { name: /保\s*存/ }).click();
  await expect(page.getByText('更新成功')).toBeVisible();
  await expect(content.locator('tr', { hasText: 'e2e.key' })).toContainText('改过的值');

  // delete with confirmation
  await content.locator('tr', { hasText: 'e2e.key' }).getByText('删除').click();
  await page.locator('.ant-modal-confirm, .ant-popover, .ant-popconfirm').last().getByRole('button', { name: /确\s*定|OK/ }).click();
  await expect(page.getByText('删除成功')).toBeVisible();
  await expect(content.locator('tr', { hasText: 'e2e.key' })).toHaveCount(0);
});

test('bulk delete warns without a selection and confirms with one', async ({ page }) => {
  await login(page);
  await openMenu(page, '系统管理', '参数管理');
  const content = page.locator('.ant-layout-content');
  await expect(content.getByText('account.failCount')).toBeVisible();
  const toolbarDelete = content.getByRole('button', { name: /删\s*除/ }).first();
  await toolbarDelete.click();
  await expect(page.getByText('请选择至少一条数据')).toBeVisible();
  await content.locator('tr', { hasText: 'account.registerUser' }).locator('input[type=checkbox]').check();
  await toolbarDelete.click();
  const confirm = page.locator('.ant-modal-confirm');
  await expect(confirm.getByText('确定将选择数据删除?')).toBeVisible();
  await confirm.getByRole('button', { name: /取\s*消|Cancel/ }).click();
  await expect(content.getByText('account.registerUser')).toBeVisible();
});
