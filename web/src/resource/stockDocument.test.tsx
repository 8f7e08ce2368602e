import { beforeEach, describe, expect, it, vi } from 'vitest';
import { http, HttpResponse } from 'msw';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { server } from '../test/server';
import { ok, renderWithProviders } from '../test/utils';
import { setLanguage } from '../i18n';
import { useUserStore } from '../store/user';
import ResourceCrud from './ResourceCrud';
import { allReceiptPermissions, field, materialRemote, receiptMeta } from './testMeta';
import { mockReceipts, receiptDetail } from './testApi';
import type { Lines, LinePicker, ResourceMeta, Row } from './types';

/*
 * The stock document editor drawn from metadata: the FEFO stock picker of outbound lines (lines.picker), the
 * ledger rows of a posted document (related), the print view (print) and a second line set (extraLines).
 */

const positionRemote = { url: '/api/bluebird-basic/warehouseposition/page', valueField: 'id', labelField: 'positionName', codeField: 'positionKey', searchParam: 'positionName' };

const issueLineMeta: ResourceMeta = {
  name: 'materialoutrecorddetail',
  service: 'bluebird-basic',
  path: '/api/bluebird-basic/materialoutrecorddetail',
  menuCode: '',
  label: { zh: '出库明细', en: 'Issue lines' },
  fields: [
    field({ name: 'id', type: 'id', valueType: 'id', form: false, list: false }),
    field({ name: 'materialId', type: 'id', valueType: 'id', ref: 'bluebird-basic/material', remote: materialRemote, required: true, label: { zh: '物料', en: 'Material' } }),
    field({ name: 'materialName', joined: true, form: false, label: { zh: '物料名称', en: 'Material name' } }),
    field({ name: 'qty', type: 'decimal', valueType: 'decimal', scale: 3, positive: true, required: true, label: { zh: '数量', en: 'Quantity' } }),
    field({ name: 'positionId', type: 'id', valueType: 'id', ref: 'bluebird-basic/warehouseposition', remote: positionRemote, required: true, label: { zh: '库位', en: 'Location' } }),
    field({ name: 'batchNo', label: { zh: '批次号', en: 'Batch no.' } }),
  ],
  actions: [],
  permissions: {},
};

const stockPicker: LinePicker = {
  kind: 'stock',
  url: '/api/bluebird-basic/materialstock/allDetail',
  header: { warehouseId: 'warehouseId' },
  match: [
    { param: 'materialId', field: 'materialId' },
    { param: 'batchNo', field: 'batchNo' },
  ],
  fill: { positionId: 'positionId', batchNo: 'batchNo' },
  qtyField: 'qty',
  availableField: 'availableQty',
  columns: [
    { fields: ['positionKey', 'positionName'], label: { zh: '库位', en: 'Location' } },
    { fields: ['batchNo'], label: { zh: '批次号', en: 'Batch no.' } },
    { fields: ['expiryDate'], label: { zh: '有效期至', en: 'Expiry date' } },
    { fields: ['availableQty'], label: { zh: '可用数量', en: 'Available' }, scale: 6, unit: 'unit' },
  ],
};

const issueLines: Lines = { field: 'details', label: { zh: '出库明细', en: 'Issue lines' }, meta: issueLineMeta, totals: ['qty'], picker: stockPicker };

/** An issue on the fake receipt API (testApi.ts): its list, detail and submit answer there. */
const issueMeta = (over: Partial<ResourceMeta> = {}): ResourceMeta => ({
  ...receiptMeta,
  label: { zh: '物料出库单', en: 'Material issue' },
  lines: issueLines,
  related: [
    {
      label: { zh: '库存流水', en: 'Stock ledger' },
      resource: 'bluebird-basic/stockledger',
      path: '/api/bluebird-basic/stockledger/selectStockLedgerVOPage',
      params: { bizType: 'MATERIAL_OUT' },
      key: 'bizId',
      when: { field: 'status', values: [2] },
    },
  ],
  print: {
    signatures: [
      { zh: '制单', en: 'Prepared by' },
      { zh: '审核', en: 'Approved by' },
      { zh: '仓管', en: 'Storekeeper' },
      { zh: '领料人', en: 'Received by' },
    ],
  },
  ...over,
});

