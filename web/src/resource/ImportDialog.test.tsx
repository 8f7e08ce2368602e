import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { delay, http, HttpResponse } from 'msw';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { server } from '../test/server';
import request from '../api/request';
import { renderWithProviders } from '../test/utils';
import { setLanguage } from '../i18n';
import { useUserStore } from '../store/user';
import ResourceCrud from './ResourceCrud';
import { IMPORT_MAX_BYTES, uploadImport } from './importFile';
import { allReceiptPermissions, receiptMeta } from './testMeta';
import { mockReceipts } from './testApi';
import type { ResourceMeta } from './types';

const importable: ResourceMeta = {
  ...receiptMeta,
  actions: [...receiptMeta.actions, 'import'],
  permissions: { ...receiptMeta.permissions, import: 'material_in_import' },
};

const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
const xlsx = (name = 'receipts.xlsx', bytes = 2048) => new File([new Uint8Array(bytes)], name, { type: XLSX });

/** The table of row errors, once shown. */
const errorTable = () =>
  waitFor(() => {
    const t = dialog().querySelector('.bb-import-errors');
    if (!t) throw new Error('no error table yet');
    return t as HTMLElement;
  });

const toolbar = () => document.querySelector('.bb-resource .ant-card-body > .ant-space') as HTMLElement;
const dialog = () => screen.getByRole('dialog');

/** Opens the import dialog from the toolbar and chooses a file (bypassing the input's accept filter, as a drop does). */
async function openAndChoose(file: File) {
  fireEvent.click(within(toolbar()).getByRole('button', { name: /导\s*入/ }));
  const input = (await screen.findByRole('dialog')).querySelector('input[type=file]') as HTMLInputElement;
  fireEvent.change(input, { target: { files: [file] } });
}

interface Uploads {
  /** Multipart requests that reached the server with a part named file. */
  requests: number;
  /** What the client put in its FormData under "file" (jsdom's File does not survive into msw's body: its bytes read as "undefined"). */
  files: { name: string; size: number }[];
}

/** POST import answered by answer (after wait ms), recording what was sent. */
function mockImport(answer: () => Response, wait = 0): Uploads {
  const u: Uploads = { requests: 0, files: [] };
  const append = FormData.prototype.append;
  vi.spyOn(FormData.prototype, 'append').mockImplementation(function (this: FormData, ...args: Parameters<FormData['append']>) {
    const [name, value] = args;
    if (name === 'file' && value instanceof File) u.files.push({ name: value.name, size: value.size });
    return append.apply(this, args);
  });
  server.use(
    http.post('*/api/bluebird-wms/material-in/import', async ({ request }) => {
      if ((await request.formData()).has('file')) u.requests++;
      if (wait) await delay(wait);
      return answer();
    }),
  );
  return u;
}

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('uploadImport', () => {
  it('reports the share of the bytes sent and reads the counts or the row errors', async () => {
    let refuse = false;
    mockImport(() =>
      refuse
        ? HttpResponse.json({ code: 400, success: false, msg: '第2行: x', data: [{ row: 2, field: 'amount', message: 'x' }] }, { status: 400 })
        : HttpResponse.json({ code: 200, success: true, msg: '', data: { inserted: 1, updated: 0 } }),
    );
    const seen: number[] = [];
    expect(await uploadImport(importable, xlsx(), (p) => seen.push(p))).toEqual({ ok: true, result: { inserted: 1, updated: 0 } });
    expect(seen.at(-1)).toBe(100);
    refuse = true;
    expect(await uploadImport(importable, xlsx(), () => undefined)).toEqual({ ok: false, message: '第2行: x', errors: [{ row: 2, field: 'amount', message: 'x' }] });
  });
});

