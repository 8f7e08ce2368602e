import { describe, expect, it } from 'vitest';
import i18n from '../i18n';
import { acceptsTyping, compareDecimal, decimalProblem, formatDecimal, sumDecimals } from './decimal';
import { fieldRules, wireValues } from './fields';
import { field } from './testMeta';

const qty = field({ name: 'qty', type: 'decimal', valueType: 'decimal', scale: 3, positive: true, label: { zh: '数量', en: 'Quantity' } });
const delta = field({ name: 'delta', type: 'decimal', valueType: 'decimal', scale: 2, minValue: '-10', maxValue: '99.5', label: { zh: '差额', en: 'Delta' } });

describe('exact decimals', () => {
  it('writes values at their scale without rounding through floats', () => {
    expect(formatDecimal('12.5', 3)).toBe('12.500');
    expect(formatDecimal('007', 2)).toBe('7.00');
    expect(formatDecimal('-0', 2)).toBe('0.00');
    expect(formatDecimal('123456789012345678.12', 2)).toBe('123456789012345678.12');
    expect(formatDecimal(null, 2)).toBe('');
  });

  it('compares and sums as decimals: 0.1 + 0.2 is 0.3, and big amounts keep every digit', () => {
    expect(sumDecimals(['0.1', '0.2'], 1)).toBe('0.3');
    expect(sumDecimals(['9007199254740993.01', '1.00', null, ''], 2)).toBe('9007199254740994.01');
    expect(sumDecimals(['-1.5', '0.25'], 2)).toBe('-1.25');
    expect(sumDecimals([], 3)).toBe('0.000');
    expect(compareDecimal('2.10', '2.1')).toBe(0);
    expect(compareDecimal('-3', '2.999')).toBe(-1);
  });

  it('accepts typing of digits, one point, the scale and a minus only where negatives are allowed', () => {
    expect(acceptsTyping(qty, '12.345')).toBe(true);
    expect(acceptsTyping(qty, '12.3456')).toBe(false);
    expect(acceptsTyping(qty, '1.2.3')).toBe(false);
    expect(acceptsTyping(qty, '-1')).toBe(false);
    expect(acceptsTyping(qty, '1e5')).toBe(false);
    expect(acceptsTyping(delta, '-')).toBe(true);
    expect(acceptsTyping(field({ name: 'n', type: 'decimal', scale: 0 }), '3.')).toBe(false);
  });

  it('checks positive, minValue and maxValue with messages in the current language', async () => {
    expect(decimalProblem(qty, '0.000')).toEqual({ key: 'decimalPositive' });
    expect(decimalProblem(delta, '-10.01')).toEqual({ key: 'decimalMin', min: '-10' });
    expect(decimalProblem(delta, '99.50')).toBeUndefined();
    const validate = (f: typeof qty, v: string) =>
      (fieldRules(f, i18n.t.bind(i18n)).at(-1) as { validator: (r: unknown, v: unknown) => Promise<void> }).validator({}, v);
    await i18n.changeLanguage('zh');
    await expect(validate(qty, '0')).rejects.toThrow('数量必须大于0');
    await expect(validate(delta, '100')).rejects.toThrow('差额不能大于99.5');
    await i18n.changeLanguage('en');
    await expect(validate(delta, '-11')).rejects.toThrow('Delta must be at least -10');
    await i18n.changeLanguage('zh');
  });

  it('sends decimals as strings, null when empty', () => {
    expect(wireValues([qty, delta], { qty: '1.500', delta: '' })).toEqual({ qty: '1.500', delta: null });
  });
});
