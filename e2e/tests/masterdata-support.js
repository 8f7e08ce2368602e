// Shared steps of the master data scenarios (masterdata-*.spec.js): each runs in Chinese and in English,
// in a tenant of its own made through the API, so that its rows (a MAT code rule, the only warehouse, ...)
// meet nothing left by another scenario or an earlier run.
import { mkdirSync } from 'node:fs';
import { expect } from '@playwright/test';
import { apiLogin, login, openMenu } from './helpers.js';

export const LANGUAGES = ['zh', 'en'];

// The words of the screens, as the server (menus, metadata labels, dictionaries, messages) and the web
// app (buttons, toasts) say them in each language.
// Buttons are matched by the end of their accessible name: an icon's label comes first ("plus 新增").
export const WORDS = {
  zh: {
    add: /(^|\s)新\s*增$/, save: /(^|\s)保\s*存$/, search: /(^|\s)搜\s*索$/, reset: /(^|\s)清\s*空$/, edit: '编辑', ok: /(^|\s)确\s*定$/, addLine: /(^|\s)新增行$/,
    added: '新增成功', updated: '更新成功', done: '设置成功', setEffective: '生效',
    warehouses: '仓库管理', warehouseInfo: '仓库信息', positions: '库位管理',
    master: '基础资料', materials: '物料管理', conversions: '单位换算', codeRules: '编码规则',
    warehouseCode: '仓库编号', warehouseName: '仓库名称', warehouseType: '仓库类型', materialWarehouse: '物料仓',
    needWarehouseCode: '请输入仓库编号', needWarehouseName: '请输入字典名称',
    effectiveStatus: '生效状态', notEffective: '未生效', effective: '已生效',
    positionWarehouse: '所属仓库', parentPosition: '上级库位', positionKey: '库位键值', positionName: '库位名称',
    ruleCode: '规则编码', ruleName: '规则名称', bizType: '业务类型', fixedText: '固定值', serial: '流水号',
    materialCode: '物料编号', materialName: '物料名称', unit: '单位', safetyStock: '安全库存', pcs: '个', box: '箱',
    itemKind: '物品类别', material: '物料', item: '物料', fromUnit: '换算单位', toUnit: '基本单位', ratio: '换算比例',
    columns: '列设置',
  },
  en: {
    add: /(^|\s)Add$/, save: /(^|\s)Save$/, search: /(^|\s)Search$/, reset: /(^|\s)Reset$/, edit: 'Edit', ok: /(^|\s)OK$/, addLine: /(^|\s)Add line$/,
    added: 'Added', updated: 'Updated', done: 'Done', setEffective: 'Set effective',
    warehouses: 'Warehouses', warehouseInfo: 'Warehouse Info', positions: 'Storage Locations',
    master: 'Master Data', materials: 'Materials', conversions: 'Unit Conversions', codeRules: 'Code Rules',
    warehouseCode: 'Warehouse code', warehouseName: 'Warehouse name', warehouseType: 'Warehouse type', materialWarehouse: 'Material warehouse',
    needWarehouseCode: 'Please enter the warehouse code', needWarehouseName: 'Please enter the warehouse name',
    effectiveStatus: 'Effective status', notEffective: 'Not effective', effective: 'Effective',
    positionWarehouse: 'Warehouse', parentPosition: 'Parent location', positionKey: 'Location key', positionName: 'Location name',
    ruleCode: 'Rule code', ruleName: 'Rule name', bizType: 'Business type', fixedText: 'Fixed text', serial: 'Serial number',
    materialCode: 'Material code', materialName: 'Material name', unit: 'Unit', safetyStock: 'Safety stock', pcs: 'pcs', box: 'box',
    itemKind: 'Item kind', material: 'Material', item: 'Material', fromUnit: 'From unit', toUnit: 'To unit', ratio: 'Ratio',
    columns: 'Columns',
  },
};

// A run-unique tag for codes and names (upper case: codes are matched as typed).
export const uniqueTag = () => (Date.now().toString(36) + Math.random().toString(36).slice(2, 5)).toUpperCase();

// newTenant creates a tenant as the platform administrator and signs in to the API as its administrator
// (admin / the default password admin), who holds the business menus.
export async function newTenant(request, name) {
  const platform = await apiLogin(request);
  const tenant = await platform.post('/api/blade-system/tenant/submit', { tenantName: name, linkman: 'e2e' });
  const api = await apiLogin(request, { tenant: tenant.tenantId });
  return { tenantId: tenant.tenantId, api };
}

