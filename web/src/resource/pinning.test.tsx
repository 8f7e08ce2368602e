import { beforeEach, describe, expect, it } from 'vitest';
import { http, HttpResponse } from 'msw';
import { screen } from '@testing-library/react';
import { server } from '../test/server';
import { ok, renderWithProviders } from '../test/utils';
import { setLanguage } from '../i18n';
import { useUserStore } from '../store/user';
import ResourceCrud from './ResourceCrud';
import { columnWidth } from './fields';
import { identityFields, listColumnWidth, NAME_WIDTH, pinnedCount, PIN_MAX_WIDTH } from './pinning';
import { field } from './testMeta';
import type { ResourceMeta } from './types';

const status = field({ name: 'status', type: 'dict', dict: 'audit_status', form: false, label: { zh: '审核状态', en: 'Audit status' } });
const code = field({ name: 'materialCode', max: 40, label: { zh: '物料编号', en: 'Material code' } });
const name = field({ name: 'materialName', max: 128, label: { zh: '物料名称', en: 'Material name' } });
const spec = field({ name: 'spec', max: 128, label: { zh: '规格', en: 'Specification' } });
const price = field({ name: 'referencePrice', type: 'decimal', valueType: 'decimal', scale: 4, label: { zh: '参考价', en: 'Reference price' } });
const lookup = { url: '/api/bluebird-basic/material/page', labelField: 'materialName', codeField: 'materialCode', searchParam: 'keyword' };

describe('the columns pinned to the left', () => {
  it('are the lookup code and label, with what is declared before them', () => {
    expect(identityFields({ lookup }, [status, code, name, spec])).toEqual(['materialCode', 'materialName']);
    expect(pinnedCount({ lookup }, [status, code, name, spec, price], columnWidth)).toBe(3);
    // the label comes first in the list: still the two of them
    expect(pinnedCount({ lookup }, [name, code, spec], columnWidth)).toBe(2);
  });

  it('without a lookup are the first two text or reference columns', () => {
    const item = field({ name: 'itemId', type: 'id', remote: { ...lookup, valueField: 'id' } });
    const kind = field({ name: 'itemKind', type: 'dict', dict: 'item_kind' });
    const joined = field({ name: 'brandName', joined: true });
    expect(identityFields({}, [status, joined, code, name, spec])).toEqual(['materialCode', 'materialName']);
    expect(identityFields({}, [status, kind, item, price])).toEqual(['itemId']);
    expect(pinnedCount({}, [status, kind, item, price], columnWidth)).toBe(3);
  });

  it('are none when there is nothing to tell the rows by or the columns before it are too wide', () => {
    expect(pinnedCount({}, [status, price], columnWidth)).toBe(0);
    // a lookup whose fields are not listed: the first text column
    expect(identityFields({ lookup }, [status, spec, price])).toEqual(['spec']);
    const wide = [field({ name: 'a', type: 'text' }), field({ name: 'b', type: 'text' }), code, name];
    expect(wide.reduce((n, f) => n + columnWidth(f), 0)).toBeGreaterThan(PIN_MAX_WIDTH);
    expect(pinnedCount({ lookup }, wide, columnWidth)).toBe(0);
  });
});

const materials: ResourceMeta = {
  name: 'material',
  service: 'bluebird-basic',
  path: '/api/bluebird-basic/material',
  menuCode: 'material',
  label: { zh: '物料', en: 'Material' },
  paged: true,
  fields: [status, code, name, spec, price],
  actions: ['page', 'detail', 'submit', 'remove'],
  permissions: { add: 'material_add', edit: 'material_edit', delete: 'material_delete', view: 'material_view' },
  lookup,
};

describe('a wide list', () => {
  beforeEach(async () => {
    await setLanguage('zh');
    useUserStore.setState({ permission: { material_add: true, material_edit: true, material_delete: true, material_view: true } });
    server.use(
      http.get('*/api/bluebird-basic/material/page', () =>
        HttpResponse.json(ok({ records: [{ id: '1', status: 1, materialCode: 'M1', materialName: 'bolt', spec: 'M8', referencePrice: '1.0000' }], total: 1, size: 10, current: 1 })),
      ),
      http.get('*/api/blade-system/dict/dictionary', () => HttpResponse.json(ok([{ dictKey: '1', dictValue: '待提交' }]))),
    );
  });

  it('keeps the checkbox, #, status, code and name on the left and the actions on the right', async () => {
    renderWithProviders(<ResourceCrud meta={materials} />);
    await screen.findByText('bolt');
    const header = (text: string) => screen.getAllByRole('columnheader').find((th) => th.textContent === text)!;
    for (const title of ['#', '审核状态', '物料编号', '物料名称']) expect(header(title).className).toMatch(/ant-table-cell-fix-(left|start)/);
    for (const title of ['规格', '参考价']) expect(header(title).className).not.toMatch(/ant-table-cell-fix/);
    expect(header('操作').className).toMatch(/ant-table-cell-fix-(right|end)/);
    const checkboxHeader = document.querySelector('thead .ant-table-selection-column') as HTMLElement;
    expect(checkboxHeader.className).toMatch(/ant-table-cell-fix-(left|start)/);
  });
});

describe('the row name column', () => {
  it('is at least NAME_WIDTH wide; the other columns keep their width', () => {
    const width = listColumnWidth({ lookup }, [status, code, name, spec]);
    expect(width(name)).toBe(NAME_WIDTH);
    expect(width(code)).toBe(columnWidth(code));
    expect(width(spec)).toBe(columnWidth(spec));
    // with it the material's status, code and name still fit the pinned room
    expect(pinnedCount({ lookup }, [status, code, name, spec], width)).toBe(3);
  });

  it('is the lookup label when the name is listed before the code (menus), and a short declared name keeps its width', () => {
    const width = listColumnWidth({ lookup }, [name, code, spec]);
    expect(width(name)).toBe(NAME_WIDTH);
    expect(width(code)).toBe(columnWidth(code));
    const person = field({ name: 'realName', max: 10, label: { zh: '姓名', en: 'Name' } });
    const account = field({ name: 'account', max: 45, label: { zh: '账号', en: 'Account' } });
    expect(listColumnWidth({}, [account, person])(person)).toBe(columnWidth(person));
  });
});
