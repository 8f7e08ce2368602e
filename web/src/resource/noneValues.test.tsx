import { beforeEach, describe, expect, it } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { renderWithProviders } from '../test/utils';
import { setLanguage } from '../i18n';
import { useUserStore } from '../store/user';
import ResourceCrud from './ResourceCrud';
import { dictShownKey } from './fields';
import { allReceiptPermissions, field, receiptMeta } from './testMeta';
import { mockReceipts, receiptRows } from './testApi';
import type { ResourceMeta } from './types';

const userRemote = { url: '/api/blade-user/selectUserListPage', valueField: 'id', labelField: 'realName', codeField: 'account', searchParam: 'keyword' };

// A receipt with a dictionary reason (0 on a purchase receipt), a user reference without a remote search
// and one with it, and state rules: edit in states 1 and 4, remove in 1 only.
const meta: ResourceMeta = {
  ...receiptMeta,
  lines: undefined,
  number: undefined,
  commands: undefined,
  fields: [
    ...receiptMeta.fields,
    field({ name: 'otherReason', type: 'dict', dict: 'in_other_reason', valueType: 'int', label: { zh: '其他入库原因' } }),
    field({ name: 'keeperId', type: 'id', valueType: 'id', ref: 'blade-user/user', label: { zh: '库管员' } }),
    field({ name: 'handlerId', type: 'id', valueType: 'id', ref: 'blade-user/user', remote: userRemote, label: { zh: '经办人' } }),
  ],
  states: { field: 'status', initial: 1, edit: [1, 4], remove: [1] },
};

const rows = receiptRows.map((r) => ({ ...r, otherReason: 0, keeperId: '0', handlerId: '0' }));

const inputOf = (name: string) => document.getElementById(`crud-material-in_${name}`) as HTMLInputElement;

describe('values that mean none, and row buttons by state', () => {
  beforeEach(async () => {
    await setLanguage('zh');
    useUserStore.setState({ permission: allReceiptPermissions });
  });

  it('a dictionary value 0 is none unless the dictionary has a key 0', () => {
    const reasons = [{ dictKey: '1', dictValue: '盘盈' }, { dictKey: '2', dictValue: '退料' }];
    expect(dictShownKey(0, reasons)).toBeUndefined();
    expect(dictShownKey('0', reasons)).toBeUndefined();
    expect(dictShownKey(0, undefined)).toBeUndefined();
    expect(dictShownKey(0, [{ dictKey: '0', dictValue: '否' }, { dictKey: '1', dictValue: '是' }])).toBe('0');
    expect(dictShownKey(2, reasons)).toBe('2');
    expect(dictShownKey('', reasons)).toBeUndefined();
  });

  it('the view dialog shows a dictionary 0 and reference ids 0 empty, and no reference as a text box', async () => {
    mockReceipts({ rows, detail: (id) => rows.find((r) => r.id === id)! });
    renderWithProviders(<ResourceCrud meta={meta} />);
    await screen.findByText('MIN001');
    const table = document.querySelector('.ant-table') as HTMLElement;
    // The table's cells of the dictionary and the references are empty too.
    expect(within(table).queryAllByText('0')).toEqual([]);

    fireEvent.click(screen.getAllByRole('button', { name: /查\s*看/ })[0]);
    const dialog = await screen.findByRole('dialog');
    await within(dialog).findByText('North');
    for (const name of ['otherReason', 'keeperId', 'handlerId']) {
      const input = inputOf(name);
      expect(input.getAttribute('role')).toBe('combobox');
      expect(input.closest('.ant-select')?.querySelector('.ant-select-selection-item')).toBeNull();
    }
    expect(within(dialog).queryByText('0')).toBeNull();
    expect(within(dialog).queryByTitle('0')).toBeNull();
  });

  it('a reference without a remote search is read-only, showing its joined label', async () => {
    const named = rows.map((r) => ({ ...r, keeperId: '7', keeperName: 'Keeper Kim' }));
    mockReceipts({ rows: named, detail: (id) => named.find((r) => r.id === id)! });
    renderWithProviders(<ResourceCrud meta={meta} />);
    await screen.findByText('MIN001');
    fireEvent.click(screen.getAllByRole('button', { name: /编\s*辑/ })[0]);
    const dialog = await screen.findByRole('dialog');
    expect(await within(dialog).findByText('Keeper Kim')).toBeInTheDocument();
    expect(inputOf('keeperId')).toBeDisabled();
    expect(inputOf('keeperId').getAttribute('role')).toBe('combobox');
  });

  it('disables edit and delete on rows whose state the rules do not list', async () => {
    mockReceipts({ rows });
    renderWithProviders(<ResourceCrud meta={meta} />);
    await screen.findByText('MIN001');
    const edit = screen.getAllByRole('button', { name: /编\s*辑/ });
    const remove = within(document.querySelector('.ant-table') as HTMLElement).getAllByRole('button', { name: /删\s*除/ });
    // Rows in states 1, 2 and 4.
    expect(edit.map((b) => (b as HTMLButtonElement).disabled)).toEqual([false, true, false]);
    expect(remove.map((b) => (b as HTMLButtonElement).disabled)).toEqual([false, true, true]);
  });

  it('without state rules every row may be edited and removed', async () => {
    mockReceipts({ rows });
    renderWithProviders(<ResourceCrud meta={{ ...meta, states: undefined }} />);
    await screen.findByText('MIN001');
    await waitFor(() => expect(screen.getAllByRole('button', { name: /编\s*辑/ }).every((b) => !(b as HTMLButtonElement).disabled)).toBe(true));
  });
});
