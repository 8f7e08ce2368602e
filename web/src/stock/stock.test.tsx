import { beforeEach, describe, expect, it, vi } from 'vitest';
import { http, HttpResponse } from 'msw';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { server } from '../test/server';
import { ok, renderWithProviders } from '../test/utils';
import { setLanguage } from '../i18n';
import { useUserStore } from '../store/user';
import type { ResourceMeta, Row } from '../resource/types';
import StockMonitorPage from './StockMonitorPage';
import MaterialStockPage, { ledgerParams } from './MaterialStockPage';
import DashboardPage from '../pages/wel/DashboardPage';

// echarts draws on a canvas jsdom does not have: the chart shows its option's bars as text
vi.mock('../pages/wel/Chart', () => ({
  default: ({ option }: { option: { series: { data: unknown[] }[]; xAxis?: { data?: string[] } } }) => (
    <div data-testid="chart">{(option.xAxis?.data ?? []).map((name, i) => `${name}=${String(option.series[0].data[i])}`).join(';')}</div>
  ),
}));

const label = (zh: string, en: string) => ({ zh, en });
const pageOf = (rows: Row[]) => ({ records: rows, total: rows.length, size: 10, current: 1, pages: 1 });

const thresholdMeta: ResourceMeta = {
  name: 'stockthreshold',
  service: 'bluebird-basic',
  path: '/api/bluebird-basic/stockthreshold',
  menuCode: 'user_monitor',
  label: label('库存阈值预警', 'Stock level alert'),
  paged: true,
  fields: [
    { name: 'materialCode', type: 'string', label: label('物料编号', 'Material code'), list: true, search: true, readonly: true },
    { name: 'materialName', type: 'string', label: label('物料名称', 'Material name'), list: true, readonly: true },
    { name: 'alertType', type: 'int', label: label('预警类型', 'Alert type'), list: true, readonly: true },
    { name: 'availableQty', type: 'decimal', scale: 6, label: label('可用数量', 'Available'), list: true, readonly: true },
    { name: 'shortageQty', type: 'decimal', scale: 6, label: label('缺口数量', 'Shortage'), list: true, readonly: true },
  ],
  actions: ['list', 'detail', 'export'],
  permissions: { view: 'user_monitor_view', export: 'user_monitor_export' },
};

const expiryMeta: ResourceMeta = {
  name: 'stockexpiry',
  service: 'bluebird-basic',
  path: '/api/bluebird-basic/stockexpiry',
  menuCode: '',
  label: label('批次效期预警', 'Batch expiry alert'),
  paged: true,
  fields: [
    { name: 'materialName', type: 'string', label: label('物料名称', 'Material name'), list: true, readonly: true },
    { name: 'batchNo', type: 'string', label: label('批次号', 'Batch no.'), list: true, readonly: true },
    { name: 'expiryDate', type: 'string', label: label('有效期至', 'Expiry date'), list: true, readonly: true },
    { name: 'qty', type: 'decimal', scale: 6, label: label('库存数量', 'Quantity'), list: true, readonly: true },
  ],
  actions: ['list', 'detail', 'export'],
  permissions: {},
};

const stockMeta: ResourceMeta = {
  name: 'materialstock',
  service: 'bluebird-basic',
  path: '/api/bluebird-basic/materialstock',
  menuCode: 'material_stock',
  label: label('物料库存', 'Material stock'),
  paged: true,
  listView: 'selectMaterialStockVOListPage',
  views: [{ name: 'selectMaterialStockVOListPage', path: '/api/bluebird-basic/materialstock/selectMaterialStockVOListPage', paged: true, fields: [] }],
  fields: [
    { name: 'materialName', type: 'string', label: label('物料名称', 'Material name'), list: true, readonly: true },
    { name: 'batchNo', type: 'string', label: label('批次号', 'Batch no.'), list: true, readonly: true },
    { name: 'qty', type: 'decimal', scale: 6, label: label('库存数量', 'Quantity'), list: true, readonly: true },
    { name: 'lockedQty', type: 'decimal', scale: 6, label: label('锁定数量', 'Locked'), list: true, readonly: true },
    { name: 'availableQty', type: 'decimal', scale: 6, label: label('可用数量', 'Available'), list: true, readonly: true },
    { name: 'amount', type: 'decimal', scale: 4, label: label('金额', 'Amount'), list: true, readonly: true },
  ],
  actions: ['list', 'detail', 'export'],
  permissions: { view: 'material_stock_view', export: 'material_stock_export' },
};