// signIn signs in to the tenant through the form and switches the UI language the way a user does,
// with the top bar's language menu.
export async function signIn(page, tenantId, lang) {
  await login(page, { tenant: tenantId });
  if (lang === 'en') {
    await page.getByRole('button', { name: '中英文' }).click();
    await page.getByText('English', { exact: true }).click();
    await expect(page.locator('.ant-layout-sider').getByText('Master Data', { exact: true })).toBeVisible();
  }
}

// open opens a leaf of the side menu and answers its page: the pages of the other open tabs stay in the
// document, hidden, and may show the same rows.
export async function open(page, group, leaf) {
  await openMenu(page, group, leaf);
  return page.locator(`.bb-page[data-page="${new URL(page.url()).pathname}"]`);
}

// The open form dialog (the one holding the given field label).
export const dialogWith = (page, label) => page.locator('.ant-modal').filter({ has: page.getByText(label, { exact: true }) });

// A toast with exactly this text (the latest: one of a save a moment ago may still show).
export const toast = (page, text) => page.locator('.ant-message').getByText(text, { exact: true }).last();

// pick chooses an option of a select; with typed, a remote select is searched first and the option
// (matched exactly, e.g. "code name") is waited for among the server's answers. A click on an option
// is now and then lost while the list is still settling (a virtual list scrolled to the option redraws
// it under the pointer): then the select still shows its placeholder, and the option is clicked again.
export async function pick(page, control, option, typed) {
  const select = control.locator('xpath=ancestor::div[contains(concat(" ", normalize-space(@class), " "), " ant-select ")][1]');
  // this select's own list (the listbox its input controls): another one may still be fading out
  const id = await control.getAttribute('id');
  const dropdown = page.locator('.ant-select-dropdown:visible').filter({ has: page.locator(`[id="${id}_list"]`) });
  await expect(async () => {
    if (!(await dropdown.count())) await control.click();
    if (typed !== undefined) await control.fill(typed);
    try {
      await dropdown.getByTitle(option, { exact: true }).click({ timeout: 5000 });
    } catch (e) {
      // say what the lists showed instead: the report of a failed run is all there is to go on
      const lists = await page.locator('.ant-select-dropdown:visible').allInnerTexts();
      throw new Error(`no option "${option}" for #${id} (open lists: ${JSON.stringify(lists).slice(0, 400)}): ${e.message.split('\n')[0]}`);
    }
    await expect(select).toContainText(option, { timeout: 1000 });
  }).toPass({ timeout: 20_000 });
}

// confirm answers OK to the confirmation dialog. Like a select's option, its button can lose a click
// made while the dialog is still zooming in; then the dialog stays, and OK is clicked again (a click
// that was taken sets the button loading until the command answers, so it never runs twice).
export async function confirm(page, words) {
  const dialog = page.locator('.ant-modal-confirm');
  await expect(dialog).toBeVisible();
  await expect(async () => {
    if (await dialog.isVisible()) await dialog.getByRole('button', { name: words.ok }).click({ timeout: 2000 });
    await expect(dialog).toBeHidden({ timeout: 2000 });
  }).toPass({ timeout: 20_000 });
}

// search fills one field of the page's search bar and searches.
export async function search(content, words, label, text) {
  const bar = content.locator('form.bb-search');
  await bar.getByLabel(label, { exact: true }).fill(text);
  await bar.getByRole('button', { name: words.search }).click();
}

// The list row holding a text.
// showColumns ticks columns in the list's column chooser: the list leaves out what does not fit its width.
export async function showColumns(page, content, words, labels) {
  await content.getByRole('button', { name: words.columns, exact: true }).click();
  const chooser = page.getByTestId('column-chooser').last();
  for (const label of labels) await chooser.getByRole('checkbox', { name: label, exact: true }).check();
  await page.keyboard.press('Escape');
  for (const label of labels) await expect(content.getByRole('columnheader', { name: label, exact: true })).toBeVisible();
}

export const rowWith = (content, text) => content.locator('tr.ant-table-row', { hasText: text });

// shot saves a screenshot into $BLUEBIRD_SHOTS (e.g. /tmp/shots) when it is set: the look of the
// screens is checked by eye, not by the suite.
export async function shot(page, name, lang) {
  const dir = process.env.BLUEBIRD_SHOTS;
  if (!dir) return;
  mkdirSync(dir, { recursive: true });
  // the toasts fade in and out: wait for none, so that screenshots show the screen itself
  await expect(page.locator('.ant-message-notice')).toHaveCount(0, { timeout: 5000 }).catch(() => undefined);
  await page.screenshot({ path: `${dir}/${name}-${lang}.png` });
}
