import { describe, expect, it, vi } from 'vitest';
import i18n from '../i18n';
import { columnWidth, fieldRules, formDefaults, headerWidth, HEADER_MAX_WIDTH } from './fields';
import type { FieldMeta } from './types';
import { prefetch, take, clearPrefetch } from '../store/prefetch';

type Validator = (rule: unknown, value: unknown) => Promise<void>;
const check = (f: FieldMeta, v: unknown) => (fieldRules(f, i18n.t.bind(i18n))[0] as { validator: Validator }).validator({}, v);

describe('required rules of the generic form', () => {
  const sort: FieldMeta = { name: 'sort', type: 'int', label: { zh: '排序' }, required: true, messages: { required: { zh: '请输入排序' } } };
  const sealed: FieldMeta = { name: 'isSealed', type: 'dict', dict: 'yes_no', label: { zh: '封存' }, required: true, messages: { required: { zh: '请选择封存' } } };

  it('accept numbers, 0 included, for numeric and dictionary fields', async () => {
    await expect(check(sort, 99)).resolves.toBeUndefined();
    await expect(check(sealed, 0)).resolves.toBeUndefined();
    await expect(check(sealed, '1')).resolves.toBeUndefined();
  });

  it('reject empty values with the metadata message', async () => {
    await expect(check(sort, undefined)).rejects.toThrow('请输入排序');
    await expect(check(sealed, null)).rejects.toThrow('请选择封存');
    await expect(check(sealed, '')).rejects.toThrow('请选择封存');
  });

  it('keep the whitespace check of text fields', () => {
    const rules = fieldRules({ name: 'paramName', type: 'string', label: { zh: '参数名称' }, required: true }, i18n.t.bind(i18n));
    expect(rules[0]).toMatchObject({ required: true, whitespace: true });
  });
});

describe('requests started ahead of their consumer', () => {
  it('hands the started request to its consumer, else makes a new one', async () => {
    clearPrefetch();
    let calls = 0;
    const fn = () => Promise.resolve(++calls);
    prefetch('k', fn);
    expect(await take('k', fn)).toBe(1);
    expect(await take('other', fn)).toBe(2);
    clearPrefetch();
    expect(await take('k', fn)).toBe(3);
  });
});

describe('column widths', () => {
  it('sizes a column by what the field holds', () => {
    const w = (over: Partial<FieldMeta>) => columnWidth({ name: 'x', type: 'string', label: {}, ...over } as FieldMeta);
    expect(w({ type: 'dict' })).toBeLessThan(w({}));
    expect(w({ type: 'datetime' })).toBe(170);
    expect(w({ max: 11 })).toBeLessThan(w({ max: 64 }));
    expect(w({ type: 'text' })).toBeGreaterThan(w({ max: 64 }));
  });
});

describe('the add form starts from the declared defaults', () => {
  const label = { zh: 'x' };
  it('gives each form field its default in the type its control holds', () => {
    const fields: FieldMeta[] = [
      { name: 'isEffective', type: 'dict', dict: 'effective_status', valueType: 'int', label, default: '2' },
      { name: 'sort', type: 'int', valueType: 'int', label, default: '10' },
      { name: 'batchManaged', type: 'bool', valueType: 'bool', label, default: 'true' },
      { name: 'currency', type: 'string', valueType: 'string', label, default: 'CNY' },
      { name: 'rate', type: 'decimal', valueType: 'decimal', label, default: '0.13' },
      { name: 'hidden', type: 'int', valueType: 'int', label, default: '1', form: false },
      { name: 'locked', type: 'string', label, default: 'x', readonly: true },
      { name: 'none', type: 'string', label },
    ];
    expect(formDefaults(fields)).toEqual({ isEffective: '2', sort: 10, batchManaged: true, currency: 'CNY', rate: '0.13' });
  });

  it('starts a date declared today as the day the form opens', () => {
    vi.useFakeTimers({ now: new Date(2026, 10, 27, 23, 30), toFake: ['Date'] });
    try {
      const fields: FieldMeta[] = [
        { name: 'docDate', type: 'date', valueType: 'datetime', label, default: 'today' },
        { name: 'at', type: 'datetime', valueType: 'datetime', label, default: 'today' },
      ];
      expect(formDefaults(fields)).toEqual({ docDate: '2026-11-27', at: '2026-11-27 23:30:00' });
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('column headers', () => {
  it('widen a column to its label, with the sort arrows, up to HEADER_MAX_WIDTH', () => {
    const status: FieldMeta = { name: 'isEffective', type: 'dict', label: { zh: '生效状态', en: 'Effective status' } };
    expect(columnWidth(status)).toBe(100); // zh: four characters fit the status column
    expect(headerWidth({ ...status, label: { zh: 'Effective status' } })).toBeGreaterThan(100);
    expect(columnWidth({ ...status, label: { zh: 'Effective status' } })).toBe(headerWidth({ ...status, label: { zh: 'Effective status' } }));
    const code: FieldMeta = { name: 'code', type: 'string', max: 40, label: { zh: 'Warehouse code' } };
    expect(headerWidth({ ...code, sortable: true })).toBe(headerWidth(code) + 26);
    expect(columnWidth({ ...code, label: { zh: 'A very long English column label that goes on' } })).toBe(HEADER_MAX_WIDTH);
  });
});
