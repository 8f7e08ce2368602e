import type { Dayjs } from 'dayjs';
import type { FieldMeta } from './types';

const TEXTUAL = new Set(['string', 'text', 'password']);

/** The query parameter of a search field: the plain name for the default match, else name_suffix. */
export function filterParam(field: FieldMeta): string {
  const f = (field.filter ?? '').toLowerCase();
  if (!f) return field.name;
  const textual = TEXTUAL.has(field.type);
  if ((textual && f === 'like') || (!textual && (f === 'equal' || f === 'eq'))) return field.name;
  return `${field.name}_${f}`;
}

export const isRangeField = (f: FieldMeta): boolean => f.type === 'date' || f.type === 'datetime';

export type SearchValues = Record<string, unknown>;

const isEmpty = (v: unknown): boolean =>
  v === undefined || v === null || (typeof v === 'string' && v.trim() === '') || (Array.isArray(v) && v.length === 0);

/**
 * Query parameters of a search: only non-empty values; a date range goes as
 * `<name>_dategt` / `<name>_datelt` (createTime_dategt, createTime_datelt).
 */
export function buildFilters(values: SearchValues, fields: FieldMeta[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const f of fields) {
    const v = values[f.name];
    if (isEmpty(v)) continue;
    if (isRangeField(f) && Array.isArray(v)) {
      const [from, to] = v as [Dayjs | null, Dayjs | null];
      if (from) out[`${f.name}_dategt`] = from.startOf('day').format('YYYY-MM-DD HH:mm:ss');
      if (to) out[`${f.name}_datelt`] = to.endOf('day').format('YYYY-MM-DD HH:mm:ss');
      continue;
    }
    if (typeof v === 'boolean') out[filterParam(f)] = v ? '1' : '0';
    else out[filterParam(f)] = typeof v === 'string' ? v.trim() : String(v);
  }
  return out;
}
