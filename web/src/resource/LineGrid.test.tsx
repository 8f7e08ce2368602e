import { beforeEach, describe, expect, it } from 'vitest';
import { http, HttpResponse } from 'msw';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { server } from '../test/server';
import { renderWithProviders } from '../test/utils';
import { setLanguage } from '../i18n';
import { useUserStore } from '../store/user';
import ResourceCrud from './ResourceCrud';
import { allReceiptPermissions, receiptMeta } from './testMeta';
import { mockReceipts, receiptDetail } from './testApi';

/** The rows of the line grid, in order. */
const lineRows = (dialog: HTMLElement) => [...dialog.querySelectorAll<HTMLElement>('.bb-lines-table .ant-table-tbody tr.ant-table-row')];
/** The decimal inputs of a line: quantity, amount. */
const decimals = (row: HTMLElement) => within(row).getAllByRole('textbox');
const total = (dialog: HTMLElement, name: string) => dialog.querySelector(`[data-total="${name}"]`)?.textContent;

async function pickMaterial(row: HTMLElement, title: string) {
  fireEvent.mouseDown(within(row).getByRole('combobox'));
  fireEvent.click(await screen.findByTitle(title));
}

async function typeDecimal(input: HTMLElement, text: string) {
  await userEvent.clear(input);
  await userEvent.type(input, text);
  fireEvent.blur(input);
}

const save = (dialog: HTMLElement) => fireEvent.click(within(dialog).getByRole('button', { name: /保\s*存/ }));

describe('master/detail editor of lines', () => {
  beforeEach(async () => {
    await setLanguage('zh');
    useUserStore.setState({ permission: allReceiptPermissions });
  });

  it('adds, copies and removes lines, sums the totals and sends the lines with decimals as strings at scale', async () => {
    const c = mockReceipts();
    renderWithProviders(<ResourceCrud meta={receiptMeta} />);
    await screen.findByText('MIN001');
    fireEvent.click(screen.getByRole('button', { name: /新\s*增/ }));
    const dialog = await screen.findByRole('dialog');
    expect(await within(dialog).findByText('暂无明细,请点击“新增行”')).toBeInTheDocument();

    fireEvent.mouseDown(within(dialog).getByLabelText('仓库'));
    fireEvent.click(await screen.findByTitle('W01 North'));
    await typeDecimal(within(dialog).getByLabelText('金额'), '100');

    fireEvent.click(within(dialog).getByRole('button', { name: /新增行/ }));
    await waitFor(() => expect(lineRows(dialog)).toHaveLength(1));
    await pickMaterial(lineRows(dialog)[0], 'M-01 Steel bar');
    await typeDecimal(decimals(lineRows(dialog)[0])[0], '1.5');
    await typeDecimal(decimals(lineRows(dialog)[0])[1], '2');
    expect(decimals(lineRows(dialog)[0])[0]).toHaveValue('1.500');

    fireEvent.click(within(lineRows(dialog)[0]).getByRole('button', { name: '复制' }));
    await waitFor(() => expect(lineRows(dialog)).toHaveLength(2));
    expect(within(lineRows(dialog)[1]).getByText('M-01 Steel bar')).toBeInTheDocument();
    await typeDecimal(decimals(lineRows(dialog)[1])[0], '2.25');
    await waitFor(() => expect(total(dialog, 'qty')).toBe('3.750'));
    expect(total(dialog, 'amount')).toBe('4.00');

    fireEvent.click(within(dialog).getByRole('button', { name: /新增行/ }));
    await waitFor(() => expect(lineRows(dialog)).toHaveLength(3));
    // An empty line is refused on its own cells.
    save(dialog);
    expect(await within(lineRows(dialog)[2]).findByText('请选择物料')).toBeInTheDocument();
    expect(await within(lineRows(dialog)[2]).findByText('请输入数量')).toBeInTheDocument();
    expect(c.submit).toHaveLength(0);
    fireEvent.click(within(lineRows(dialog)[2]).getByRole('button', { name: '删除' }));
    await waitFor(() => expect(lineRows(dialog)).toHaveLength(2));

    save(dialog);
    await waitFor(() => expect(c.submit).toHaveLength(1));
    expect(c.submit[0]).toEqual({
      warehouseId: '11',
      amount: '100.00',
      details: [
        { materialId: '501', qty: '1.500', amount: '2.00' },
        { materialId: '501', qty: '2.250', amount: '2.00' },
      ],
    });
  });

  it('edits the stored lines keeping their ids; a removed line is left out', async () => {
    const c = mockReceipts({ detail: receiptDetail });
    renderWithProviders(<ResourceCrud meta={receiptMeta} />);
    await screen.findByText('MIN001');
    fireEvent.click(screen.getAllByRole('button', { name: /编\s*辑/ })[0]);
    const dialog = await screen.findByRole('dialog');
    await waitFor(() => expect(lineRows(dialog)).toHaveLength(2));
    // Labels from the lines' joined names, quantities at their scale, totals of the stored lines.
    expect(within(lineRows(dialog)[0]).getByText('Steel bar')).toBeInTheDocument();
    expect(decimals(lineRows(dialog)[1])[0]).toHaveValue('1.500');
    expect(total(dialog, 'qty')).toBe('3.500');
    expect(total(dialog, 'amount')).toBe('13.25');

    fireEvent.click(within(lineRows(dialog)[1]).getByRole('button', { name: '删除' }));
    await waitFor(() => expect(lineRows(dialog)).toHaveLength(1));
    await typeDecimal(decimals(lineRows(dialog)[0])[0], '3');
    save(dialog);
    await waitFor(() => expect(c.submit).toHaveLength(1));
    expect(c.submit[0]).toMatchObject({
      id: '100',
      version: 1,
      details: [{ id: '9001', version: 2, materialId: '501', qty: '3.000', amount: '10.00' }],
    });
    expect((c.submit[0].details as unknown[])[0]).not.toHaveProperty('materialName');
    expect(await screen.findByText('更新成功')).toBeInTheDocument();
  });

  it("shows the server's line errors on the line they name", async () => {
    mockReceipts({ detail: receiptDetail });
    server.use(
      http.post('*/api/bluebird-wms/material-in/submit', () =>
        HttpResponse.json(
          {
            code: 400,
            success: false,
            msg: '第2行: 数量必须大于0',
            data: { 'details[1].qty': '第2行: 数量必须大于0', 'details[0].batchNo': '第1行: 批次B1已出库', docNo: '单号已存在' },
          },
          { status: 400 },
        ),
      ),
    );
    renderWithProviders(<ResourceCrud meta={receiptMeta} />);
    await screen.findByText('MIN001');
    fireEvent.click(screen.getAllByRole('button', { name: /编\s*辑/ })[0]);
    const dialog = await screen.findByRole('dialog');
    await waitFor(() => expect(lineRows(dialog)).toHaveLength(2));
    save(dialog);
    // On the quantity cell of the second line; the batch has no cell, so its error is under the first line.
    expect(await within(lineRows(dialog)[1]).findByText('第2行: 数量必须大于0')).toBeInTheDocument();
    expect(within(lineRows(dialog)[0]).getByText('第1行: 批次B1已出库')).toBeInTheDocument();
    expect(within(lineRows(dialog)[0]).queryByText('第2行: 数量必须大于0')).toBeNull();
    // A header field's error goes under that field.
    expect(within(dialog).getByText('单号已存在')).toBeInTheDocument();
  });
});