/** Two buckets of material 501 in warehouse 11, in the server's FEFO order. */
const buckets: Row[] = [
  { id: 's1', materialId: '501', warehouseId: '11', positionId: '71', positionKey: 'A-01', positionName: 'Shelf A', batchNo: 'B-EARLY', productionDate: '2026-01-01', expiryDate: '2026-12-01', availableQty: '5.000000', unit: 'pcs' },
  { id: 's2', materialId: '501', warehouseId: '11', positionId: '72', positionKey: 'A-02', positionName: 'Shelf B', batchNo: 'B-LATE', productionDate: '2026-03-01', expiryDate: '2027-06-01', availableQty: '20.000000', unit: 'pcs' },
];

function mockStock(): URLSearchParams[] {
  const calls: URLSearchParams[] = [];
  server.use(
    http.get('*/api/bluebird-basic/materialstock/allDetail', ({ request }) => {
      const q = new URL(request.url).searchParams;
      calls.push(q);
      const rows = buckets.filter(
        (b) =>
          b.warehouseId === q.get('warehouseId') &&
          b.materialId === q.get('materialId') &&
          (!q.get('positionId') || b.positionId === q.get('positionId')) &&
          (!q.get('batchNo') || String(b.batchNo).includes(q.get('batchNo')!)),
      );
      return HttpResponse.json(ok({ records: rows, total: rows.length, size: Number(q.get('size')), current: 1, pages: 1 }));
    }),
  );
  return calls;
}

/** The open line picker's dialog. */
const pickerDialog = () =>
  waitFor(() => {
    const m = document.querySelector<HTMLElement>('.bb-line-picker')?.closest<HTMLElement>('.ant-modal');
    expect(m).toBeTruthy();
    return m!;
  });
const lineRows = (root: HTMLElement) => [...root.querySelectorAll<HTMLElement>('.bb-lines-table .ant-table-tbody tr.ant-table-row')];
const save = (dialog: HTMLElement) => fireEvent.click(within(dialog).getByRole('button', { name: /保\s*存/ }));

async function typeDecimal(input: HTMLElement, text: string) {
  await userEvent.clear(input);
  await userEvent.type(input, text);
  fireEvent.blur(input);
}

async function pickOption(select: HTMLElement, title: string) {
  fireEvent.mouseDown(select);
  fireEvent.click(await screen.findByTitle(title));
}

