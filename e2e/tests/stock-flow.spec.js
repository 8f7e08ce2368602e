// The stock flow of issue #11 through the document editor: a material received with a batch, a production
// plan requiring it, approved; a production picking against the plan (chosen in the issue form) whose line
// is filled from the FEFO stock picker (a quantity above the bucket's available one refused on the cell
// before saving), posted; its ledger rows on its detail view and its printout; the unused part returned
// through a back-stock, approved, its receipt made and posted; a count with a difference, adjusted; each
// step seen on the material stock screen (the bucket's quantity and its ledger drawer) and in the ledger.
import { test, expect } from '@playwright/test';
import { LANGUAGES, WORDS, dialogWith, newTenant, pick, rowWith, shot, signIn, toast, uniqueTag } from './masterdata-support.js';

const DOC = {
  zh: { warehouse: '仓库', pickStock: '选库存', pickTitle: '选择库存(先到期先出)', pick: /^选\s*择$/, available: '可用数量', view: '查看', print: '打印',
    ledger: '库存流水', close: /^关\s*闭$/, over: '数量超过可用数量 10.000000', signatures: ['制单', '审核', '仓管', '领料人'], issueTitle: '物料出库单',
    pickLines: '选择明细', pickAdd: '添加所选(1)', overReturn: '数量超过可退数量 6.000000', reason: '退库原因' },
  en: { warehouse: 'Warehouse', pickStock: 'Pick stock', pickTitle: 'Pick stock (first expiry, first out)', pick: /^Pick$/, available: 'Available', view: 'View',
    print: 'Print', ledger: 'Stock ledger', close: /^Close$/, over: 'Quantity is more than the 10.000000 available', signatures: ['Prepared by', 'Approved by', 'Storekeeper', 'Received by'],
    issueTitle: 'Material issue', pickLines: 'Select lines', pickAdd: 'Add selected (1)', overReturn: 'Quantity is more than 6.000000 (Returnable)', reason: 'Reason' },
};
const STOCK = { zh: { ledger: /^流\s*水$/, plan: '生产计划' }, en: { ledger: /^Ledger$/, plan: 'Production plan' } };

// seeStock opens the material stock screen and checks the batch's bucket: its quantity on the list and, in
// its ledger drawer, its movements newest first (document number and signed quantity each).
async function seeStock(page, batchNo, qty, movements, lang) {
  await page.goto('/stock/material-stock');
  const row = rowWith(page.locator('.bb-page:visible'), batchNo);
  await expect(row).toContainText(qty);
  await row.getByRole('button', { name: STOCK[lang].ledger }).click();
  const drawer = page.locator('.ant-drawer:visible');
  const rows = drawer.locator('tr.ant-table-row');
  await expect(rows).toHaveCount(movements.length);
  for (const [i, [docNo, signed]] of movements.entries()) {
    await expect(rows.nth(i)).toContainText(docNo);
    await expect(rows.nth(i)).toContainText(signed);
  }
  return drawer;
}