const ledgerMeta: ResourceMeta = {
  name: 'stockledger',
  service: 'bluebird-basic',
  path: '/api/bluebird-basic/stockledger',
  menuCode: '',
  label: label('库存流水', 'Stock ledger'),
  paged: true,
  fields: [
    { name: 'postedAt', type: 'datetime', label: label('过账时间', 'Posted at'), list: true, readonly: true },
    { name: 'bizNo', type: 'string', label: label('单据号', 'Document no.'), list: true, readonly: true, search: true },
    { name: 'batchNo', type: 'string', label: label('批次号', 'Batch no.'), list: true, readonly: true, search: true },
    { name: 'qty', type: 'decimal', scale: 6, label: label('数量', 'Quantity'), list: true, readonly: true },
    { name: 'balanceQty', type: 'decimal', scale: 6, label: label('结存数量', 'Balance'), list: true, readonly: true },
    { name: 'itemCode', type: 'string', label: label('物品编号', 'Item code'), list: true, readonly: true },
  ],
  actions: ['list', 'detail', 'export'],
  permissions: {},
};

function metas() {
  server.use(http.get('*/api/meta/resources', () => HttpResponse.json(ok([thresholdMeta, expiryMeta, stockMeta, ledgerMeta]))));
}

describe('threshold monitor', () => {
  beforeEach(async () => {
    await setLanguage('zh');
    useUserStore.setState({ permission: { user_monitor_export: true } });
  });

  it('tags each level a material breaks and lists expiring batches within the days asked', async () => {
    metas();
    const expiryCalls: URLSearchParams[] = [];
    server.use(
      http.get('*/api/bluebird-basic/stockthreshold/list', () =>
        HttpResponse.json(
          ok(
            pageOf([
              { id: '1', materialCode: 'M-1', materialName: '钢板', alertType: 2, alerts: [1, 2], availableQty: '4.000000', shortageQty: '16.000000' },
              { id: '2', materialCode: 'M-2', materialName: '铜线', alertType: 3, alerts: [3], availableQty: '13.000000', shortageQty: null },
            ]),
          ),
        ),
      ),
      http.get('*/api/bluebird-basic/stockexpiry/list', ({ request }) => {
        const q = new URL(request.url).searchParams;
        expiryCalls.push(q);
        return HttpResponse.json(
          ok(
            pageOf([
              { id: '7', materialName: '胶水', batchNo: 'EXP', expiryDate: '2026-11-24', daysLeft: -3, alertType: 5, qty: '3.000000' },
              { id: '8', materialName: '胶水', batchNo: 'SOON', expiryDate: '2026-12-07', daysLeft: 10, alertType: 4, qty: '2.000000' },
            ]),
          ),
        );
      }),
    );
    renderWithProviders(<StockMonitorPage />);
    const steel = (await screen.findByText('钢板')).closest('tr')!;
    expect(within(steel).getByText('低于安全库存')).toBeInTheDocument();
    expect(within(steel).getByText('低于最低库存')).toBeInTheDocument();
    expect(within(steel).getByText('16.000000')).toBeInTheDocument();
    const copper = screen.getByText('铜线').closest('tr')!;
    expect(within(copper).getByText('超过最高库存')).toBeInTheDocument();
    expect(within(copper).queryByText('低于安全库存')).toBeNull();
    expect(screen.getByRole('button', { name: /导\s*出/ })).toBeInTheDocument();

    fireEvent.click(screen.getByRole('tab', { name: '批次效期' }));
    const expired = (await screen.findByText('EXP')).closest('tr')!;
    expect(within(expired).getByText('已过期 3 天')).toBeInTheDocument();
    expect(within(screen.getByText('SOON').closest('tr')!).getByText('10 天后到期')).toBeInTheDocument();
    expect(expiryCalls[0].get('days')).toBe('30');
    expect(expiryCalls[0].has('alertType')).toBe(false);

    const days = screen.getByRole('spinbutton', { name: '预警天数' });
    fireEvent.change(days, { target: { value: '60' } });
    await waitFor(() => expect(expiryCalls.some((q) => q.get('days') === '60')).toBe(true));
    fireEvent.change(screen.getByRole('searchbox', { name: '物料编号/名称' }), { target: { value: '胶' } });
    fireEvent.keyDown(screen.getByRole('searchbox', { name: '物料编号/名称' }), { key: 'Enter', code: 'Enter', keyCode: 13 });
    await waitFor(() => expect(expiryCalls.some((q) => q.get('keyword') === '胶' && q.get('days') === '60')).toBe(true));
  });

  it('has no export button without the menu export button, in English', async () => {
    await setLanguage('en');
    useUserStore.setState({ permission: {} });
    metas();
    server.use(http.get('*/api/bluebird-basic/stockthreshold/list', () => HttpResponse.json(ok(pageOf([{ id: '1', materialCode: 'M-1', materialName: 'Plate', alerts: [2] }])))));
    renderWithProviders(<StockMonitorPage />);
    const row = (await screen.findByText('Plate')).closest('tr')!;
    expect(within(row).getByText('Below minimum stock')).toBeInTheDocument();
    expect(screen.getByRole('tab', { name: 'Batch expiry' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /Export/ })).toBeNull();
  });
});

