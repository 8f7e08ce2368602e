import { readFile } from 'node:fs/promises';
import { test, expect } from '@playwright/test';
import ExcelJS from 'exceljs';
import { LANGUAGES, WORDS, newTenant, open, rowWith, search, shot, showColumns, signIn, uniqueTag } from './masterdata-support.js';

const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

const TEXT = {
  zh: {
    import: /(^|\s)导\s*入$/, template: /(^|\s)下载导入模板$/, start: /(^|\s)开始导入$/, close: /(^|\s)关\s*闭$/,
    nothingSaved: '没有任何数据被导入, 请修改以下错误后重新导入', done: '导入成功: 新增2条, 更新1条',
  },
  en: {
    import: /(^|\s)Import$/, template: /(^|\s)Download the template$/, start: /(^|\s)Import$/, close: /(^|\s)Close$/,
    nothingSaved: 'Nothing was imported: correct the errors below and import again', done: 'Imported: 2 added, 1 updated',
  },
};

// fill writes rows into the template's first sheet under its header, each row given as {column label: value}.
async function fill(template, rows) {
  const book = new ExcelJS.Workbook();
  await book.xlsx.load(template);
  const sheet = book.worksheets[0];
  const header = sheet.getRow(1).values; // 1-based: [ , label1, label2, ...]
  rows.forEach((row, i) => {
    const line = sheet.getRow(i + 2);
    for (const [label, value] of Object.entries(row)) {
      const col = header.indexOf(label);
      expect(col, `column ${label} in the template`).toBeGreaterThan(0);
      line.getCell(col).value = value;
    }
    line.commit();
  });
  return Buffer.from(await book.xlsx.writeBuffer());
}

for (const lang of LANGUAGES) {
  const w = WORDS[lang];
  const x = TEXT[lang];

  test(`[${lang}] a material import lists every error of a bad file, then imports a good one`, async ({ page, request }) => {
    const tag = uniqueTag();
    const { tenantId, api } = await newTenant(request, `导入${tag}`);
    // a stored material that the good file updates by its code
    await api.post('/api/bluebird-basic/material/submit', { materialCode: `E${tag}`, materialName: `old ${tag}`, unit: 'pcs' });
    await signIn(page, tenantId, lang);

    const content = await open(page, w.master, w.materials);
    await content.getByRole('button', { name: x.import }).click();
    const dialog = page.locator('.ant-modal').filter({ has: page.getByRole('button', { name: x.template }) });
    // the template of the caller's language, downloaded with the dialog's button
    const [download] = await Promise.all([page.waitForEvent('download'), dialog.getByRole('button', { name: x.template }).click()]);
    expect(download.suggestedFilename()).toMatch(/\.xlsx$/);
    const template = await readFile(await download.path());

    const name = (n) => `${lang === 'zh' ? '导入物料' : 'Imported '}${n} ${tag}`;
    const upload = async (file, buffer) => {
      await dialog.locator('input[type=file]').setInputFiles({ name: file, mimeType: XLSX, buffer });
      await expect(dialog.getByText(file, { exact: true })).toBeVisible();
      await dialog.locator('.ant-modal-footer').getByRole('button', { name: x.start }).click();
    };

    // a bad file: row 3 lacks its name and has an unknown unit, row 4 a negative safety stock
    await upload('bad.xlsx', await fill(template, [
      { [w.materialCode]: `G${tag}1`, [w.materialName]: name(1), [w.unit]: w.pcs, [w.safetyStock]: '1.5' },
      { [w.materialCode]: `G${tag}2`, [w.unit]: lang === 'zh' ? '立方尺' : 'cubic foot' },
      { [w.materialCode]: `G${tag}3`, [w.materialName]: name(3), [w.unit]: w.pcs, [w.safetyStock]: '-1' },
      { [w.materialCode]: `G${tag}4`, [w.materialName]: name(4), [w.unit]: w.box },
    ]));
    await expect(dialog.getByText(x.nothingSaved, { exact: true })).toBeVisible();
    const errors = dialog.locator('.bb-import-errors tbody tr.ant-table-row');
    await expect(errors).toHaveCount(3);
    const error = (row, field) => errors.filter({ has: page.locator('td:nth-child(1)', { hasText: new RegExp(`^${row}$`) }) })
      .filter({ has: page.locator('td:nth-child(2)', { hasText: new RegExp(`^${field}$`) }) });
    await expect(error(3, w.materialName)).toHaveCount(1);
    await expect(error(3, w.unit)).toHaveCount(1);
    await expect(error(4, w.safetyStock)).toHaveCount(1);
    for (const row of await errors.all()) await expect(row.locator('td').nth(2)).not.toBeEmpty();
    await shot(page, 'material-import-errors', lang);
    const none = await api.get(`/api/bluebird-basic/material/list?materialCode=G${tag}1`);
    expect(none.records).toHaveLength(0);

    // a good file: two new materials and the stored one renamed (its empty cells leave it as it was)
    await upload('good.xlsx', await fill(template, [
      { [w.materialCode]: `G${tag}1`, [w.materialName]: name(1), [w.unit]: w.pcs, [w.safetyStock]: '0.000001' },
      { [w.materialCode]: `G${tag}2`, [w.materialName]: name(2), [w.unit]: w.box, [w.safetyStock]: '12.5' },
      { [w.materialCode]: `E${tag}`, [w.materialName]: `new ${tag}` },
    ]));
    await expect(dialog.getByText(x.done, { exact: true })).toBeVisible();
    await expect(errors).toHaveCount(0);
    // the list behind the dialog has reloaded
    await expect(rowWith(content, `G${tag}1`)).toHaveCount(1);
    await shot(page, 'material-import-done', lang);
    await dialog.locator('.ant-modal-footer').getByRole('button', { name: x.close }).click();
    await expect(dialog).toBeHidden();

    // the list shows them
    await search(content, w, w.materialCode, `G${tag}`);
    await expect(content.locator('tr.ant-table-row')).toHaveCount(2);
    await showColumns(page, content, w, [w.safetyStock]);
    await expect(rowWith(content, `G${tag}1`)).toContainText('0.000001');
    await expect(rowWith(content, `G${tag}2`)).toContainText('12.500000');
    await search(content, w, w.materialCode, `E${tag}`);
    await expect(rowWith(content, `E${tag}`)).toContainText(`new ${tag}`);
    const renamed = (await api.get(`/api/bluebird-basic/material/list?materialCode=E${tag}`)).records;
    expect(renamed).toMatchObject([{ materialName: `new ${tag}`, unit: 'pcs' }]);
  });
}
