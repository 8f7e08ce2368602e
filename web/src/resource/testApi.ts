/** msw handlers of the fake material receipt API (testMeta.ts), recording what the page sends. */
import { http, HttpResponse } from 'msw';
import { server } from '../test/server';
import { ok } from '../test/utils';
import type { Row } from './types';

export const receiptRows: Row[] = [
  { id: '100', docNo: 'MIN001', warehouseId: '11', warehouseName: 'North', creatorName: 'Ann', amount: '1234.50', status: 1, version: 1 },
  { id: '101', docNo: 'MIN002', warehouseId: '12', warehouseName: 'South', creatorName: 'Bob', amount: '12.5', status: 2, version: 1 },
  { id: '102', docNo: 'MIN003', warehouseId: '11', warehouseName: 'North', creatorName: 'Cid', amount: null, status: 4, version: 3 },
];

/** 45 warehouses: W01 North, W02 South, W03 Store 3, ... (three pages of 20). */
export const warehouses: Row[] = Array.from({ length: 45 }, (_, i) => ({
  id: String(11 + i),
  code: `W${String(i + 1).padStart(2, '0')}`,
  name: i === 0 ? 'North' : i === 1 ? 'South' : `Store ${i + 1}`,
}));

export const materials: Row[] = [
  { id: '501', materialCode: 'M-01', materialName: 'Steel bar' },
  { id: '502', materialCode: 'M-02', materialName: 'Copper wire' },
];

/** The stored receipt 100 with its lines, as `detail` answers it. */
export const receiptDetail = (): Row => ({
  ...receiptRows[0],
  details: [
    { id: '9001', version: 2, materialId: '501', materialName: 'Steel bar', qty: '2.000', amount: '10.00', batchNo: 'B1' },
    { id: '9002', version: 1, materialId: '502', materialName: 'Copper wire', qty: '1.500', amount: '3.25', batchNo: 'B2' },
  ],
});

export interface Calls {
  list: URLSearchParams[];
  submit: Row[];
  commands: URLSearchParams[];
  warehouseSearch: URLSearchParams[];
  warehouseDetail: string[];
  preview: string[];
}

const pageOf = (rows: Row[], q: URLSearchParams) => {
  const current = Number(q.get('current') ?? 1);
  const size = Number(q.get('size') ?? 10);
  return { records: rows.slice((current - 1) * size, current * size), total: rows.length, size, current, pages: Math.ceil(rows.length / size) };
};

export function mockReceipts(opts: { rows?: Row[]; detail?: (id: string) => Row } = {}): Calls {
  const c: Calls = { list: [], submit: [], commands: [], warehouseSearch: [], warehouseDetail: [], preview: [] };
  const rows = opts.rows ?? receiptRows;
  server.use(
    http.get('*/api/bluebird-wms/material-in/selectMaterialInVOPage', ({ request }) => {
      const q = new URL(request.url).searchParams;
      c.list.push(q);
      return HttpResponse.json(ok(pageOf(rows, q)));
    }),
    http.get('*/api/bluebird-wms/material-in/detail', ({ request }) => {
      const id = new URL(request.url).searchParams.get('id') ?? '';
      return HttpResponse.json(ok(opts.detail ? opts.detail(id) : rows.find((r) => r.id === id)));
    }),
    http.post('*/api/bluebird-wms/material-in/submit', async ({ request }) => {
      c.submit.push((await request.json()) as Row);
      return HttpResponse.json(ok(null));
    }),
    http.post('*/api/bluebird-wms/material-in/doEffective', ({ request }) => {
      const q = new URL(request.url).searchParams;
      c.commands.push(q);
      return HttpResponse.json({ code: 200, success: true, msg: `已处理 ${q.get('ids')?.split(',').length} 条`, data: null });
    }),
    http.get('*/api/blade-system/dict/dictionary', () =>
      HttpResponse.json(ok([{ dictKey: '1', dictValue: '待审' }, { dictKey: '2', dictValue: '已生效' }, { dictKey: '4', dictValue: '驳回' }])),
    ),
    http.get('*/api/bluebird-basic/warehouse/page', ({ request }) => {
      const q = new URL(request.url).searchParams;
      c.warehouseSearch.push(q);
      const name = q.get('name') ?? '';
      return HttpResponse.json(ok(pageOf(warehouses.filter((w) => String(w.name).includes(name)), q)));
    }),
    http.get('*/api/bluebird-basic/warehouse/detail', ({ request }) => {
      const id = new URL(request.url).searchParams.get('id') ?? '';
      c.warehouseDetail.push(id);
      return HttpResponse.json(ok(warehouses.find((w) => w.id === id)));
    }),
    http.get('*/api/bluebird-basic/material/page', ({ request }) => {
      const q = new URL(request.url).searchParams;
      const name = q.get('materialName') ?? '';
      return HttpResponse.json(ok(pageOf(materials.filter((m) => String(m.materialName).includes(name)), q)));
    }),
    http.get('*/api/bluebird-basic/coderulenew/preview', ({ request }) => {
      c.preview.push(new URL(request.url).searchParams.get('bizType') ?? '');
      return HttpResponse.json(ok({ bizType: 'MIN', number: 'MIN20240007', ruleId: '77' }));
    }),
  );
  return c;
}
