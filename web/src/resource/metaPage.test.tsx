import { beforeEach, describe, expect, it } from 'vitest';
import { http, HttpResponse } from 'msw';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { server } from '../test/server';
import { ok, renderWithProviders } from '../test/utils';
import { setLanguage } from '../i18n';
import { useUserStore } from '../store/user';
import ResourceCrud from './ResourceCrud';
import { allReceiptPermissions, materialTypeMeta, receiptMeta } from './testMeta';
import { mockReceipts } from './testApi';
import type { ResourceMeta } from './types';

// The receipt without lines and commands, for the table, the decimal input and the number.
const meta: ResourceMeta = { ...receiptMeta, lines: undefined, commands: undefined };

const cellOf = (docNo: string, column: number) => (screen.getByText(docNo).closest('tr') as HTMLElement).querySelectorAll('td')[column] as HTMLElement;
const headerIndex = (title: string) => [...document.querySelectorAll('.ant-table-thead th')].findIndex((th) => th.textContent === title);

describe('metadata-driven table and form', () => {
  beforeEach(async () => {
    await setLanguage('zh');
    useUserStore.setState({ permission: allReceiptPermissions });
  });

  it('reads the list view with its joined columns, filtering and sorting them (no list/page request)', async () => {
    const c = mockReceipts();
    renderWithProviders(<ResourceCrud meta={meta} />);
    await screen.findByText('MIN001');
    expect(Object.fromEntries(c.list[0])).toEqual({ current: '1', size: '10' });
    expect(within(screen.getByText('MIN002').closest('tr') as HTMLElement).getByText('Bob')).toBeInTheDocument();

    await userEvent.type(screen.getByPlaceholderText('请输入制单人'), 'An');
    fireEvent.click(screen.getByRole('button', { name: /搜\s*索/ }));
    await waitFor(() => expect(c.list.at(-1)?.get('creatorName')).toBe('An'));

    // The warehouse column shows the joined name and sorts by it.
    fireEvent.click(screen.getAllByRole('columnheader').find((h) => h.textContent === '仓库')!);
    await waitFor(() => expect(c.list.at(-1)?.get('ascs')).toBe('warehouseName'));
  });

  it('filters by a dictionary value chosen in the search bar', async () => {
    const c = mockReceipts();
    const searchable = { ...meta, fields: meta.fields.map((f) => (f.name === 'status' ? { ...f, search: true, filter: 'equal' } : f)) };
    renderWithProviders(<ResourceCrud meta={searchable} />);
    await screen.findByText('MIN001');
    fireEvent.mouseDown(within(document.querySelector('.bb-search') as HTMLElement).getByLabelText('状态'));
    fireEvent.click(await screen.findByTitle('驳回'));
    fireEvent.click(screen.getByRole('button', { name: /搜\s*索/ }));
    await waitFor(() => expect(c.list.at(-1)?.get('status')).toBe('4'));
  });

  it('shows decimals right-aligned as the strings of the server, at their scale', async () => {
    mockReceipts();
    renderWithProviders(<ResourceCrud meta={meta} />);
    await screen.findByText('MIN001');
    const amount = headerIndex('金额');
    expect(cellOf('MIN001', amount).textContent).toBe('1234.50');
    expect(cellOf('MIN002', amount).textContent).toBe('12.50');
    expect(cellOf('MIN003', amount).textContent).toBe('');
    expect(cellOf('MIN001', amount).style.textAlign).toBe('right');
    expect(cellOf('MIN001', headerIndex('入库单号')).style.textAlign).not.toBe('right');
  });

  it('types decimals digit by digit within scale and bounds, with the messages of the metadata rules', async () => {
    const c = mockReceipts();
    renderWithProviders(<ResourceCrud meta={meta} />);
    await screen.findByText('MIN001');
    fireEvent.click(screen.getAllByRole('button', { name: /编\s*辑/ })[0]);
    const dialog = await screen.findByRole('dialog');
    const amount = within(dialog).getByLabelText('金额');
    await waitFor(() => expect(amount).toHaveValue('1234.50'));
    expect(amount).toHaveStyle({ textAlign: 'right' });

    await userEvent.clear(amount);
    await userEvent.type(amount, '-ab12.345');
    expect(amount).toHaveValue('12.34'); // no minus (positive), no letters, two decimals
    await userEvent.clear(amount);
    await userEvent.type(amount, '0');
    fireEvent.blur(amount);
    expect(await within(dialog).findByText('金额必须大于0')).toBeInTheDocument();
    expect(amount).toHaveValue('0.00');
    await userEvent.clear(amount);
    await userEvent.type(amount, '1000000.01');
    fireEvent.blur(amount);
    expect(await within(dialog).findByText('金额不能大于1000000')).toBeInTheDocument();
    await userEvent.clear(amount);
    await userEvent.type(amount, '99.9');
    fireEvent.blur(amount);
    await waitFor(() => expect(within(dialog).queryByText('金额不能大于1000000')).toBeNull());
    fireEvent.click(within(dialog).getByRole('button', { name: /保\s*存/ }));
    await waitFor(() => expect(c.submit).toHaveLength(1));
    expect(c.submit[0]).toMatchObject({ id: '100', amount: '99.90' });
    expect(typeof c.submit[0].amount).toBe('string');
  });

  it('shows the document number read-only, with the code rule preview as placeholder for a new row', async () => {
    const c = mockReceipts();
    renderWithProviders(<ResourceCrud meta={meta} />);
    await screen.findByText('MIN001');
    fireEvent.click(screen.getAllByRole('button', { name: /编\s*辑/ })[0]);
    let dialog = await screen.findByRole('dialog');
    await waitFor(() => expect(within(dialog).getByLabelText('入库单号')).toHaveValue('MIN001'));
    expect(within(dialog).getByLabelText('入库单号')).toHaveAttribute('readonly');
    expect(c.preview).toEqual([]);
    fireEvent.click(within(dialog).getByRole('button', { name: /取\s*消/ }));

    fireEvent.click(screen.getByRole('button', { name: /新\s*增/ }));
    await waitFor(() => expect(screen.getAllByRole('dialog').some((d) => within(d).queryByLabelText('入库单号')?.getAttribute('placeholder') === 'MIN20240007')).toBe(true));
    dialog = screen.getAllByRole('dialog').find((d) => within(d).queryByLabelText('入库单号')?.getAttribute('placeholder') === 'MIN20240007')!;
    expect(within(dialog).getByLabelText('入库单号')).toHaveAttribute('readonly');
    expect(c.preview).toEqual(['MIN']);
  });

  it('starts a new row of a screen with its fixed values, which the form keeps', async () => {
    mockReceipts();
    const screenMeta: ResourceMeta = {
      ...meta,
      menuCode: 'material_in_other',
      fixed: { inType: '3' },
      fields: [...meta.fields, { name: 'inType', type: 'string', valueType: 'string', label: { zh: '入库类型', en: 'Receipt type' } }],
    };
    renderWithProviders(<ResourceCrud meta={screenMeta} />);
    await screen.findByText('MIN001');
    fireEvent.click(screen.getByRole('button', { name: /新\s*增/ }));
    const dialog = await screen.findByRole('dialog');
    await waitFor(() => expect(within(dialog).getByLabelText('入库类型')).toHaveValue('3'));
    expect(within(dialog).getByLabelText('入库类型')).toBeDisabled();
  });

  it('lets the user type the number when the code rule is manual', async () => {
    mockReceipts();
    renderWithProviders(<ResourceCrud meta={{ ...meta, number: { field: 'docNo', manual: true, bizType: 'MIN' } }} />);
    await screen.findByText('MIN001');
    fireEvent.click(screen.getByRole('button', { name: /新\s*增/ }));
    const dialog = await screen.findByRole('dialog');
    const docNo = within(dialog).getByLabelText('入库单号');
    await waitFor(() => expect(docNo).toHaveAttribute('placeholder', 'MIN20240007'));
    expect(docNo).not.toHaveAttribute('readonly');
    await userEvent.type(docNo, 'X-1');
    expect(docNo).toHaveValue('X-1');
  });
});

