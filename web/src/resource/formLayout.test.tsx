import { beforeEach, describe, expect, it } from 'vitest';
import { http, HttpResponse } from 'msw';
import { fireEvent, screen } from '@testing-library/react';
import i18n, { setLanguage } from '../i18n';
import { server } from '../test/server';
import { ok, renderWithProviders } from '../test/utils';
import { useUserStore } from '../store/user';
import ResourceCrud, { searchWidth, SEARCH_MAX_WIDTH, WIDE_FORM_FIELDS } from './ResourceCrud';
import { field } from './testMeta';
import type { ResourceMeta } from './types';

const meta = (count: number): ResourceMeta => ({
  name: 'thing',
  service: 'bluebird-basic',
  path: '/api/bluebird-basic/thing',
  menuCode: 'thing',
  label: { zh: '东西', en: 'Thing' },
  paged: true,
  fields: [...Array.from({ length: count }, (_, i) => field({ name: `f${i}` })), field({ name: 'remark', type: 'text' })],
  actions: ['page', 'submit'],
  permissions: { add: 'thing_add' },
});

describe('search controls', () => {
  it('are as wide as their placeholder in English, between 180 px and SEARCH_MAX_WIDTH', async () => {
    const t = i18n.t.bind(i18n);
    const code = field({ name: 'supplierCode', label: { zh: '供应商编号', en: 'Supplier code' } });
    const status = field({ name: 'isEffective', type: 'dict', dict: 'effective_status', label: { zh: '生效状态', en: 'Effective status' } });
    await setLanguage('zh');
    expect(searchWidth(code, t)).toBe(180);
    expect(searchWidth(status, t)).toBe(180);
    await setLanguage('en');
    expect(searchWidth(code, t)).toBeGreaterThan(180);
    expect(searchWidth(status, t)).toBeGreaterThan(searchWidth(code, t));
    expect(searchWidth(field({ name: 'x', label: { en: 'A label long enough to be cut whatever the width' } }), t)).toBe(SEARCH_MAX_WIDTH);
    await setLanguage('zh');
  });
});

describe('the form dialog', () => {
  beforeEach(async () => {
    await setLanguage('zh');
    useUserStore.setState({ permission: { thing_add: true } });
    server.use(http.get('*/api/bluebird-basic/thing/page', () => HttpResponse.json(ok({ records: [], total: 0, size: 10, current: 1 }))));
  });

  const openAdd = async (m: ResourceMeta) => {
    renderWithProviders(<ResourceCrud meta={m} />);
    fireEvent.click(await screen.findByRole('button', { name: /新\s*增/ }));
    return screen.findByRole('dialog');
  };

  it('lays out a form of many fields in three columns in a wide dialog', async () => {
    const dialog = await openAdd(meta(WIDE_FORM_FIELDS + 1));
    expect(dialog.querySelectorAll('form .ant-col-lg-8')).toHaveLength(WIDE_FORM_FIELDS + 1);
    // the text field keeps the whole width
    expect(dialog.querySelectorAll('form .ant-col-md-24')).toHaveLength(1);
    expect((dialog.closest('.ant-modal') as HTMLElement).style.width).toBe('1160px');
  });

  it('keeps a short form in two columns', async () => {
    const dialog = await openAdd(meta(WIDE_FORM_FIELDS));
    expect(dialog.querySelectorAll('form .ant-col-lg-8')).toHaveLength(0);
    expect((dialog.closest('.ant-modal') as HTMLElement).style.width).toBe('860px');
  });
});
