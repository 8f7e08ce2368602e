import { test, expect } from '@playwright/test';
import { LANGUAGES, WORDS, confirm, dialogWith, newTenant, open, pick, rowWith, search, shot, showColumns, signIn, toast, uniqueTag } from './masterdata-support.js';

for (const lang of LANGUAGES) {
  const w = WORDS[lang];

  test(`[${lang}] a warehouse with a position tree is made effective`, async ({ page, request }) => {
    const tag = uniqueTag();
    const { tenantId } = await newTenant(request, `仓库${tag}`);
    await signIn(page, tenantId, lang);

    // the warehouse: the required messages of an empty form, then a material warehouse
    let content = await open(page, w.warehouses, w.warehouseInfo);
    await content.getByRole('button', { name: w.add }).click();
    const form = dialogWith(page, w.warehouseCode);
    await form.getByRole('button', { name: w.save }).click();
    await expect(form.getByText(w.needWarehouseCode, { exact: true })).toBeVisible();
    await expect(form.getByText(w.needWarehouseName, { exact: true })).toBeVisible();
    const code = `WH${tag}`;
    const name = `${lang === 'zh' ? '成品仓' : 'Main store '}${tag}`;
    await form.getByLabel(w.warehouseCode, { exact: true }).fill(code);
    await form.getByLabel(w.warehouseName, { exact: true }).fill(name);
    await pick(page, form.getByLabel(w.warehouseType, { exact: true }), w.materialWarehouse);
    await shot(page, 'warehouse-form', lang);
    await form.getByRole('button', { name: w.save }).click();
    await expect(toast(page, w.added)).toBeVisible();
    await expect(form).toBeHidden();
    const warehouse = rowWith(content, code);
    await expect(warehouse).toContainText(name);
    await showColumns(page, content, w, [w.effectiveStatus]);
    const status = warehouse.locator('.ant-tag', { hasText: new RegExp(`^${w.notEffective}$`) });
    await expect(status).toHaveClass(/ant-tag-red/);

    // its root position DEFAULT, named after the warehouse
    content = await open(page, w.warehouses, w.positions);
    await search(content, w, w.positionKey, 'DEFAULT');
    const root = rowWith(content, 'DEFAULT');
    await expect(root).toContainText(name);
    await expect(content.locator('tr.ant-table-row')).toHaveCount(1);

    // a child and a grandchild, each with its parent picked in the form
    const child = { key: `S${tag}`, name: lang === 'zh' ? `货架${tag}` : `Shelf ${tag}` };
    const grandchild = { key: `S${tag}.1`, name: lang === 'zh' ? `货架${tag}一层` : `Shelf ${tag} level 1` };
    for (const [pos, parent] of [[child, { key: 'DEFAULT', name }], [grandchild, child]]) {
      await content.getByRole('button', { name: w.add }).click();
      const dialog = dialogWith(page, w.positionKey);
      await pick(page, dialog.getByLabel(w.positionWarehouse, { exact: true }), `${code} ${name}`, code);
      await pick(page, dialog.getByLabel(w.parentPosition, { exact: true }), `${parent.key} ${parent.name}`, parent.key);
      await dialog.getByLabel(w.positionKey, { exact: true }).fill(pos.key);
      await dialog.getByLabel(w.positionName, { exact: true }).fill(pos.name);
      if (pos === grandchild) await shot(page, 'position-form', lang);
      await dialog.getByRole('button', { name: w.save }).click();
      await expect(toast(page, w.added)).toBeVisible();
      await expect(dialog).toBeHidden();
    }
    // each under its parent
    await search(content, w, w.positionKey, child.key);
    await expect(content.locator('tr.ant-table-row')).toHaveCount(2);
    // the parent's column, wherever the width puts it (the row number is left out when the columns do not fit)
    await showColumns(page, content, w, [w.parentPosition]);
    const headers = await content.getByRole('columnheader').allInnerTexts();
    const parentAt = headers.findIndex((t) => t.trim() === w.parentPosition);
    expect(parentAt).toBeGreaterThan(0);
    const parentCell = (row) => row.locator('td').nth(parentAt);
    await expect(parentCell(rowWith(content, child.name).filter({ hasNotText: grandchild.name }))).toHaveText(name);
    await expect(parentCell(rowWith(content, grandchild.name))).toHaveText(child.name);
    await shot(page, 'position-list', lang);

    // made effective with the row's button: the tag turns from red 未生效 to orange 已生效
    await page.getByRole('tab', { name: w.warehouseInfo, exact: true }).click();
    await warehouse.getByRole('button', { name: w.setEffective, exact: true }).click();
    await confirm(page, w);
    await expect(toast(page, w.done)).toBeVisible();
    const effective = warehouse.locator('.ant-tag', { hasText: new RegExp(`^${w.effective}$`) });
    await expect(effective).toHaveClass(/ant-tag-orange/);
    await expect(status).toHaveCount(0);
    await shot(page, 'warehouse-list', lang);
  });
}

// The storage locations page draws its rows as a tree when nothing is searched (GET lazy-tree without a
// warehouse: every warehouse's positions, each root named after its warehouse).
for (const lang of LANGUAGES) {
  const w = WORDS[lang];

  test(`[${lang}] the storage locations page shows the position tree`, async ({ page, request }) => {
    const tag = uniqueTag();
    const { tenantId, api } = await newTenant(request, `库位树${tag}`);
    const warehouse = await api.post('/api/bluebird-basic/warehouse/submit', { warehouseCode: `WH${tag}`, warehouseName: `W${tag}`, warehouseType: 1 });
    const root = (await api.get(`/api/bluebird-basic/warehouseposition/list?warehouseId=${warehouse.id}`)).records[0];
    const child = await api.post('/api/bluebird-basic/warehouseposition/submit', { warehouseId: warehouse.id, parentId: root.id, warehouseKey: `S${tag}`, warehouseName: `Shelf ${tag}` });
    await api.post('/api/bluebird-basic/warehouseposition/submit', { warehouseId: warehouse.id, parentId: child.id, warehouseKey: `S${tag}.1`, warehouseName: `Level ${tag}` });
    await signIn(page, tenantId, lang);

    const content = await open(page, w.warehouses, w.positions);
    const rows = content.locator('tr.ant-table-row');
    await expect(rows).toHaveCount(1);
    await expect(rowWith(content, 'DEFAULT')).toContainText(`WH${tag}`);
    await rowWith(content, 'DEFAULT').locator('.ant-table-row-expand-icon').click();
    await expect(rowWith(content, `Shelf ${tag}`)).toBeVisible();
    await rowWith(content, `Shelf ${tag}`).locator('.ant-table-row-expand-icon').click();
    await expect(rowWith(content, `Level ${tag}`)).toBeVisible();
    await expect(rows).toHaveCount(3);
    await shot(page, 'position-tree', lang);
  });
}