describe('stock document editor', () => {
  beforeEach(async () => {
    await setLanguage('zh');
    useUserStore.setState({ permission: allReceiptPermissions });
  });

  it('picks a FEFO bucket for an outbound line, shows its available quantity and refuses more before saving', async () => {
    const c = mockReceipts();
    const stockCalls = mockStock();
    renderWithProviders(<ResourceCrud meta={issueMeta()} />);
    await screen.findByText('MIN001');
    fireEvent.click(screen.getByRole('button', { name: /新\s*增/ }));
    const dialog = await screen.findByRole('dialog');
    fireEvent.click(await within(dialog).findByRole('button', { name: /新增行/ }));
    await waitFor(() => expect(lineRows(dialog)).toHaveLength(1));
    // Nothing to pick from before the warehouse and the material are chosen.
    expect(within(lineRows(dialog)[0]).getByRole('button', { name: '选库存' })).toBeDisabled();
    await pickOption(within(dialog).getByLabelText('仓库'), 'W01 North');
    expect(within(lineRows(dialog)[0]).getByRole('button', { name: '选库存' })).toBeDisabled();
    const [materialSelect] = within(lineRows(dialog)[0]).getAllByRole('combobox');
    await pickOption(materialSelect, 'M-01 Steel bar');
    await waitFor(() => expect(within(lineRows(dialog)[0]).getByRole('button', { name: '选库存' })).toBeEnabled());
    expect(stockCalls).toHaveLength(0);

    fireEvent.click(within(lineRows(dialog)[0]).getByRole('button', { name: '选库存' }));
    const picker = await pickerDialog();
    // The server's FEFO order, the document's warehouse, only available buckets.
    const rows = await waitFor(() => {
      const r = [...picker.querySelectorAll<HTMLElement>('tr.ant-table-row')];
      expect(r).toHaveLength(2);
      return r;
    });
    expect(Object.fromEntries(stockCalls[0])).toEqual({ current: '1', size: '10', onlyAvailable: 'true', warehouseId: '11', materialId: '501' });
    expect(rows[0]).toHaveTextContent('A-01 Shelf A');
    expect(rows[0]).toHaveTextContent('B-EARLY');
    expect(rows[0]).toHaveTextContent('2026-12-01');
    expect(rows[0]).toHaveTextContent('5.000000');
    expect(rows[1]).toHaveTextContent('B-LATE');
    fireEvent.click(within(rows[0]).getByRole('button', { name: /选\s*择/ }));
    await waitFor(() => expect(screen.queryByText('选择库存(先到期先出)')).toBeNull());

    // The line takes the bucket's position (its label shown) and batch, and shows what is available there.
    const line = lineRows(dialog)[0];
    expect(within(line).getByDisplayValue('B-EARLY')).toBeInTheDocument();
    expect(within(line).getByText('A-01 Shelf A')).toBeInTheDocument();
    await waitFor(() => expect(line.querySelector('[data-available]')).toHaveTextContent('5.000'));

    const qty = within(line).getAllByRole('textbox').find((i) => i.closest('td')?.classList.contains('ant-table-cell') && i.getAttribute('id')?.endsWith('qty'))!;
    await typeDecimal(qty, '6');
    expect(await within(line).findByText('数量超过可用数量 5.000000')).toBeInTheDocument();
    save(dialog);
    await waitFor(() => expect(within(line).getByText('数量超过可用数量 5.000000')).toBeInTheDocument());
    expect(c.submit).toHaveLength(0);

    await typeDecimal(qty, '4');
    await waitFor(() => expect(within(line).queryByText('数量超过可用数量 5.000000')).toBeNull());
    save(dialog);
    await waitFor(() => expect(c.submit).toHaveLength(1));
    expect(c.submit[0]).toEqual({ warehouseId: '11', details: [{ materialId: '501', qty: '4.000', positionId: '71', batchNo: 'B-EARLY' }] });
  });

  it('offers no stock picker to a document its condition leaves out, nor to one being viewed', async () => {
    mockReceipts({ detail: receiptDetail });
    const stockCalls = mockStock();
    renderWithProviders(<ResourceCrud meta={issueMeta({ lines: { ...issueLines, picker: { ...stockPicker, when: { field: 'status', values: [9] } } } })} />);
    await screen.findByText('MIN001');
    fireEvent.click(screen.getByRole('button', { name: /新\s*增/ }));
    const dialog = await screen.findByRole('dialog');
    fireEvent.click(within(dialog).getByRole('button', { name: /新增行/ }));
    await waitFor(() => expect(lineRows(dialog)).toHaveLength(1));
    expect(within(dialog).queryByRole('button', { name: '选库存' })).toBeNull();
    expect(within(dialog).queryByText('可用数量')).toBeNull();
    expect(stockCalls).toHaveLength(0);
  });

  it('adds the ticked rows of a lines picker as lines that keep what may be taken, shown by their source, and refuses more', async () => {
    const c = mockReceipts();
    const returnLineMeta: ResourceMeta = {
      ...issueLineMeta,
      fields: [
        ...issueLineMeta.fields.filter((f) => f.name !== 'positionId'),
        field({ name: 'sourceOutDetailId', type: 'id', valueType: 'id', ref: 'bluebird-basic/materialoutrecorddetail', required: true, label: { zh: '出库明细', en: 'Issue line' } }),
        field({ name: 'unit', label: { zh: '单位', en: 'Unit' } }),
      ],
    };
    const returnPicker: LinePicker = {
      kind: 'lines',
      url: '/api/bluebird-basic/materialbackstockdetail/selectMaterialFromProducePlan',
      header: { backType: 'warehouseId' },
      key: 'sourceOutDetailId',
      search: 'keyword',
      fill: { sourceOutDetailId: 'sourceOutDetailId', materialId: 'materialId', batchNo: 'batchNo', unit: 'baseUnit', qty: 'returnableQty' },
      shown: { sourceOutDetailId: 'sourceDocNo' },
      qtyField: 'qty',
      availableField: 'returnableQty',
      unitField: 'unit',
      columns: [
        { fields: ['sourceDocNo'], label: { zh: '出库单号', en: 'Issue no.' } },
        { fields: ['materialCode', 'materialName'], label: { zh: '物料', en: 'Material' } },
        { fields: ['returnableQty'], label: { zh: '可退数量', en: 'Returnable' }, scale: 6 },
      ],
    };
    const returnable: Row[] = [
      { sourceOutDetailId: '901', sourceDocNo: 'MCK001', materialId: '501', materialCode: 'M-01', materialName: 'Steel bar', batchNo: 'B1', baseUnit: 'pcs', returnableQty: '2.000000' },
      { sourceOutDetailId: '902', sourceDocNo: 'MCK002', materialId: '501', materialCode: 'M-01', materialName: 'Steel bar', batchNo: 'B2', baseUnit: 'pcs', returnableQty: '7.500000' },
    ];
    const calls: URLSearchParams[] = [];
    server.use(
      http.get('*/api/bluebird-basic/materialbackstockdetail/selectMaterialFromProducePlan', ({ request }) => {
        const q = new URL(request.url).searchParams;
        calls.push(q);
        // a plain list, filtered by the keyword
        return HttpResponse.json(ok(returnable.filter((r) => !q.get('keyword') || String(r.sourceDocNo).includes(q.get('keyword')!))));
      }),
    );
    renderWithProviders(<ResourceCrud meta={issueMeta({ lines: { field: 'details', label: { zh: '退库明细', en: 'Return lines' }, meta: returnLineMeta, totals: ['qty'], picker: returnPicker } })} />);
    await screen.findByText('MIN001');
    fireEvent.click(screen.getByRole('button', { name: /新\s*增/ }));
    const dialog = await screen.findByRole('dialog');
    // nothing to select from before the header field it lists by
    expect(await within(dialog).findByRole('button', { name: '选择明细' })).toBeDisabled();
    await pickOption(within(dialog).getByLabelText('仓库'), 'W01 North');
    await waitFor(() => expect(within(dialog).getByRole('button', { name: '选择明细' })).toBeEnabled());
    fireEvent.click(within(dialog).getByRole('button', { name: '选择明细' }));
    const picker = await pickerDialog();
    await waitFor(() => expect(picker.querySelectorAll('tr.ant-table-row')).toHaveLength(2));
    expect(Object.fromEntries(calls[0])).toEqual({ current: '1', size: '10', backType: '11' });
    expect(within(picker).getAllByText('M-01 Steel bar')).toHaveLength(2);
    // the keyword narrows the list on the server
    const box = within(picker).getByPlaceholderText('输入关键字搜索');
    await userEvent.type(box, 'MCK002{enter}');
    await waitFor(() => expect(picker.querySelectorAll('tr.ant-table-row')).toHaveLength(1));
    expect(calls.at(-1)?.get('keyword')).toBe('MCK002');
    await userEvent.clear(box);
    await userEvent.type(box, '{enter}');
    await waitFor(() => expect(picker.querySelectorAll('tr.ant-table-row')).toHaveLength(2));
    const rows = [...picker.querySelectorAll<HTMLElement>('tr.ant-table-row')];
    fireEvent.click(within(rows[0]).getByRole('checkbox'));
    fireEvent.click(within(rows[1]).getByRole('checkbox'));
    fireEvent.click(within(picker).getByRole('button', { name: '添加所选(2)' }));

    // one line per row: its source shown by number, the returnable quantity proposed and kept beside it
    await waitFor(() => expect(lineRows(dialog)).toHaveLength(2));
    const [first, second] = lineRows(dialog);
    expect(within(first).getByText('MCK001')).toBeInTheDocument();
    expect(within(second).getByText('MCK002')).toBeInTheDocument();
    expect(first.querySelector('[data-available]')).toHaveTextContent('2.000');
    expect(second.querySelector('[data-available]')).toHaveTextContent('7.500');
    expect(within(dialog).getByRole('columnheader', { name: '可退数量' })).toBeInTheDocument();

    // a row already taken is not offered again
    fireEvent.click(within(dialog).getByRole('button', { name: '选择明细' }));
    const again = await pickerDialog();
    await waitFor(() => expect(again.querySelectorAll('tr.ant-table-row')).toHaveLength(2));
    for (const r of again.querySelectorAll<HTMLElement>('tr.ant-table-row')) expect(within(r).getByRole('checkbox')).toBeDisabled();
    fireEvent.click(within(again).getByRole('button', { name: /取\s*消/ }));

    const qty = within(first).getAllByRole('textbox').find((i) => i.getAttribute('id')?.endsWith('qty'))!;
    await typeDecimal(qty, '3');
    expect(await within(first).findByText('数量超过可退数量 2.000000')).toBeInTheDocument();
    save(dialog);
    await waitFor(() => expect(within(first).getByText('数量超过可退数量 2.000000')).toBeInTheDocument());
    expect(c.submit).toHaveLength(0);
    await typeDecimal(qty, '1.5');
    await waitFor(() => expect(within(first).queryByText('数量超过可退数量 2.000000')).toBeNull());
    save(dialog);
    await waitFor(() => expect(c.submit).toHaveLength(1));
    expect(c.submit[0]).toEqual({
      warehouseId: '11',
      details: [
        { materialId: '501', qty: '1.500', batchNo: 'B1', sourceOutDetailId: '901', unit: 'pcs' },
        { materialId: '501', qty: '7.500000', batchNo: 'B2', sourceOutDetailId: '902', unit: 'pcs' },
      ],
    });
  });

  it("lists a posted document's ledger rows on its detail view, and none of a draft's", async () => {
    mockReceipts({ detail: (id) => ({ ...receiptDetail(), id, status: id === '101' ? 2 : 1 }) });
    const ledgerCalls: URLSearchParams[] = [];
    const ledgerMeta: ResourceMeta = {
      name: 'stockledger',
      service: 'bluebird-basic',
      path: '/api/bluebird-basic/stockledger',
      menuCode: '',
      label: { zh: '库存流水', en: 'Stock ledger' },
      fields: [
        field({ name: 'itemId', type: 'id', valueType: 'id', ref: 'bluebird-basic/material', list: false }),
        field({ name: 'batchNo', label: { zh: '批次号', en: 'Batch no.' } }),
        field({ name: 'qty', type: 'decimal', valueType: 'decimal', scale: 6, label: { zh: '数量', en: 'Quantity' } }),
        field({ name: 'bizType', label: { zh: '单据类型', en: 'Document type' } }),
        field({ name: 'bizNo', label: { zh: '单据号', en: 'Document no.' } }),
      ],
      actions: ['list'],
      permissions: {},
      views: [{ name: 'selectStockLedgerVOPage', path: '/api/bluebird-basic/stockledger/selectStockLedgerVOPage', paged: true, fields: [field({ name: 'itemName', joined: true, label: { zh: '物品名称', en: 'Item name' } })] }],
    };
    server.use(
      http.get('*/api/meta/resources', () => HttpResponse.json(ok([ledgerMeta]))),
      http.get('*/api/bluebird-basic/stockledger/selectStockLedgerVOPage', ({ request }) => {
        const q = new URL(request.url).searchParams;
        ledgerCalls.push(q);
        const rows = [{ id: 'L1', itemId: '501', itemName: 'Steel bar', batchNo: 'B-EARLY', qty: '-2.000000', bizType: 'MATERIAL_OUT', bizNo: 'MIN002' }];
        return HttpResponse.json(ok({ records: rows, total: 1, size: 10, current: 1, pages: 1 }));
      }),
    );
    renderWithProviders(<ResourceCrud meta={issueMeta()} />);
    await screen.findByText('MIN002');
    // a draft: no ledger
    fireEvent.click(screen.getAllByRole('button', { name: /查\s*看/ })[0]);
    let dialog = await screen.findByRole('dialog');
    await waitFor(() => expect(lineRows(dialog)).toHaveLength(2));
    expect(within(dialog).queryByText('库存流水')).toBeNull();
    fireEvent.click(within(dialog).getByRole('button', { name: '关 闭' }));
    expect(ledgerCalls).toHaveLength(0);

    fireEvent.click(screen.getAllByRole('button', { name: /查\s*看/ })[1]);
    dialog = await screen.findByRole('dialog');
    const section = await within(dialog).findByText('库存流水');
    const ledger = section.closest('section')!;
    expect(await within(ledger).findByText('Steel bar')).toBeInTheDocument();
    expect(within(ledger).getByText('-2.000000')).toBeInTheDocument();
    expect(Object.fromEntries(ledgerCalls[0])).toEqual({ current: '1', size: '10', bizType: 'MATERIAL_OUT', bizId: '101' });
    // the columns every row shares are not drawn
    expect(within(ledger).queryByText('单据类型')).toBeNull();
    expect(within(ledger).getAllByText('物品名称').length).toBeGreaterThan(0);
    // read-only, and no stock picker on a viewed document
    expect(within(dialog).queryByRole('button', { name: '选库存' })).toBeNull();
  });

  it('prints a document on an A4 page: header, lines with totals and signature boxes, in zh and en', async () => {
    mockReceipts({ detail: receiptDetail });
    const print = vi.spyOn(window, 'print').mockImplementation(() => undefined);
    renderWithProviders(<ResourceCrud meta={issueMeta()} />);
    await screen.findByText('MIN001');
    fireEvent.click(screen.getAllByRole('button', { name: '打印' })[0]);
    const view = await screen.findByRole('dialog', { name: '打印' });
    const page = await waitFor(() => {
      const p = view.querySelector<HTMLElement>('.bb-print-page');
      expect(p).not.toBeNull();
      return p!;
    });
    expect(within(page).getByRole('heading', { name: '物料出库单' })).toBeInTheDocument();
    expect(page.querySelector('.bb-print-no')).toHaveTextContent('MIN001');
    expect(within(page).getByText('North')).toBeInTheDocument();
    expect(within(page).getByText('1234.50')).toBeInTheDocument();
    const lines = page.querySelector('.bb-print-lines')!;
    expect(within(lines as HTMLElement).getByText('Steel bar')).toBeInTheDocument();
    expect(within(lines as HTMLElement).getByText('B2')).toBeInTheDocument();
    expect(lines.querySelector('[data-total="qty"]')).toHaveTextContent('3.500');
    expect([...page.querySelectorAll('.bb-print-sign-label')].map((e) => e.textContent)).toEqual(['制单', '审核', '仓管', '领料人']);
    fireEvent.click(within(view).getByRole('button', { name: /打\s*印/ }));
    expect(print).toHaveBeenCalledTimes(1);

    await act(async () => {
      await setLanguage('en');
    });
    await waitFor(() => expect([...page.querySelectorAll('.bb-print-sign-label')].map((e) => e.textContent)).toEqual(['Prepared by', 'Approved by', 'Storekeeper', 'Received by']));
    expect(within(page).getByRole('heading', { name: 'Material issue' })).toBeInTheDocument();
    fireEvent.click(within(view).getByRole('button', { name: /Close/ }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Print' })).toBeNull());
    print.mockRestore();
  });

  it("prints a dictionary field's label only with a value the dictionary names (0 is nothing chosen)", async () => {
    mockReceipts({ detail: (id) => ({ ...receiptDetail(), id, status: id === '100' ? 0 : 2 }) });
    renderWithProviders(<ResourceCrud meta={issueMeta()} />);
    await screen.findByText('MIN001');
    const printed = async (i: number) => {
      fireEvent.click(screen.getAllByRole('button', { name: '打印' })[i]);
      const view = await screen.findByRole('dialog', { name: '打印' });
      const page = await waitFor(() => {
        const p = view.querySelector<HTMLElement>('.bb-print-page');
        expect(p).not.toBeNull();
        expect(within(p!).getByText('North')).toBeInTheDocument();
        return p!;
      });
      return { view, page };
    };
    let { view, page } = await printed(0);
    await waitFor(() => expect(within(page).getByText('金额')).toBeInTheDocument());
    expect(within(page).queryByText('状态')).toBeNull();
    fireEvent.click(within(view).getByRole('button', { name: /关\s*闭/ }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: '打印' })).toBeNull());
    ({ view, page } = await printed(1));
    expect(await within(page).findByText('状态')).toBeInTheDocument();
    expect(within(page).getByText('已生效')).toBeInTheDocument();
  });

  it("edits a second line set (a plan's required materials) and shows its server errors on its cells", async () => {
    const c = mockReceipts();
    const requiredMeta: ResourceMeta = {
      name: 'produceplanrequired',
      service: 'bluebird-basic',
      path: '/api/bluebird-basic/produceplanrequired',
      menuCode: '',
      label: { zh: '计划物料', en: 'Required material' },
      fields: [
        field({ name: 'planId', type: 'id', valueType: 'id', readonly: true, form: false, list: false }),
        field({ name: 'materialId', type: 'id', valueType: 'id', ref: 'bluebird-basic/material', remote: materialRemote, label: { zh: '物料', en: 'Material' } }),
        field({ name: 'requiredQty', type: 'decimal', valueType: 'decimal', scale: 6, positive: true, label: { zh: '需求数量', en: 'Required quantity' } }),
      ],
      actions: [],
      permissions: {},
    };
    const meta = issueMeta({ extraLines: [{ field: 'materials', label: requiredMeta.label, meta: requiredMeta, totals: ['requiredQty'] }] });
    let refuse = true;
    server.use(
      http.post('*/api/bluebird-wms/material-in/submit', async ({ request }) => {
        c.submit.push((await request.json()) as Row);
        if (refuse) {
          refuse = false;
          const msg = '物料需求第1行: 物料不存在或未生效';
          return HttpResponse.json({ code: 400, success: false, msg, data: { 'materials[0].materialId': msg } }, { status: 400 });
        }
        return HttpResponse.json(ok(null));
      }),
    );
    renderWithProviders(<ResourceCrud meta={meta} />);
    await screen.findByText('MIN001');
    fireEvent.click(screen.getByRole('button', { name: /新\s*增/ }));
    const dialog = await screen.findByRole('dialog');
    await pickOption(within(dialog).getByLabelText('仓库'), 'W01 North');
    const grids = await waitFor(() => {
      const g = [...dialog.querySelectorAll<HTMLElement>('.bb-lines')];
      expect(g).toHaveLength(2);
      return g;
    });
    expect(within(grids[1]).getByText('计划物料')).toBeInTheDocument();
    fireEvent.click(within(grids[1]).getByRole('button', { name: /新增行/ }));
    await waitFor(() => expect(lineRows(grids[1])).toHaveLength(1));
    const row = lineRows(grids[1])[0];
    await pickOption(within(row).getByRole('combobox'), 'M-01 Steel bar');
    await typeDecimal(within(row).getByRole('textbox'), '2.5');
    await waitFor(() => expect(grids[1].querySelector('[data-total="requiredQty"]')).toHaveTextContent('2.500000'));
    save(dialog);
    expect(await within(row).findByText('物料需求第1行: 物料不存在或未生效')).toBeInTheDocument();
    expect(c.submit[0]).toEqual({ warehouseId: '11', details: [], materials: [{ materialId: '501', requiredQty: '2.500000' }] });
    save(dialog);
    await waitFor(() => expect(c.submit).toHaveLength(2));
  });
});