describe('Excel import on the generic resource page', () => {
  beforeEach(async () => {
    await setLanguage('zh');
    useUserStore.setState({ permission: { ...allReceiptPermissions, material_in_import: true } });
  });

  it('shows the Import button only with the action and the import permission', async () => {
    mockReceipts();
    const { unmount } = renderWithProviders(<ResourceCrud meta={importable} />);
    await screen.findByText('MIN001');
    expect(within(toolbar()).getByRole('button', { name: /导\s*入/ })).toBeInTheDocument();
    unmount();

    useUserStore.setState({ permission: allReceiptPermissions });
    const second = renderWithProviders(<ResourceCrud meta={importable} />);
    await screen.findByText('MIN001');
    expect(within(toolbar()).queryByRole('button', { name: /导\s*入/ })).toBeNull();
    second.unmount();

    useUserStore.setState({ permission: { ...allReceiptPermissions, material_in_import: true } });
    renderWithProviders(<ResourceCrud meta={receiptMeta} />);
    await screen.findByText('MIN001');
    expect(within(toolbar()).queryByRole('button', { name: /导\s*入/ })).toBeNull();
  });

  it('uploads the chosen file with a progress bar, shows the counts and reloads the list', async () => {
    const calls = mockReceipts();
    const uploads = mockImport(() => HttpResponse.json({ code: 200, success: true, msg: '导入成功: 新增2条, 更新1条', data: { inserted: 2, updated: 1 } }), 300);
    renderWithProviders(<ResourceCrud meta={importable} />);
    await screen.findByText('MIN001');
    const listed = calls.list.length;
    await openAndChoose(xlsx());
    expect(within(dialog()).getByText('receipts.xlsx')).toBeInTheDocument();
    fireEvent.click(within(dialog()).getByRole('button', { name: /开始导入/ }));
    // msw reports the bytes sent only as it answers: until then the bar waits at 0
    expect(await within(dialog()).findByText('正在上传…')).toBeInTheDocument();
    expect(within(dialog()).getByRole('progressbar')).toHaveAttribute('aria-valuenow', '0');
    expect(await within(dialog()).findByText('导入成功: 新增2条, 更新1条')).toBeInTheDocument();
    expect(uploads.files).toEqual([{ name: 'receipts.xlsx', size: 2048 }]);
    expect(uploads.requests).toBe(1);
    expect(within(dialog()).queryByRole('progressbar')).toBeNull();
    await waitFor(() => expect(calls.list.length).toBeGreaterThan(listed));
  });

  it('lists every row error with its row, the field label and the message, and reloads nothing', async () => {
    const calls = mockReceipts();
    mockImport(() =>
      HttpResponse.json(
        {
          code: 400,
          success: false,
          msg: '第3行: 请输入仓库 (共3处错误)',
          data: [
            { row: 3, field: 'warehouseId', message: '请输入仓库' },
            { row: 7, field: 'amount', message: '金额最多2位小数' },
            { row: 12, field: '', message: '入库单号已存在' },
          ],
        },
        { status: 400 },
      ),
    );
    renderWithProviders(<ResourceCrud meta={importable} />);
    await screen.findByText('MIN001');
    await openAndChoose(xlsx());
    const listed = calls.list.length;
    fireEvent.click(within(dialog()).getByRole('button', { name: /开始导入/ }));
    const table = await errorTable();
    const rows = within(table).getAllByRole('row').slice(1).map((r) => within(r).getAllByRole('cell').map((c) => c.textContent));
    expect(rows).toEqual([
      ['3', '仓库', '请输入仓库'],
      ['7', '金额', '金额最多2位小数'],
      ['12', '-', '入库单号已存在'],
    ]);
    // the summary is the dialog's title of the errors (and the request layer's toast)
    expect(within(dialog()).getByText('第3行: 请输入仓库 (共3处错误)')).toBeInTheDocument();
    expect(within(dialog()).getByText('没有任何数据被导入, 请修改以下错误后重新导入')).toBeInTheDocument();
    expect(calls.list.length).toBe(listed);
  });

  it('refuses a file that is not an .xlsx or is too large before sending it', async () => {
    mockReceipts();
    const uploads = mockImport(() => HttpResponse.json({ code: 200, success: true, msg: '', data: { inserted: 0, updated: 0 } }));
    renderWithProviders(<ResourceCrud meta={importable} />);
    await screen.findByText('MIN001');
    await openAndChoose(new File(['a,b'], 'receipts.csv', { type: 'text/csv' }));
    expect(await screen.findByText('只能导入 .xlsx 格式的Excel文件')).toBeInTheDocument();
    fireEvent.change(dialog().querySelector('input[type=file]') as HTMLInputElement, { target: { files: [xlsx('big.xlsx', IMPORT_MAX_BYTES + 1)] } });
    expect(await screen.findByText('文件大小不能超过10MB')).toBeInTheDocument();
    expect(within(dialog()).getByRole('button', { name: /开始导入/ })).toBeDisabled();
    expect(uploads.files).toHaveLength(0);
  });

  it('downloads the template, named as the server names it', async () => {
    mockReceipts();
    // msw cannot answer a blob request under jsdom (its Blob is not undici's): the request layer is stubbed
    const realGet = request.get.bind(request);
    const get = vi.spyOn(request, 'get').mockImplementation(async (url: string, config?: Parameters<typeof request.get>[1]) => {
      if (!url.endsWith('/import-template')) return realGet(url, config);
      return {
        data: new Blob([new Uint8Array([80, 75, 3, 4])], { type: XLSX }),
        headers: { 'content-disposition': "attachment; filename*=UTF-8''%E7%89%A9%E6%96%99%E5%85%A5%E5%BA%93%E5%AF%BC%E5%85%A5%E6%A8%A1%E6%9D%BF.xlsx" },
        config,
      };
    });
    vi.stubGlobal('URL', Object.assign(URL, { createObjectURL: vi.fn(() => 'blob:template'), revokeObjectURL: vi.fn() }));
    const saved: string[] = [];
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      saved.push(`${this.download} ${this.href}`);
    });
    renderWithProviders(<ResourceCrud meta={importable} />);
    await screen.findByText('MIN001');
    fireEvent.click(within(toolbar()).getByRole('button', { name: /导\s*入/ }));
    fireEvent.click(await within(await screen.findByRole('dialog')).findByRole('button', { name: /下载导入模板/ }));
    await waitFor(() => expect(saved).toEqual(['物料入库导入模板.xlsx blob:template']));
    expect(get).toHaveBeenCalledWith('/api/bluebird-wms/material-in/import-template', { responseType: 'blob' });
  });

  it('speaks English when the language is en', async () => {
    await setLanguage('en');
    mockReceipts();
    mockImport(() =>
      HttpResponse.json({ code: 400, success: false, msg: 'Row 2: Please enter warehouse', data: [{ row: 2, field: 'warehouseId', message: 'Please enter warehouse' }] }, { status: 400 }),
    );
    renderWithProviders(<ResourceCrud meta={importable} />);
    await screen.findByText('MIN001');
    fireEvent.click(within(toolbar()).getByRole('button', { name: /Import$/ }));
    const input = (await screen.findByRole('dialog')).querySelector('input[type=file]') as HTMLInputElement;
    fireEvent.change(input, { target: { files: [xlsx()] } });
    fireEvent.click(within(dialog()).getByRole('button', { name: 'Import' }));
    const table = await errorTable();
    expect(within(table).getByText('Warehouse')).toBeInTheDocument();
    expect(within(table).getByRole('columnheader', { name: 'Row' })).toBeInTheDocument();
    expect(within(dialog()).getByRole('button', { name: /Download the template/ })).toBeInTheDocument();
  });
});
