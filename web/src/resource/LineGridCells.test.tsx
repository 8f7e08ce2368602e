import { describe, expect, it } from 'vitest';
import { http, HttpResponse } from 'msw';
import { screen } from '@testing-library/react';
import { server } from '../test/server';
import { expectConsole } from '../test/console';
import { ok, renderWithProviders } from '../test/utils';
import { Form } from 'antd';
import i18n from '../i18n';
import { cellInput, cellWidth, gridCells } from './LineGrid';
import { field } from './testMeta';
import type { Lines } from './types';

const t = i18n.t.bind(i18n);

const priceLines: Lines = {
  field: 'details',
  label: { zh: '供应商物料价格', en: 'Supplier prices' },
  meta: {
    name: 'supplierdetail', service: 'bluebird-basic', path: '/api/bluebird-basic/supplierdetail', menuCode: '', label: {}, actions: [], permissions: {},
    fields: [
      field({ name: 'id', type: 'id', form: false }),
      // the parent's id, declared without a ref: read-only, nothing to pick it with
      field({ name: 'supplierId', type: 'id', readonly: true }),
      field({ name: 'materialId', type: 'id', remote: { url: '/m', valueField: 'id', labelField: 'materialName', searchParam: 'keyword' } }),
      field({ name: 'currency', type: 'dict', dict: 'currency' }),
      field({ name: 'remark', type: 'text', max: 500 }),
    ],
  },
};

describe('the cells of a line grid', () => {
  it('leave out a read-only id nothing picks (the parent id the server fills)', () => {
    expect(gridCells(priceLines).map((f) => f.name)).toEqual(['materialId', 'currency', 'remark']);
  });

  it('draw a text field as one growing line, without placeholders', async () => {
    // jsdom lays nothing out: the growing text box measures a NaN height
    expectConsole(/`NaN` is an invalid value for the `height`/);
    server.use(http.get('*/api/blade-system/dict/dictionary', () => HttpResponse.json(ok([{ dictKey: 'CNY', dictValue: '人民币' }]))));
    const cells = gridCells(priceLines);
    const { container } = renderWithProviders(
      <Form>
        {cells.filter((f) => f.type !== 'id').map((f) => (
          <Form.Item key={f.name} name={f.name}>
            {cellInput(f, false, t, undefined)}
          </Form.Item>
        ))}
      </Form>,
    );
    await screen.findAllByRole('combobox');
    const area = container.querySelector('textarea') as HTMLTextAreaElement;
    expect(area.getAttribute('rows')).not.toBe('3');
    expect(container.querySelector('[placeholder]')).toBeNull();
    expect(container.querySelector('.ant-select-placeholder, .ant-select-selection-placeholder')?.textContent ?? '').toBe('');
  });

  it('give selects room for their arrow', () => {
    expect(cellWidth(field({ name: 'currency', type: 'dict', dict: 'currency' }))).toBeGreaterThanOrEqual(160);
  });
});
