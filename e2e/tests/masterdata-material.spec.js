import { test, expect } from '@playwright/test';
import { LANGUAGES, WORDS, dialogWith, newTenant, open, pick, rowWith, shot, showColumns, signIn, toast, uniqueTag } from './masterdata-support.js';

for (const lang of LANGUAGES) {
  const w = WORDS[lang];

  test(`[${lang}] a material with a decimal safety stock is picked by remote search`, async ({ page, request }) => {
    const tag = uniqueTag();
    const { tenantId, api } = await newTenant(request, `物料${tag}`);
    // Set up through the API: a material whose name shares a word with the one made below, so that the
    // search has something to leave out.
    const nut = lang === 'zh' ? `六角螺母${tag}` : `Hex nut ${tag}`;
    await api.post('/api/bluebird-basic/material/submit', { materialCode: `N${tag}`, materialName: nut, unit: 'pcs', safetyStock: '12.5' });
    await signIn(page, tenantId, lang);

    // the material: no code rule for MAT yet, so its code is typed; the safety stock has 6 decimals
    let content = await open(page, w.master, w.materials);
    await content.getByRole('button', { name: w.add }).click();
    const form = dialogWith(page, w.materialCode);
    const code = `B${tag}`;
    const name = lang === 'zh' ? `六角螺栓${tag}` : `Hex bolt ${tag}`;
    await form.getByLabel(w.materialCode, { exact: true }).fill(code);
    await form.getByLabel(w.materialName, { exact: true }).fill(name);
    await pick(page, form.getByLabel(w.unit, { exact: true }), w.pcs);
    await form.getByLabel(w.safetyStock, { exact: true }).fill('0.000001');
    await form.getByRole('button', { name: w.save }).click();
    await expect(toast(page, w.added)).toBeVisible();
    await expect(form).toBeHidden();

    // decimals are shown at their scale, right-aligned (the column is ticked in the chooser: it lies beyond
    // what fits the width)
    await showColumns(page, content, w, [w.safetyStock]);
    const column = await content.getByRole('columnheader').allInnerTexts();
    const stock = (row) => row.locator('td').nth(column.findIndex((t) => t.trim() === w.safetyStock));
    await expect(stock(rowWith(content, code))).toHaveText('0.000001');
    await expect(stock(rowWith(content, code))).toHaveCSS('text-align', 'right');
    await expect(stock(rowWith(content, nut))).toHaveText('12.500000');
    await stock(rowWith(content, code)).scrollIntoViewIfNeeded(); // the column lies beyond the first screen
    await shot(page, 'material-list', lang);

    // found by a part of its name in the remote-search select of a unit conversion
    content = await open(page, w.master, w.conversions);
    await content.getByRole('button', { name: w.add }).click();
    const conversion = dialogWith(page, w.ratio);
    await pick(page, conversion.getByLabel(w.itemKind, { exact: true }), w.material);
    const item = conversion.getByLabel(w.item, { exact: true });
    await item.click();
    await item.fill(lang === 'zh' ? '螺栓' : 'bolt');
    const options = page.locator('.ant-select-dropdown:visible .ant-select-item-option');
    await expect(options).toHaveCount(1);
    await expect(options).toHaveText(`${code} ${name}`);
    await shot(page, 'unit-conversion-pick', lang);
    await options.click();
    await pick(page, conversion.getByLabel(w.fromUnit, { exact: true }), w.box);
    await pick(page, conversion.getByLabel(w.toUnit, { exact: true }), w.pcs);
    await conversion.getByLabel(w.ratio, { exact: true }).fill('12');
    await conversion.getByRole('button', { name: w.save }).click();
    await expect(toast(page, w.added)).toBeVisible();
    await expect(conversion).toBeHidden();
    await showColumns(page, content, w, [w.ratio]);
    const row = rowWith(content, name);
    await expect(row).toContainText('12.000000000');
    await shot(page, 'unit-conversion-list', lang);
    const saved = await api.get('/api/bluebird-basic/unitcomparison/list');
    expect(saved.records).toHaveLength(1);
    expect(saved.records[0]).toMatchObject({ itemKind: 1, fromUnit: 'box', toUnit: 'pcs', ratio: '12.000000000' });
  });
}
