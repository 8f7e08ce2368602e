import { describe, expect, it, beforeEach } from 'vitest';
import { http, HttpResponse } from 'msw';
import { screen, waitFor, fireEvent, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { server } from '../test/server';
import { ok, renderWithProviders } from '../test/utils';
import ResourceCrud from './ResourceCrud';
import { buildFilters, filterParam } from './filters';
import { dictTagColor } from './dictColor';
import type { FieldMeta, ResourceMeta } from './types';
import { useUserStore } from '../store/user';
import { setLanguage } from '../i18n';
import dayjs from 'dayjs';

const f = (over: Partial<FieldMeta> & { name: string }): FieldMeta => ({
  type: 'string', label: { zh: over.name, en: over.name }, list: true, form: true, ...over,
});

const meta: ResourceMeta = {
  name: 'param',
  service: 'blade-system',
  path: '/api/blade-system/param',
  menuCode: 'param',
  label: { zh: '参数', en: 'Parameter' },
  paged: true,
  fields: [
    f({ name: 'paramName', label: { zh: '参数名称', en: 'Parameter name' }, required: true, search: true, filter: 'like', max: 255,
      messages: { required: { zh: '请输入参数名称', en: 'Please enter parameter name' } } }),
    f({ name: 'paramKey', label: { zh: '参数键名', en: 'Parameter key' }, required: true, search: true,
      messages: { required: { zh: '请输入参数键名', en: 'Please enter parameter key' } } }),
    f({ name: 'paramValue', type: 'text', label: { zh: '参数键值', en: 'Parameter value' }, required: true,
      messages: { required: { zh: '请输入参数键值', en: 'Please enter parameter value' } } }),
    f({ name: 'status', type: 'dict', dict: 'status', label: { zh: '状态', en: 'Status' }, form: false }),
    f({ name: 'createTime', type: 'datetime', label: { zh: '创建时间', en: 'Created' }, search: true, form: false }),
  ],
  actions: ['list', 'detail', 'submit', 'remove', 'export'],
  permissions: { add: 'param_add', edit: 'param_edit', delete: 'param_delete', view: 'param_view', export: 'param_export' },
};

const rows = Array.from({ length: 3 }, (_, i) => ({
  id: String(100 + i), paramName: `name${i}`, paramKey: `key${i}`, paramValue: `v${i}`, status: String(i + 1), version: 1,
}));

interface Captured { list: URLSearchParams[]; submit: unknown[]; remove: string[] }

function mockApi(): Captured {
  const c: Captured = { list: [], submit: [], remove: [] };
  server.use(
    http.get('*/api/blade-system/param/list', ({ request }) => {
      c.list.push(new URL(request.url).searchParams);
      return HttpResponse.json(ok({ records: rows, total: 42, size: 10, current: 1, pages: 5 }));
    }),
    http.get('*/api/blade-system/param/detail', ({ request }) => {
      const id = new URL(request.url).searchParams.get('id');
      return HttpResponse.json(ok(rows.find((r) => r.id === id)));
    }),
    http.post('*/api/blade-system/param/submit', async ({ request }) => {
      c.submit.push(await request.json());
      return HttpResponse.json(ok(null));
    }),
    http.post('*/api/blade-system/param/remove', ({ request }) => {
      c.remove.push(new URL(request.url).searchParams.get('ids') ?? '');
      return HttpResponse.json(ok(null));
    }),
    http.get('*/api/blade-system/dict/dictionary', () =>
      HttpResponse.json(ok([{ dictKey: '1', dictValue: '待审' }, { dictKey: '2', dictValue: '审核中' }, { dictKey: '3', dictValue: '通过' }])),
    ),
  );
  return c;
}

const allPerms = { param_add: true, param_edit: true, param_delete: true, param_view: true, param_export: true };

describe('generic resource page', () => {
  beforeEach(async () => {
    await setLanguage('zh');
    useUserStore.setState({ permission: allPerms });
  });

  it('lists with row numbers, page size 10 and coloured dictionary tags', async () => {
    const c = mockApi();
    renderWithProviders(<ResourceCrud meta={meta} />);
    expect(await screen.findByText('name0')).toBeInTheDocument();
    expect(c.list[0].get('current')).toBe('1');
    expect(c.list[0].get('size')).toBe('10');
    expect(screen.getByText('共 42 条')).toBeInTheDocument();
    const tag = await screen.findByText('待审');
    expect(tag.className).toContain('red');
    expect((await screen.findByText('审核中')).className).toContain('orange');
    const table = document.querySelector('.ant-table-tbody') as HTMLElement;
    expect(within(table).getAllByRole('checkbox')).toHaveLength(3);
    expect(within(table).getByText('1')).toBeInTheDocument();
  });

  it('searches with only non-empty filters and goes back to page 1', async () => {
    const c = mockApi();
    renderWithProviders(<ResourceCrud meta={meta} />);
    await screen.findByText('name0');
    fireEvent.click(screen.getByTitle('2'));
    await waitFor(() => expect(c.list.at(-1)?.get('current')).toBe('2'));
    await userEvent.type(screen.getByPlaceholderText('请输入参数名称'), 'abc');
    fireEvent.click(screen.getByRole('button', { name: /搜\s*索/ }));
    await waitFor(() => expect(c.list.at(-1)?.get('paramName')).toBe('abc'));
    const last = c.list.at(-1)!;
    expect(last.get('current')).toBe('1');
    expect(last.has('paramKey')).toBe(false);
    expect(last.has('createTime_dategt')).toBe(false);
  });

  it('numbers rows from the page answered and draws pages over 50 rows as a virtual table', async () => {
    const many = Array.from({ length: 100 }, (_, i) => ({ id: String(1000 + i), paramName: `row${i}`, paramKey: `k${i}`, status: '1' }));
    mockApi(); // the dictionary of the status column; the list below overrides its list
    server.use(
      http.get('*/api/blade-system/param/list', ({ request }) => {
        const q = new URL(request.url).searchParams;
        const current = Number(q.get('current'));
        const size = Number(q.get('size'));
        const records = many.slice((current - 1) * size, current * size);
        return HttpResponse.json(ok({ records, total: many.length, size, current, pages: Math.ceil(many.length / size) }));
      }),
    );
    renderWithProviders(<ResourceCrud meta={meta} />);
    await screen.findByText('row0');
    fireEvent.click(screen.getByTitle('2'));
    await screen.findByText('row10');
    const first = screen.getByText('row10').closest('tr')!;
    expect(within(first).getByText('11')).toBeInTheDocument();
    expect(document.querySelector('.ant-table-tbody-virtual')).toBeNull();

    fireEvent.mouseDown(document.querySelector('.ant-pagination-options .ant-select-selector, .ant-pagination-options .ant-select')!);
    fireEvent.click(await screen.findByText('100 条/页'));
    await waitFor(() => expect(document.querySelector('.ant-table-tbody-virtual')).not.toBeNull());
    expect(await screen.findByText('row0')).toBeInTheDocument();
  });

  it('builds the date range as createTime_dategt / createTime_datelt', () => {
    const fields = meta.fields.filter((x) => x.search);
    const out = buildFilters({ paramName: ' a ', paramKey: '', createTime: [dayjs('2024-01-02'), dayjs('2024-01-05')] }, fields);
    expect(out).toEqual({ paramName: 'a', createTime_dategt: '2024-01-02 00:00:00', createTime_datelt: '2024-01-05 23:59:59' });
    expect(filterParam(f({ name: 'code', filter: 'likeright' }))).toBe('code_likeright');
    expect(filterParam(f({ name: 'n', type: 'int', filter: 'equal' }))).toBe('n');
  });

  it('validates on blur with the metadata messages and adds a row', async () => {
    const c = mockApi();
    renderWithProviders(<ResourceCrud meta={meta} />);
    await screen.findByText('name0');
    fireEvent.click(screen.getByRole('button', { name: /新\s*增/ }));
    const dialog = await screen.findByRole('dialog');
    const name = within(dialog).getByLabelText('参数名称');
    fireEvent.focus(name);
    fireEvent.blur(name);
    expect(await within(dialog).findByText('请输入参数名称')).toBeInTheDocument();
    fireEvent.click(within(dialog).getByRole('button', { name: /保\s*存/ }));
    expect(await within(dialog).findByText('请输入参数键名')).toBeInTheDocument();
    expect(await within(dialog).findByText('请输入参数键值')).toBeInTheDocument();
    expect(c.submit).toHaveLength(0);
    await userEvent.type(name, 'n1');
    await userEvent.type(within(dialog).getByLabelText('参数键名'), 'k1');
    await userEvent.type(within(dialog).getByLabelText('参数键值'), 'v1');
    fireEvent.click(within(dialog).getByRole('button', { name: /保\s*存/ }));
    await waitFor(() => expect(c.submit).toHaveLength(1));
    expect(c.submit[0]).toEqual({ paramName: 'n1', paramKey: 'k1', paramValue: 'v1' });
    expect(await screen.findByText('新增成功')).toBeInTheDocument();
  });

  it('draws a select field from its list endpoint and sends int dictionary values as numbers', async () => {
    const tenantMeta: ResourceMeta = {
      ...meta,
      name: 'tenant',
      path: '/api/blade-system/tenant',
      fields: [
        f({ name: 'tenantName', label: { zh: '租户名称', en: 'Tenant name' }, required: true }),
        f({ name: 'packageId', type: 'select', valueType: 'id', selectUrl: '/api/blade-system/tenant-package/list', selectLabel: 'packageName', label: { zh: '租户套餐', en: 'Package' } }),
        f({ name: 'status', type: 'dict', dict: 'status', valueType: 'int', label: { zh: '状态', en: 'Status' } }),
      ],
    };
    const submitted: unknown[] = [];
    server.use(
      http.get('*/api/blade-system/tenant/list', () => HttpResponse.json(ok({ records: [{ id: '1', tenantName: 'Acme', packageId: '7', status: 1 }], total: 1, size: 10, current: 1, pages: 1 }))),
      http.get('*/api/blade-system/tenant-package/list', () => HttpResponse.json(ok({ records: [{ id: '7', packageName: 'Gold' }, { id: '8', packageName: 'Silver' }], total: 2, size: 1000, current: 1, pages: 1 }))),
      http.get('*/api/blade-system/dict/dictionary', () => HttpResponse.json(ok([{ dictKey: '1', dictValue: '启用' }, { dictKey: '2', dictValue: '停用' }]))),
      http.post('*/api/blade-system/tenant/submit', async ({ request }) => {
        submitted.push(await request.json());
        return HttpResponse.json(ok(null));
      }),
    );
    renderWithProviders(<ResourceCrud meta={tenantMeta} />);
    expect(await screen.findByText('Gold')).toBeInTheDocument(); // the cell shows the package's name, not 7
    fireEvent.click(screen.getByRole('button', { name: /新\s*增/ }));
    const dialog = await screen.findByRole('dialog');
    await userEvent.type(within(dialog).getByLabelText('租户名称'), 'Beta');
    fireEvent.mouseDown(within(dialog).getByLabelText('租户套餐'));
    fireEvent.click(await screen.findByTitle('Silver'));
    fireEvent.mouseDown(within(dialog).getByLabelText('状态'));
    fireEvent.click(await screen.findByTitle('停用'));
    fireEvent.click(within(dialog).getByRole('button', { name: /保\s*存/ }));
    await waitFor(() => expect(submitted).toHaveLength(1));
    expect(submitted[0]).toEqual({ tenantName: 'Beta', packageId: '8', status: 2 });
  });

  it('shows English messages when the language is en', async () => {
    await setLanguage('en');
    mockApi();
    renderWithProviders(<ResourceCrud meta={meta} />);
    await screen.findByText('name0');
    fireEvent.click(screen.getByRole('button', { name: /Add/ }));
    const dialog = await screen.findByRole('dialog');
    const name = within(dialog).getByLabelText('Parameter name');
    fireEvent.focus(name);
    fireEvent.blur(name);
    expect(await within(dialog).findByText('Please enter parameter name')).toBeInTheDocument();
  });

  it('edits a row sending id and version', async () => {
    const c = mockApi();
    renderWithProviders(<ResourceCrud meta={meta} />);
    await screen.findByText('name0');
    fireEvent.click(screen.getAllByRole('button', { name: /编\s*辑/ })[1]);
    const dialog = await screen.findByRole('dialog');
    await waitFor(() => expect(within(dialog).getByLabelText('参数名称')).toHaveValue('name1'));
    const value = within(dialog).getByLabelText('参数键值');
    await userEvent.clear(value);
    await userEvent.type(value, 'changed');
    fireEvent.click(within(dialog).getByRole('button', { name: /保\s*存/ }));
    await waitFor(() => expect(c.submit).toHaveLength(1));
    expect(c.submit[0]).toMatchObject({ id: '101', version: 1, paramValue: 'changed', paramName: 'name1' });
    expect(await screen.findByText('更新成功')).toBeInTheDocument();
  });

  it('bulk delete needs a selection and a confirmation', async () => {
    const c = mockApi();
    renderWithProviders(<ResourceCrud meta={meta} />);
    await screen.findByText('name0');
    const toolbarDelete = screen.getAllByRole('button', { name: /删\s*除/ })[0];
    fireEvent.click(toolbarDelete);
    expect(await screen.findByText('请选择至少一条数据')).toBeInTheDocument();
    const table = document.querySelector('.ant-table-tbody') as HTMLElement;
    const boxes = within(table).getAllByRole('checkbox');
    fireEvent.click(boxes[0]);
    fireEvent.click(boxes[2]);
    fireEvent.click(toolbarDelete);
    expect(await screen.findByText('确定将选择数据删除?')).toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: /确\s*定/ }));
    await waitFor(() => expect(c.remove).toEqual(['100,102']));
    expect(await screen.findByText('删除成功')).toBeInTheDocument();
  });

  it('shows buttons by permission code', async () => {
    useUserStore.setState({ permission: { param_view: true } });
    mockApi();
    renderWithProviders(<ResourceCrud meta={meta} />);
    await screen.findByText('name0');
    expect(screen.queryByRole('button', { name: /新\s*增/ })).toBeNull();
    expect(screen.queryByRole('button', { name: /删\s*除/ })).toBeNull();
    expect(screen.queryByRole('button', { name: /导\s*出/ })).toBeNull();
    expect(screen.getAllByRole('button', { name: /查\s*看/ })).toHaveLength(3);
  });

  it('colours dictionary tags by the rules of spec §4', () => {
    expect(['1', '4', '5'].map((k) => dictTagColor('status', 'status', k))).toEqual(['red', 'red', 'red']);
    expect(dictTagColor('audit_status', 'status', 2)).toBe('orange');
    expect(dictTagColor('status', 'status', 3)).toBeUndefined();
    expect(dictTagColor('ready_state', 'readyState', 1)).toBe('red');
    expect(dictTagColor('ready_state', 'readyState', 2)).toBe('orange');
    expect(dictTagColor('yes_no', 'isBatch', 1)).toBe('red');
    expect(dictTagColor('yes_no', 'isBatch', 2)).toBe('blue');
    expect(dictTagColor('product_stock_state', 'state', 2)).toBe('blue');
    expect(dictTagColor('quotation_status', 'status', 0)).toBe('red');
    expect(dictTagColor('quotation_status', 'status', 1)).toBeUndefined();
  });
});
