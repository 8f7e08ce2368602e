/**
 * Tag colours of dictionary values (spec §4):
 * - quotation status: 0 red;
 * - product stock state and yes/no: 1 red, 2 blue;
 * - ready state: 1 red, 2 orange;
 * - status values: 1, 4, 5 red, 2 orange.
 * Rules are matched on the dictionary code (or field name); the first match wins.
 */
const RULES: { test: RegExp; colors: Record<string, string> }[] = [
  { test: /quotation/i, colors: { '0': 'red' } },
  { test: /(yes_?no|stock_?state|productStockState|is_?yes)/i, colors: { '1': 'red', '2': 'blue' } },
  { test: /ready/i, colors: { '1': 'red', '2': 'orange' } },
  { test: /status/i, colors: { '1': 'red', '4': 'red', '5': 'red', '2': 'orange' } },
];

export function dictTagColor(dictCode: string, fieldName: string, key: unknown): string | undefined {
  const k = key === null || key === undefined ? '' : String(key);
  for (const r of RULES) {
    if (r.test.test(dictCode) || r.test.test(fieldName)) return r.colors[k];
  }
  return undefined;
}