describe('material stock page', () => {
  beforeEach(async () => {
    await setLanguage('zh');
    useUserStore.setState({ permission: { material_stock_view: true } });
  });

  it('opens the ledger of a bucket, then of the whole material', async () => {
    metas();
    const ledgerCalls: URLSearchParams[] = [];
    server.use(
      http.get('*/api/bluebird-basic/materialstock/selectMaterialStockVOListPage', () =>
        HttpResponse.json(
          ok(
            pageOf([
              { id: '31', materialId: '501', materialCode: 'M-1', materialName: '钢板', warehouseId: '11', warehouseName: '北仓', positionId: '21', positionName: 'A1', batchNo: 'B1', qty: '7.000000', lockedQty: '2.000000', availableQty: '5.000000', amount: '17.5000' },
            ]),
          ),
        ),
      ),
      http.get('*/api/bluebird-basic/stockledger/selectStockLedgerVOPage', ({ request }) => {
        ledgerCalls.push(new URL(request.url).searchParams);
        return HttpResponse.json(
          ok(
            pageOf([
              { id: '92', postedAt: '2026-11-26 10:00:00', bizNo: 'MOUT-1', batchNo: 'B1', qty: '-3.000000', balanceQty: '7.000000' },
              { id: '91', postedAt: '2026-11-25 09:00:00', bizNo: 'MIN-1', batchNo: 'B1', qty: '10.000000', balanceQty: '10.000000' },
            ]),
          ),
        );
      }),
    );
    renderWithProviders(<MaterialStockPage />);
    const row = (await screen.findByText('钢板')).closest('tr')!;
    fireEvent.click(within(row).getByRole('button', { name: '流水' }));
    const drawer = await screen.findByRole('dialog');
    expect(await within(drawer).findByText('MOUT-1')).toBeInTheDocument();
    expect(within(drawer).getByText('-3.000000')).toBeInTheDocument();
    expect(within(drawer).getByText('+10.000000')).toBeInTheDocument();
    expect(within(drawer).getByText(/结存 7.000000, 锁定 2.000000/)).toBeInTheDocument();
    // searched by the document only: the batch and the rest are the bucket's
    expect(within(drawer).getByLabelText('单据号')).toBeInTheDocument();
    expect(within(drawer).queryByLabelText('批次号')).toBeNull();
    const bucket = ledgerCalls[0];
    expect([bucket.get('itemId'), bucket.get('warehouseId'), bucket.get('positionId'), bucket.get('batchNo_equal')]).toEqual(['501', '11', '21', 'B1']);
    // the ledger shows the columns that explain the quantity, not every field
    expect(within(drawer).queryByText('物品编号')).toBeNull();

    fireEvent.click(within(drawer).getByText('该物料全部'));
    await waitFor(() => expect(ledgerCalls.some((q) => q.get('itemId') === '501' && !q.has('warehouseId') && !q.has('batchNo_equal'))).toBe(true));
  });

  it('asks for the rows without a batch for a bucket without one', () => {
    expect(ledgerParams({ materialId: '5', warehouseId: '6', positionId: '7', batchNo: '' }, 'bucket')).toEqual({ itemId: '5', warehouseId: '6', positionId: '7', batchNo_null: '' });
    expect(ledgerParams({ materialId: '5', warehouseId: '6' }, 'item')).toEqual({ itemId: '5' });
  });
});

describe('dashboard stock value', () => {
  const empties = () =>
    server.use(
      http.get('*/api/blade-system/dept/list', () => HttpResponse.json(ok([]))),
      http.get('*/api/blade-user/page', () => HttpResponse.json(ok(pageOf([])))),
      http.get('*/api/blade-system/menu/top-menu', () => HttpResponse.json(ok([]))),
      http.get('*/api/blade-system/menu/list', () => HttpResponse.json(ok([]))),
      http.get('*/api/blade-system/dict/tree', () => HttpResponse.json(ok([]))),
    );

  beforeEach(async () => {
    await setLanguage('zh');
  });

  it('draws the value of each warehouse for a reader of material stock', async () => {
    useUserStore.setState({ permission: { material_stock_view: true } });
    empties();
    server.use(
      http.get('*/api/bluebird-basic/materialstock/valueByWarehouse', () =>
        HttpResponse.json(
          ok([
            { warehouseId: '11', warehouseName: '北仓', qty: '20.000000', amount: '65.0000' },
            { warehouseId: '12', warehouseName: '', qty: '15.000000', amount: '45.4000' },
          ]),
        ),
      ),
    );
    renderWithProviders(<DashboardPage />);
    expect(await screen.findByText('各仓库库存金额')).toBeInTheDocument();
    await waitFor(() => expect(screen.getAllByTestId('chart').some((c) => c.textContent === '北仓=65;12=45.4')).toBe(true));
  });

  it('asks nothing of the stock without the stock button', async () => {
    useUserStore.setState({ permission: {} });
    empties(); // a request for valueByWarehouse would have no handler and fail the test
    renderWithProviders(<DashboardPage />);
    expect(await screen.findByText('各部门用户数')).toBeInTheDocument();
    expect(screen.queryByText('各仓库库存金额')).toBeNull();
  });
});
