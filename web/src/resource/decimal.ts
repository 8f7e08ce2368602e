import type { FieldMeta } from './types';

/*
 * Exact decimals travel as strings ("12.500000") and stay strings here: a float would turn
 * 0.1 + 0.2 into 0.30000000000000004 and lose the digits of large amounts. Comparisons and sums
 * work on BigInt counts of the smallest unit.
 */

export const isDecimalField = (f: FieldMeta): boolean => f.type === 'decimal' || f.valueType === 'decimal';

interface Parts {
  negative: boolean;
  whole: string;
  fraction: string;
}

const COMPLETE = /^([+-])?(\d+)(?:\.(\d*))?$|^([+-])?\.(\d+)$/;

function parts(text: string): Parts | undefined {
  const m = COMPLETE.exec(text.trim());
  if (!m) return undefined;
  const sign = m[1] ?? m[4];
  return { negative: sign === '-', whole: m[2] ?? '0', fraction: m[3] ?? m[5] ?? '' };
}

/** Whether the text is a decimal number ("-1", "2.50", ".5", "3."), not a prefix being typed ("-", "."). */
export const isDecimalText = (text: string): boolean => parts(text) !== undefined;

const units = (p: Parts, scale: number): bigint => {
  const n = BigInt(p.whole + p.fraction.padEnd(scale, '0'));
  return p.negative ? -n : n;
};

/** -1, 0 or 1 as a < b, a = b, a > b; both must be decimal texts. */
export function compareDecimal(a: string, b: string): number {
  const pa = parts(a);
  const pb = parts(b);
  if (!pa || !pb) throw new Error(`not decimals: ${a}, ${b}`);
  const scale = Math.max(pa.fraction.length, pb.fraction.length);
  const d = units(pa, scale) - units(pb, scale);
  return d < 0n ? -1 : d > 0n ? 1 : 0;
}

function fromUnits(n: bigint, scale: number): string {
  const negative = n < 0n;
  const digits = (negative ? -n : n).toString().padStart(scale + 1, '0');
  const whole = digits.slice(0, digits.length - scale);
  const text = scale > 0 ? `${whole}.${digits.slice(digits.length - scale)}` : whole;
  return negative ? `-${text}` : text;
}

/**
 * The value written with exactly `scale` fraction digits ("12.5" at 3: "12.500"), as the server
 * answers it. Digits beyond the scale are kept, never rounded away; anything not a decimal
 * (null, a half-typed "-") is returned as it is.
 */
export function formatDecimal(value: unknown, scale: number | undefined): string {
  if (value === null || value === undefined) return '';
  const text = String(value);
  const p = parts(text);
  if (!p) return text;
  const fraction = p.fraction.padEnd(scale ?? 0, '0');
  const whole = p.whole.replace(/^0+(?=\d)/, '');
  const zero = /^0*$/.test(whole + fraction);
  const body = fraction ? `${whole}.${fraction}` : whole;
  return p.negative && !zero ? `-${body}` : body;
}

/** The sum of the decimal texts among values (others are skipped), at `scale` fraction digits. */
export function sumDecimals(values: unknown[], scale = 0): string {
  const all = values.map((v) => (v === null || v === undefined ? undefined : parts(String(v)))).filter((p): p is Parts => p !== undefined);
  const digits = Math.max(scale, ...all.map((p) => p.fraction.length));
  const total = all.reduce((n, p) => n + units(p, digits), 0n);
  return formatDecimal(fromUnits(total, digits), scale);
}

/** Whether a decimal field may hold negative values: not positive and no non-negative minimum. */
export function allowsNegative(f: FieldMeta): boolean {
  if (f.positive) return false;
  return !(f.minValue !== undefined && isDecimalText(f.minValue) && compareDecimal(f.minValue, '0') >= 0);
}

/**
 * Whether the text can be typed into the field's input: digits, one point (none at scale 0),
 * a leading minus when negatives are allowed, at most `scale` fraction digits. Prefixes such as
 * "-" and "3." are accepted so the user can keep typing.
 */
export function acceptsTyping(f: FieldMeta, text: string): boolean {
  const scale = f.scale;
  const sign = allowsNegative(f) ? '-?' : '';
  const fraction = scale === 0 ? '' : `(\\.\\d{0,${scale ?? ''}})?`;
  return new RegExp(`^${sign}\\d*${fraction}$`).test(text);
}

export type DecimalProblem =
  | { key: 'decimalFormat' }
  | { key: 'decimalScale'; scale: number }
  | { key: 'decimalPositive' }
  | { key: 'decimalMin'; min: string }
  | { key: 'decimalMax'; max: string };

/** What is wrong with a decimal value, by the field's scale, positive, minValue and maxValue; undefined when empty or valid. */
export function decimalProblem(f: FieldMeta, value: unknown): DecimalProblem | undefined {
  if (value === null || value === undefined || value === '') return undefined;
  const text = String(value).trim();
  const p = parts(text);
  if (!p) return { key: 'decimalFormat' };
  if (f.scale !== undefined && p.fraction.replace(/0+$/, '').length > f.scale) return { key: 'decimalScale', scale: f.scale };
  if (f.positive && compareDecimal(text, '0') <= 0) return { key: 'decimalPositive' };
  if (f.minValue !== undefined && isDecimalText(f.minValue) && compareDecimal(text, f.minValue) < 0) return { key: 'decimalMin', min: f.minValue };
  if (f.maxValue !== undefined && isDecimalText(f.maxValue) && compareDecimal(text, f.maxValue) > 0) return { key: 'decimalMax', max: f.maxValue };
  return undefined;
}
