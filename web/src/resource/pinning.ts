import { columnWidth } from './fields';
import type { FieldMeta, ResourceMeta } from './types';

/**
 * The most room the pinned list columns may take (the index and checkbox columns aside). A 1400 px window
 * leaves about 1100 px to the table and the action column takes up to 300 of it: past this, what scrolls
 * sideways under the pinned columns is too narrow to read.
 */
export const PIN_MAX_WIDTH = 500;

/** The row's name column is at least this wide: the names are what a user reads a list by (150 px cut most). */
export const NAME_WIDTH = 200;
/** Names declared at most this long are short enough for their own column width. */
export const SHORT_NAME = 20;

/**
 * The list fields that tell the rows apart: the resource's lookup code and label (what other resources pick
 * its rows by), or else its first two code-like columns (text or a reference), in list order.
 */
export function identityFields(meta: Pick<ResourceMeta, 'lookup'>, listFields: FieldMeta[]): string[] {
  const listed = new Set(listFields.map((f) => f.name));
  const lookup = [meta.lookup?.codeField, meta.lookup?.labelField].filter((n): n is string => Boolean(n) && listed.has(n!));
  if (lookup.length > 0) return lookup;
  return listFields.filter((f) => !f.joined && (f.type === 'string' || f.remote)).slice(0, 2).map((f) => f.name);
}

/**
 * How many leading list columns stay pinned to the left when the table scrolls sideways: those up to and
 * including the last identity column, in the declared order (a status before the code stays with it), as long
 * as they fit in PIN_MAX_WIDTH; none when the identity columns come too late (their order is the declaration's:
 * moving them would reorder the page), or when there are none.
 */
export function pinnedCount(meta: Pick<ResourceMeta, 'lookup'>, listFields: FieldMeta[], widthOf: (f: FieldMeta) => number): number {
  const ids = new Set(identityFields(meta, listFields));
  if (ids.size === 0) return 0;
  let last = -1;
  listFields.forEach((f, i) => {
    if (ids.has(f.name)) last = i;
  });
  const count = last + 1;
  const width = listFields.slice(0, count).reduce((n, f) => n + widthOf(f), 0);
  return width <= PIN_MAX_WIDTH ? count : 0;
}

/**
 * The width of each list column: what its field holds (columnWidth), and the row's name (the lookup's label, or
 * the last identity column) at least NAME_WIDTH, unless the field is declared short (at most SHORT_NAME characters: a person's
 * name, which a wide column only takes room from the others for).
 */
export function listColumnWidth(meta: Pick<ResourceMeta, 'lookup'>, listFields: FieldMeta[]): (f: FieldMeta) => number {
  const ids = identityFields(meta, listFields);
  // the lookup's label is the name (menus list their name before their code); else the last identity column
  const label = meta.lookup?.labelField;
  const name = label && ids.includes(label) ? label : ids.length > 1 ? ids[ids.length - 1] : undefined;
  return (f) => (f.name === name && f.type === 'string' && !(f.max && f.max <= SHORT_NAME) ? Math.max(NAME_WIDTH, columnWidth(f)) : columnWidth(f));
}
