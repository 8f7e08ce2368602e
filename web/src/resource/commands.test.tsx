import { beforeEach, describe, expect, it } from 'vitest';
import { http, HttpResponse } from 'msw';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { server } from '../test/server';
import { renderWithProviders } from '../test/utils';
import { setLanguage } from '../i18n';
import { useUserStore } from '../store/user';
import ResourceCrud from './ResourceCrud';
import { allReceiptPermissions, receiptMeta } from './testMeta';
import { mockReceipts } from './testApi';

const rowOf = (docNo: string) => screen.getByText(docNo).closest('tr') as HTMLElement;
const toolbar = () => document.querySelector('.bb-resource .ant-card-body > .ant-space') as HTMLElement;

describe('commands of the resource metadata', () => {
  beforeEach(async () => {
    await setLanguage('zh');
    useUserStore.setState({ permission: allReceiptPermissions });
  });

  it('are hidden without their permission', async () => {
    useUserStore.setState({ permission: { material_in_view: true } });
    mockReceipts();
    renderWithProviders(<ResourceCrud meta={receiptMeta} />);
    await screen.findByText('MIN001');
    expect(screen.queryByRole('button', { name: '生效' })).toBeNull();
    expect(screen.queryByRole('button', { name: '失效' })).toBeNull();
    expect(within(rowOf('MIN001')).getByRole('button', { name: /查\s*看/ })).toBeInTheDocument();
  });

  it('draw row buttons enabled only in their from-states, beside the coloured status tags', async () => {
    mockReceipts();
    renderWithProviders(<ResourceCrud meta={receiptMeta} />);
    await screen.findByText('MIN001');
    // status 1 and 4 may become effective; 2 may become not effective.
    expect(within(rowOf('MIN001')).getByRole('button', { name: '生效' })).toBeEnabled();
    expect(within(rowOf('MIN001')).getByRole('button', { name: '失效' })).toBeDisabled();
    expect(within(rowOf('MIN002')).getByRole('button', { name: '生效' })).toBeDisabled();
    expect(within(rowOf('MIN002')).getByRole('button', { name: '失效' })).toBeEnabled();
    expect(within(rowOf('MIN003')).getByRole('button', { name: '生效' })).toBeEnabled();
    // The toolbar has only the command declared for it.
    expect(within(toolbar()).getByRole('button', { name: /^生\s*效$/ })).toBeInTheDocument();
    expect(within(toolbar()).queryByRole('button', { name: /^失\s*效$/ })).toBeNull();
    // Status tags keep spec §4's colours: 1 and 4 red, 2 orange.
    expect((await within(rowOf('MIN001')).findByText('待审')).className).toContain('red');
    expect((await within(rowOf('MIN002')).findByText('已生效')).className).toContain('orange');
    expect((await within(rowOf('MIN003')).findByText('驳回')).className).toContain('red');
  });

  it('a row command asks its confirmation, posts the row id with its params, toasts the server msg and reloads', async () => {
    const c = mockReceipts();
    renderWithProviders(<ResourceCrud meta={receiptMeta} />);
    await screen.findByText('MIN001');
    const listed = c.list.length;
    fireEvent.click(within(rowOf('MIN003')).getByRole('button', { name: '生效' }));
    expect(await screen.findByText('确定将选择的数据设为生效?')).toBeInTheDocument();
    expect(c.commands).toHaveLength(0);
    fireEvent.click(screen.getByRole('button', { name: /确\s*定/ }));
    await waitFor(() => expect(c.commands).toHaveLength(1));
    expect(Object.fromEntries(c.commands[0])).toEqual({ ids: '102', effectiveStatus: '2' });
    expect(await screen.findByText('已处理 1 条')).toBeInTheDocument();
    await waitFor(() => expect(c.list.length).toBeGreaterThan(listed));
  });

  it('a toolbar command acts on the selected rows and needs a selection', async () => {
    const c = mockReceipts();
    renderWithProviders(<ResourceCrud meta={receiptMeta} />);
    await screen.findByText('MIN001');
    fireEvent.click(within(toolbar()).getByRole('button', { name: /^生\s*效$/ }));
    expect(await screen.findByText('请选择至少一条数据')).toBeInTheDocument();
    const boxes = within(document.querySelector('.ant-table-tbody') as HTMLElement).getAllByRole('checkbox');
    fireEvent.click(boxes[0]);
    fireEvent.click(boxes[2]);
    fireEvent.click(within(toolbar()).getByRole('button', { name: /^生\s*效$/ }));
    fireEvent.click(await screen.findByRole('button', { name: /确\s*定/ }));
    await waitFor(() => expect(c.commands.map((q) => q.get('ids'))).toEqual(['100,102']));
    expect(await screen.findByText('已处理 2 条')).toBeInTheDocument();
  });

  it('a command the server refuses shows its message as an error and no success', async () => {
    const c = mockReceipts();
    server.use(
      http.post('*/api/bluebird-wms/material-in/doEffective', () =>
        HttpResponse.json({ code: 400, success: false, msg: 'MIN001 的状态为已生效,不能生效', data: null }, { status: 400 }),
      ),
    );
    renderWithProviders(<ResourceCrud meta={receiptMeta} />);
    await screen.findByText('MIN001');
    fireEvent.click(within(rowOf('MIN001')).getByRole('button', { name: '生效' }));
    fireEvent.click(await screen.findByRole('button', { name: /确\s*定/ }));
    expect(await screen.findByText('MIN001 的状态为已生效,不能生效')).toBeInTheDocument();
    expect(screen.queryByText(/已处理/)).toBeNull();
    expect(c.commands).toHaveLength(0);
  });

  it('are labelled in English when the language is en', async () => {
    await setLanguage('en');
    mockReceipts();
    renderWithProviders(<ResourceCrud meta={receiptMeta} />);
    await screen.findByText('MIN001');
    expect(within(rowOf('MIN001')).getByRole('button', { name: 'Set effective' })).toBeEnabled();
  });
});
