import { test, expect } from '@playwright/test';
import { LANGUAGES, WORDS, dialogWith, newTenant, open, pick, rowWith, shot, signIn, toast, uniqueTag } from './masterdata-support.js';

for (const lang of LANGUAGES) {
  const w = WORDS[lang];

  test(`[${lang}] a code rule's preview is the number the next material gets`, async ({ page, request }) => {
    const tag = uniqueTag();
    const { tenantId, api } = await newTenant(request, `编码${tag}`);
    await signIn(page, tenantId, lang);

    // the rule, with its segments in the master/detail editor: fixed text WL, "-", a 4-digit serial
    let content = await open(page, w.master, w.codeRules);
    await content.getByRole('button', { name: w.add }).click();
    const form = dialogWith(page, w.ruleCode);
    const ruleCode = `MAT${tag}`;
    await form.getByLabel(w.ruleCode, { exact: true }).fill(ruleCode);
    await form.getByLabel(w.ruleName, { exact: true }).fill(lang === 'zh' ? '物料编号' : 'Material code');
    await form.getByLabel(w.bizType, { exact: true }).fill('MAT');
    await pick(page, form.getByLabel(w.effectiveStatus, { exact: true }), w.notEffective);
    const cell = (line, name) => form.locator(`#crud-coderulenew_details_${line}_${name}`);
    await form.getByRole('button', { name: w.addLine }).click();
    await cell(0, 'seq').fill('1');
    await pick(page, cell(0, 'segmentType'), w.fixedText);
    await cell(0, 'fixedValue').fill('WL');
    await cell(0, 'separator').fill('-');
    await form.getByRole('button', { name: w.addLine }).click();
    await cell(1, 'seq').fill('2');
    await pick(page, cell(1, 'segmentType'), w.serial);
    await cell(1, 'serialLength').fill('4');
    await shot(page, 'code-rule-form', lang);
    await form.getByRole('button', { name: w.save }).click();
    await expect(toast(page, w.added)).toBeVisible();
    await expect(form).toBeHidden();
    const rule = rowWith(content, ruleCode);
    await expect(rule.locator('.ant-tag', { hasText: new RegExp(`^${w.notEffective}$`) })).toBeVisible();

    // made effective by editing it; its segments come back in the editor
    await rule.getByRole('button', { name: w.edit, exact: true }).click();
    const edit = dialogWith(page, w.ruleCode);
    await expect(edit.getByLabel(w.ruleCode, { exact: true })).toHaveValue(ruleCode);
    await expect(cell(0, 'fixedValue')).toHaveValue('WL');
    await expect(cell(1, 'serialLength')).toHaveValue('4');
    await pick(page, edit.getByLabel(w.effectiveStatus, { exact: true }), w.effective);
    await edit.getByRole('button', { name: w.save }).click();
    await expect(toast(page, w.updated)).toBeVisible();
    await expect(edit).toBeHidden();
    await expect(rule.locator('.ant-tag', { hasText: new RegExp(`^${w.effective}$`) })).toBeVisible();
    await shot(page, 'code-rule-list', lang);

    // the material form previews the number as the code's placeholder; saved without a code, the
    // material gets it
    const preview = (await api.get('/api/bluebird-basic/coderulenew/preview?bizType=MAT')).number;
    expect(preview).toMatch(/^WL-\d{4}$/);
    content = await open(page, w.master, w.materials);
    await content.getByRole('button', { name: w.add }).click();
    const material = dialogWith(page, w.materialCode);
    const code = material.getByLabel(w.materialCode, { exact: true });
    await expect(code).toHaveAttribute('placeholder', preview);
    await expect(code).toHaveValue('');
    const name = lang === 'zh' ? `垫片${tag}` : `Washer ${tag}`;
    await material.getByLabel(w.materialName, { exact: true }).fill(name);
    await pick(page, material.getByLabel(w.unit, { exact: true }), w.pcs);
    await shot(page, 'material-form', lang);
    await material.getByRole('button', { name: w.save }).click();
    await expect(toast(page, w.added)).toBeVisible();
    await expect(material).toBeHidden();
    await expect(rowWith(content, name)).toContainText(preview);
    const saved = await api.get(`/api/bluebird-basic/material/list?materialName=${encodeURIComponent(name)}`);
    expect(saved.records.map((m) => m.materialCode)).toEqual([preview]);
  });
}