for (const lang of LANGUAGES) {
  const w = WORDS[lang];
  const d = DOC[lang];

  test(`[${lang}] receive, plan, issue against the plan through the FEFO picker, print, return, count`, async ({ page, request }) => {
    test.setTimeout(360_000);
    const tag = uniqueTag();
    const { tenantId, api } = await newTenant(request, `库存${tag}`);

    // receive: a warehouse, a batch-managed material, two batches received (the later expiry first)
    const warehouse = await api.post('/api/bluebird-basic/warehouse/submit', { warehouseCode: `W${tag}`, warehouseName: `仓${tag}`, warehouseType: 1 });
    const position = (await api.get(`/api/bluebird-basic/warehouseposition/list?warehouseId=${warehouse.id}`)).records[0];
    const material = await api.post('/api/bluebird-basic/material/submit', { materialCode: `M${tag}`, materialName: `料${tag}`, unit: 'pcs', batchManaged: 1 });
    const supplier = await api.post('/api/bluebird-basic/suppliermain/submit', { supplierCode: `S${tag}`, supplierName: `供${tag}` });
    const receipt = await api.post('/api/bluebird-basic/materialinrecordmain/submit', {
      inType: 1, warehouseId: warehouse.id, supplierId: supplier.id,
      details: [
        { materialId: material.id, qty: '8', positionId: position.id, unitPrice: '2', batchNo: `LATE${tag}`, productionDate: '2026-03-01', expiryDate: '2027-09-01' },
        { materialId: material.id, qty: '10', positionId: position.id, unitPrice: '2', batchNo: `EARLY${tag}`, productionDate: '2026-01-01', expiryDate: '2027-01-01' },
      ],
    });
    await api.post(`/api/bluebird-basic/materialinrecordmain/startProcess?ids=${receipt.id}`);
    await api.post(`/api/bluebird-basic/materialinrecordmain/submitInStockMaterial?ids=${receipt.id}`);
    const available = async () =>
      (await api.get(`/api/bluebird-basic/materialstock/allDetail?current=1&size=10&warehouseId=${warehouse.id}&materialId=${material.id}`)).records.map(
        (r) => `${r.batchNo}:${r.qty}`,
      );
    // FEFO: the earlier expiry first
    expect(await available()).toEqual([`EARLY${tag}:10.000000`, `LATE${tag}:8.000000`]);

    // a production plan requiring the material, approved
    const workshop = await api.post('/api/blade-system/dept/submit', { deptName: `车间${tag}`, fullName: `车间${tag}`, deptCategory: 1, sort: 1 });
    const plan = await api.post('/api/bluebird-basic/produceplanmain/submit', {
      workShopId: workshop.id, projectName: `项目${tag}`, deliveryTime: '2026-12-01 08:00:00',
      details: [{ productCode: `P${tag}`, productName: '开关柜', count: '2' }],
      materials: [{ materialId: material.id, requiredQty: '6' }],
    });
    await api.post(`/api/bluebird-basic/produceplanmain/startProcess?ids=${plan.id}`);

    await signIn(page, tenantId, lang);
    // the receipt on the stock screen: the early batch's bucket holds 10, one movement in
    const receiptDoc = (await api.get(`/api/bluebird-basic/materialinrecordmain/detail?id=${receipt.id}`)).docNo;
    await seeStock(page, `EARLY${tag}`, '10.000000', [[receiptDoc, '+10.000000']], lang);

    // the plan's editor shows its required materials in their own grid
    await page.goto('/production/plan');
    const plans = page.locator('.bb-page:visible');
    await rowWith(plans, plan.producePlanCode).getByRole('button', { name: d.view }).click();
    const planView = page.locator('.ant-modal:visible').last();
    await expect(planView.locator('.bb-lines').nth(1)).toContainText(`料${tag}`);
    await expect(planView.locator('.bb-lines').nth(1)).toContainText('6.000000');
    await shot(page, 'stock-plan-materials', lang);
    await planView.getByRole('button', { name: d.close }).last().click();

    // the issue: its line filled from the FEFO picker
    await page.goto('/stock/material-out');
    const content = page.locator('.bb-page:visible');
    await content.getByRole('button', { name: w.add }).click();
    const form = dialogWith(page, d.warehouse);
    await pick(page, form.getByLabel(d.warehouse, { exact: true }), `W${tag} 仓${tag}`, `W${tag}`);
    // a production picking (the default issue type) is for a plan: chosen here, its lines are its materials
    await pick(page, form.getByLabel(STOCK[lang].plan, { exact: true }), `${plan.producePlanCode} 项目${tag}`, plan.producePlanCode);
    await form.getByRole('button', { name: w.addLine }).click();
    const line = form.locator('.bb-lines-table tr.ant-table-row').first();
    await pick(page, line.getByRole('combobox').first(), `M${tag} 料${tag}`, `M${tag}`);
    await line.getByRole('button', { name: d.pickStock }).click();
    const picker = page.locator('.ant-modal').filter({ hasText: d.pickTitle });
    const buckets = picker.locator('tr.ant-table-row');
    await expect(buckets).toHaveCount(2);
    await expect(buckets.first()).toContainText(`EARLY${tag}`);
    await expect(buckets.first()).toContainText('2027-01-01');
    await expect(buckets.first()).toContainText('10.000000');
    await shot(page, 'stock-picker', lang);
    await buckets.first().getByRole('button', { name: d.pick }).click();
    await expect(picker).toBeHidden();
    await expect(line.locator('input[id$="_batchNo"]')).toHaveValue(`EARLY${tag}`);
    await expect(line.locator('[data-available]')).toHaveText(/^10\.000000/);
    // more than the bucket holds is refused on the cell, and nothing is saved
    await line.locator('input[id$="_qty"]').fill('12');
    await line.locator('input[id$="_qty"]').blur();
    await expect(line.getByText(d.over)).toBeVisible();
    await form.getByRole('button', { name: w.save }).click();
    await expect(line.getByText(d.over)).toBeVisible();
    await shot(page, 'stock-picker-over', lang);
    await line.locator('input[id$="_qty"]').fill('6');
    await line.locator('input[id$="_qty"]').blur();
    await expect(line.getByText(d.over)).toBeHidden();
    await form.getByRole('button', { name: w.save }).click();
    await expect(toast(page, w.added)).toBeVisible();
    await expect(form).toBeHidden();

    // approved and issued: the bucket goes down by 6, the ledger has the issue's row
    const issues = await api.get(`/api/bluebird-basic/materialoutrecordmain/page?current=1&size=10&warehouseId=${warehouse.id}`);
    const issue = issues.records[0];
    expect(issue.producePlanId).toBe(plan.id);
    await api.post(`/api/bluebird-basic/materialoutrecordmain/startProcess?ids=${issue.id}`);
    await api.post(`/api/bluebird-basic/materialoutrecordmain/outboundSubmitted?ids=${issue.id}`);
    expect(await available()).toEqual([`EARLY${tag}:4.000000`, `LATE${tag}:8.000000`]);
    await seeStock(page, `EARLY${tag}`, '4.000000', [[issue.docNo, '-6.000000'], [receiptDoc, '+10.000000']], lang);
    await shot(page, 'stock-ledger-drawer', lang);
    await page.goto('/stock/material-out');

    // its ledger rows on its detail view
    await page.reload();
    const issueRow = rowWith(page.locator('.bb-page:visible'), issue.docNo);
    await issueRow.getByRole('button', { name: d.view }).click();
    const view = page.locator('.ant-modal:visible').last();
    const ledger = view.locator('section.bb-related');
    await expect(ledger).toContainText(d.ledger);
    await expect(ledger.locator('tr.ant-table-row')).toHaveCount(1);
    await expect(ledger.locator('tr.ant-table-row')).toContainText(`EARLY${tag}`);
    await expect(ledger.locator('tr.ant-table-row')).toContainText('6.000000');
    await expect(view.getByRole('button', { name: d.pickStock })).toHaveCount(0);
    await ledger.scrollIntoViewIfNeeded();
    await shot(page, 'stock-ledger', lang);
    await view.getByRole('button', { name: d.close }).last().click();

    // its printout: header, the line, the totals, four signature boxes
    await issueRow.getByRole('button', { name: d.print }).click();
    const printed = page.locator('.bb-print-page');
    await expect(printed.getByRole('heading', { name: d.issueTitle })).toBeVisible();
    await expect(printed.locator('.bb-print-no')).toHaveText(issue.docNo);
    await expect(printed.locator('.bb-print-lines tbody tr')).toHaveCount(1);
    await expect(printed.locator('.bb-print-lines tbody tr')).toContainText(`EARLY${tag}`);
    await expect(printed.locator('[data-total="qty"]')).toHaveText('6.000000');
    await expect(printed.locator('.bb-print-sign-label')).toHaveText(d.signatures);
    await shot(page, 'stock-print', lang);
    await page.emulateMedia({ media: 'print' });
    await expect(page.locator('.bb-shell')).toBeHidden();
    await expect(printed).toBeVisible();
    await page.emulateMedia({ media: 'screen' });
    await page.locator('.bb-print-toolbar').getByRole('button').last().click();
    await expect(printed).toHaveCount(0);

    // the unused 2 go back through a back-stock against the plan: its form chooses the plan, 选择明细 lists
    // what the plan's pickings may still give back, and the ticked issue line becomes a line (shown by its
    // issue's number, all 6 proposed, at most 6 accepted) that only needs where it goes and how many
    await page.goto('/stock/back-stock');
    await page.locator('.bb-page:visible').getByRole('button', { name: w.add }).click();
    const backForm = dialogWith(page, d.warehouse);
    await pick(page, backForm.getByLabel(d.warehouse, { exact: true }), `W${tag} 仓${tag}`, `W${tag}`);
    await pick(page, backForm.getByLabel(STOCK[lang].plan, { exact: true }), `${plan.producePlanCode} 项目${tag}`, plan.producePlanCode);
    await backForm.getByRole('button', { name: d.pickLines }).click();
    const issued = page.locator('.ant-modal').filter({ has: page.locator('.bb-line-picker') });
    const issuedRows = issued.locator('tr.ant-table-row');
    await expect(issuedRows).toHaveCount(1);
    await expect(issuedRows.first()).toContainText(issue.docNo);
    await expect(issuedRows.first()).toContainText(`EARLY${tag}`);
    await expect(issuedRows.first()).toContainText('6.000000');
    await issuedRows.first().getByRole('checkbox').check();
    await shot(page, 'stock-back-picker', lang);
    await issued.getByRole('button', { name: d.pickAdd }).click();
    await expect(issued).toBeHidden();
    const backLine = backForm.locator('.bb-lines-table tr.ant-table-row').first();
    await expect(backLine).toContainText(issue.docNo);
    await expect(backLine.locator('[data-available]')).toHaveText(/^6\.000000/);
    await expect(backLine.locator('input[id$="_qty"]')).toHaveValue('6.000000');
    await pick(page, backLine.locator('input[id$="_positionId"]'), `${position.warehouseKey} ${position.warehouseName}`);
    await backLine.locator('input[id$="_qty"]').fill('7');
    await backLine.locator('input[id$="_qty"]').blur();
    await expect(backLine.getByText(d.overReturn)).toBeVisible();
    await backLine.locator('input[id$="_qty"]').fill('2');
    await backLine.locator('input[id$="_qty"]').blur();
    await expect(backLine.getByText(d.overReturn)).toBeHidden();
    await backForm.getByRole('textbox', { name: d.reason }).fill('余料');
    await shot(page, 'stock-back-form', lang);
    await backForm.getByRole('button', { name: w.save }).click();
    await expect(toast(page, w.added)).toBeVisible();
    await expect(backForm).toBeHidden();
    const back = (await api.get(`/api/bluebird-basic/materialbackstock/selectMaterialBackStockOfPage?current=1&size=10&producePlanId=${plan.id}`)).records[0];
    const saved = await api.get(`/api/bluebird-basic/materialbackstock/detail?id=${back.id}`);
    expect(saved.details.map((l) => `${l.sourceDocNo}:${l.batchNo}:${l.qty}:${l.unitCost}`)).toEqual([`${issue.docNo}:EARLY${tag}:2.000000:2.000000`]);
    await api.post(`/api/bluebird-basic/materialbackstock/startProcess?ids=${back.id}`);
    await api.post(`/api/bluebird-basic/materialbackstock/saveMaterialInRecord?id=${back.id}`);
    const made = await api.get(`/api/bluebird-basic/materialbackstock/detail?id=${back.id}`);
    expect(made.inRecordId).toBeTruthy();
    // nothing moves until the receipt is posted
    expect(await available()).toEqual([`EARLY${tag}:4.000000`, `LATE${tag}:8.000000`]);
    await api.post(`/api/bluebird-basic/materialinrecordmain/submitInStockMaterial?ids=${made.inRecordId}`);
    const backReceipt = await api.get(`/api/bluebird-basic/materialinrecordmain/detail?id=${made.inRecordId}`);
    expect(await available()).toEqual([`EARLY${tag}:6.000000`, `LATE${tag}:8.000000`]);
    expect((await api.get(`/api/bluebird-basic/materialbackstock/detail?id=${back.id}`)).backStatus).toBe(2);
    await page.goto('/stock/back-stock');
    await expect(rowWith(page.locator('.bb-page:visible'), made.docNo)).toContainText(plan.producePlanCode);
    await shot(page, 'stock-back-stock', lang);
    await seeStock(page, `EARLY${tag}`, '6.000000',
      [[backReceipt.docNo, '+2.000000'], [issue.docNo, '-6.000000'], [receiptDoc, '+10.000000']], lang);
    const backLedger = await api.get(`/api/bluebird-basic/stockledger/selectStockLedgerVOPage?current=1&size=10&bizId=${made.inRecordId}`);
    expect(backLedger.records.map((r) => `${r.batchNo}:${r.qty}:${r.unitCost}`)).toEqual([`EARLY${tag}:2.000000:2.000000`]);

    // a count finding 5 of the 6 now in the early batch: adjusted, the bucket and the ledger follow
    const check = await api.post('/api/bluebird-basic/checkmaterial/submit', { warehouseId: warehouse.id });
    await api.post(`/api/bluebird-basic/checkmaterial/startCount?ids=${check.id}`);
    const counted = await api.get(`/api/bluebird-basic/checkmaterial/detail?id=${check.id}`);
    const lines = counted.details.map((l) => ({ detailId: l.id, actualQty: l.batchNo === `EARLY${tag}` ? '5' : '8', reason: '破损' }));
    await api.post('/api/bluebird-basic/materialstock/saveCheckResult', { id: check.id, lines, finish: true });
    await api.post(`/api/bluebird-basic/checkmaterial/startProcess?ids=${check.id}`);
    expect(await available()).toEqual([`EARLY${tag}:5.000000`, `LATE${tag}:8.000000`]);
    const checkLedger = await api.get(`/api/bluebird-basic/stockledger/selectStockLedgerVOPage?current=1&size=10&bizType=MATERIAL_CHECK&bizId=${check.id}`);
    expect(checkLedger.records.map((r) => `${r.batchNo}:${r.qty}`)).toEqual([`EARLY${tag}:-1.000000`]);

    // the count's ledger row on its detail view
    await page.goto('/stock/material-check');
    await rowWith(page.locator('.bb-page:visible'), counted.docNo).getByRole('button', { name: d.view }).click();
    const checkView = page.locator('.ant-modal:visible').last();
    await expect(checkView.locator('section.bb-related tr.ant-table-row')).toHaveCount(1);
    await expect(checkView.locator('section.bb-related tr.ant-table-row')).toContainText(`EARLY${tag}`);
    await shot(page, 'stock-check-ledger', lang);
    await checkView.getByRole('button', { name: d.close }).last().click();
    await seeStock(page, `EARLY${tag}`, '5.000000',
      [[counted.docNo, '-1.000000'], [backReceipt.docNo, '+2.000000'], [issue.docNo, '-6.000000'], [receiptDoc, '+10.000000']], lang);
    await shot(page, 'stock-ledger-drawer-final', lang);
  });
}