describe('tree resources on the generic page', () => {
  const typeRows = [
    { id: '1', parentId: '0', name: '原料', code: 'RAW' },
    { id: '2', parentId: '1', name: '钢材', code: 'STEEL' },
    { id: '3', parentId: '0', name: '成品', code: 'GOODS' },
  ];
  const listed = (q: URLSearchParams) => {
    const parent = q.get('parentId');
    const name = q.get('name');
    const records = typeRows.filter((r) => (parent === null || r.parentId === parent) && (!name || r.name.includes(name)));
    return ok({ records, total: records.length, size: 1000, current: 1, pages: 1 });
  };

  beforeEach(async () => {
    await setLanguage('zh');
    useUserStore.setState({ permission: {} });
  });

  it('draws the rows of GET path/tree as an expandable tree, and a search as a flat list', async () => {
    const pages: URLSearchParams[] = [];
    server.use(
      http.get('*/api/bluebird-basic/material-type/tree', () =>
        HttpResponse.json(ok([
          { id: '1', parentId: '0', title: '原料', hasChildren: true, children: [{ id: '2', parentId: '1', title: '钢材', children: [] }] },
          { id: '3', parentId: '0', title: '成品', children: [] },
          { id: '4', parentId: '0', title: '半成品', children: [] }, // not among the listed rows: its title shows
        ])),
      ),
      http.get('*/api/bluebird-basic/material-type/page', ({ request }) => {
        const q = new URL(request.url).searchParams;
        pages.push(q);
        return HttpResponse.json(listed(q));
      }),
    );
    renderWithProviders(<ResourceCrud meta={materialTypeMeta} treeTable />);
    expect(await screen.findByText('RAW')).toBeInTheDocument();
    expect(screen.getByText('半成品')).toBeInTheDocument();
    expect(screen.queryByText('STEEL')).toBeNull();
    expect(pages[0].get('size')).toBe('1000');
    fireEvent.click(screen.getByText('原料').closest('tr')!.querySelector('.ant-table-row-expand-icon')!);
    expect(await screen.findByText('STEEL')).toBeInTheDocument();
    expect(document.querySelector('.ant-pagination')).toBeNull();

    await userEvent.type(screen.getByPlaceholderText('请输入分类名称'), '钢');
    fireEvent.click(screen.getByRole('button', { name: /搜\s*索/ }));
    await waitFor(() => expect(pages.at(-1)?.get('name')).toBe('钢'));
    expect(pages.at(-1)?.get('size')).toBe('10');
    await waitFor(() => expect(screen.queryByText('RAW')).toBeNull());
    expect(screen.getByText('STEEL')).toBeInTheDocument();
  });

  it('loads a lazy tree one level at a time from GET path/lazy-tree', async () => {
    const levels: string[] = [];
    server.use(
      http.get('*/api/bluebird-basic/material-type/lazy-tree', ({ request }) => {
        const parentId = new URL(request.url).searchParams.get('parentId') ?? '';
        levels.push(parentId);
        const kids = typeRows.filter((r) => r.parentId === parentId).map((r) => ({ id: r.id, parentId: r.parentId, title: r.name, hasChildren: r.id === '1' }));
        return HttpResponse.json(ok(kids));
      }),
      http.get('*/api/bluebird-basic/material-type/page', ({ request }) => HttpResponse.json(listed(new URL(request.url).searchParams))),
    );
    renderWithProviders(<ResourceCrud meta={{ ...materialTypeMeta, tree: { parentField: 'parentId', labelField: 'name', lazy: true } }} treeTable />);
    expect(await screen.findByText('RAW')).toBeInTheDocument();
    expect(levels).toEqual(['0']);
    // Only a node with children has an expander.
    expect(screen.getByText('成品').closest('tr')!.querySelector('.ant-table-row-expand-icon:not(.ant-table-row-expand-icon-spaced)')).toBeNull();
    fireEvent.click(screen.getByText('原料').closest('tr')!.querySelector('.ant-table-row-expand-icon')!);
    expect(await screen.findByText('STEEL')).toBeInTheDocument();
    expect(levels).toEqual(['0', '1']);
  });
});
