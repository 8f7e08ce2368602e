import { beforeEach, describe, expect, it } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { renderWithProviders } from '../test/utils';
import { setLanguage } from '../i18n';
import { useUserStore } from '../store/user';
import ResourceCrud from './ResourceCrud';
import { allReceiptPermissions, receiptMeta } from './testMeta';
import { mockReceipts, receiptRows } from './testApi';
import type { ResourceMeta } from './types';

// The receipt without lines, number and commands: only the warehouse reference is under test.
const meta: ResourceMeta = { ...receiptMeta, lines: undefined, number: undefined, commands: undefined };

const openAdd = async () => {
  await screen.findByText('MIN001');
  fireEvent.click(screen.getByRole('button', { name: /新\s*增/ }));
  return screen.findByRole('dialog');
};

describe('remote-search select of a reference field', () => {
  beforeEach(async () => {
    await setLanguage('zh');
    useUserStore.setState({ permission: allReceiptPermissions });
  });

  it('searches the server as the user types and offers "code name" options; the chosen id is sent', async () => {
    const c = mockReceipts();
    renderWithProviders(<ResourceCrud meta={meta} />);
    const dialog = await openAdd();
    expect(c.warehouseSearch).toHaveLength(0); // nothing fetched before the list opens
    const input = within(dialog).getByLabelText('仓库');
    fireEvent.mouseDown(input);
    await waitFor(() => expect(c.warehouseSearch).toHaveLength(1));
    expect(Object.fromEntries(c.warehouseSearch[0])).toEqual({ current: '1', size: '20' });
    expect(await screen.findByTitle('W01 North')).toBeInTheDocument();

    await userEvent.type(input, 'Sou');
    await waitFor(() => expect(c.warehouseSearch.at(-1)?.get('name')).toBe('Sou'));
    expect(c.warehouseSearch.at(-1)?.get('current')).toBe('1');
    // Debounced: fewer searches than letters typed.
    expect(c.warehouseSearch.filter((q) => q.has('name')).length).toBeLessThan(3);
    fireEvent.click(await screen.findByTitle('W02 South'));
    await waitFor(() => expect(screen.queryByTitle('W01 North')).toBeNull());

    await userEvent.type(within(dialog).getByLabelText('金额'), '5');
    fireEvent.click(within(dialog).getByRole('button', { name: /保\s*存/ }));
    await waitFor(() => expect(c.submit).toHaveLength(1));
    expect(c.submit[0]).toEqual({ warehouseId: '12', amount: '5.00' });
  });

  it('loads the next page of options when the list is scrolled to its end', async () => {
    const c = mockReceipts();
    renderWithProviders(<ResourceCrud meta={meta} />);
    const dialog = await openAdd();
    fireEvent.mouseDown(within(dialog).getByLabelText('仓库'));
    await screen.findByTitle('W01 North');
    const holder = document.querySelector('.ant-select-dropdown [class$="-list-holder"]') as HTMLElement;
    Object.defineProperty(holder, 'scrollHeight', { configurable: true, value: 640 });
    Object.defineProperty(holder, 'clientHeight', { configurable: true, value: 256 });
    holder.scrollTop = 400;
    fireEvent.scroll(holder);
    await waitFor(() => expect(c.warehouseSearch.map((q) => q.get('current'))).toEqual(['1', '2']));
    expect(await screen.findByTitle('W21 Store 21')).toBeInTheDocument();
  });

  it('shows the current value by the joined name of the row, else by the referenced row', async () => {
    const c = mockReceipts({ detail: (id) => ({ ...receiptRows.find((r) => r.id === id)!, warehouseName: undefined }) });
    renderWithProviders(<ResourceCrud meta={meta} />);
    await screen.findByText('MIN001');
    // The table shows the joined name in the reference's column and does not draw the name column again.
    const table = document.querySelector('.ant-table') as HTMLElement;
    expect(within(table).getAllByRole('columnheader').map((h) => h.textContent)).not.toContain('仓库名称');
    expect(within(table).getAllByText('North')).toHaveLength(2);
    expect(c.warehouseDetail).toEqual([]);

    // The detail of row 101 carries no warehouse name: the select asks the warehouse's own detail.
    fireEvent.click(screen.getAllByRole('button', { name: /编\s*辑/ })[1]);
    const dialog = await screen.findByRole('dialog');
    expect(await within(dialog).findByText('W02 South')).toBeInTheDocument();
    expect(c.warehouseDetail).toEqual(['12']);
  });

  it('takes the joined name from the edited row without asking the server', async () => {
    const c = mockReceipts();
    renderWithProviders(<ResourceCrud meta={meta} />);
    await screen.findByText('MIN001');
    fireEvent.click(screen.getAllByRole('button', { name: /编\s*辑/ })[0]);
    const dialog = await screen.findByRole('dialog');
    expect(await within(dialog).findByText('North')).toBeInTheDocument();
    expect(c.warehouseDetail).toEqual([]);
    expect(c.warehouseSearch).toEqual([]);
  });

  it('filters the list by the warehouse picked in the search bar', async () => {
    const c = mockReceipts();
    renderWithProviders(<ResourceCrud meta={meta} />);
    await screen.findByText('MIN001');
    const input = within(document.querySelector('.bb-search') as HTMLElement).getByLabelText('仓库');
    fireEvent.mouseDown(input);
    await userEvent.type(input, 'North');
    fireEvent.click(await screen.findByTitle('W01 North'));
    fireEvent.click(screen.getByRole('button', { name: /搜\s*索/ }));
    await waitFor(() => expect(c.list.at(-1)?.get('warehouseId')).toBe('11'));
  });
});
