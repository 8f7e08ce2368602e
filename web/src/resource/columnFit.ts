import { getStore, setStore } from '../util/storage';
import { headerWidth } from './fields';
import type { FieldMeta } from './types';

/**
 * Which columns of a list are shown (spec §2 data screens at every screen size, issue #13 defect 3): the
 * columns fit the width the table has. Each column has a priority; the ones that do not fit are left out, lowest
 * priority first, and listed unticked in the column chooser. What the user ticks or unticks there wins over the
 * fit and is kept per user and per table; when what the user asked for is wider than the table, the table
 * scrolls sideways under a visible scrollbar.
 */

/** A column as the fit sees it. */
export interface FitColumn {
  key: string;
  /** The width it is drawn at when there is room. */
  width: number;
  /** The narrowest it may be drawn at (default: width) when the room is short. */
  min?: number;
  /** Lower is more important; columns without one are kept whatever the width (the checkbox, the actions). */
  priority?: number;
}

/** What the user chose in the chooser: columns shown, or hidden, whatever the width. */
export interface ColumnChoice {
  shown: string[];
  hidden: string[];
}

export const EMPTY_CHOICE: ColumnChoice = { shown: [], hidden: [] };

/** Priorities: the columns a row is told apart by, then the declared order, then what is read least. */
export const PRIORITY = {
  identity: 0,
  /** Dictionary and yes/no columns (a status, a kind); the declared order adds its index. */
  state: 100,
  /** The declared order adds its index to this. */
  normal: 200,
  /** Long text, remarks, timestamps and ids: still reachable through the chooser. */
  low: 1000,
  /** The row number: the first to go. */
  index: 10000,
} as const;

/** How much narrower than its width a column of text may be drawn when the room is short (ellipsis shows the rest on hover). */
export const COMPACT = 0.75;

/** The narrowest a field's column is drawn at: text gives a quarter of its width, never below its header; the rest none. */
export function compactWidth(f: FieldMeta, width: number): number {
  const text = f.type === 'string' || f.type === 'text' || Boolean(f.remote);
  return text ? Math.min(width, Math.max(headerWidth(f), Math.round(width * COMPACT))) : width;
}

/** Fields read least in a list: long text, remarks, timestamps, bare ids and pictures. */
const isLowField = (f: FieldMeta): boolean =>
  f.type === 'text' || Boolean(f.multiline) || f.type === 'datetime' || f.type === 'image' || (f.type === 'id' && !f.remote) || /remark|desc/i.test(f.name);

/** The priority of the list column of a field, the `index`th in the declared order. */
export function fieldPriority(f: FieldMeta, index: number, identity: ReadonlySet<string>): number {
  if (identity.has(f.name)) return PRIORITY.identity + index;
  // states and kinds are read at a glance and narrow: right after the identity
  if (f.type === 'dict' || f.type === 'bool') return PRIORITY.state + index;
  return (isLowField(f) ? PRIORITY.low : PRIORITY.normal) + index;
}

/**
 * The keys of the columns shown in `available` pixels: every column without a priority and every column the
 * user asked for; then, by priority (and declared order among equals), each other column that still fits. A
 * column that does not fit is skipped and a narrower one of lower priority may still take the room left. The
 * most important column is shown even when nothing fits.
 */
export function fitColumns(columns: FitColumn[], available: number, choice: ColumnChoice = EMPTY_CHOICE): Set<string> {
  const shown = new Set<string>();
  const least = (c: FitColumn) => Math.min(c.width, c.min ?? c.width);
  let used = 0;
  for (const c of columns) {
    if (choice.hidden.includes(c.key) && c.priority !== undefined) continue;
    if (c.priority === undefined || choice.shown.includes(c.key)) {
      shown.add(c.key);
      used += least(c);
    }
  }
  const rest = columns
    .map((c, i) => ({ c, i }))
    .filter(({ c }) => c.priority !== undefined && !shown.has(c.key) && !choice.hidden.includes(c.key))
    .sort((a, b) => a.c.priority! - b.c.priority! || a.i - b.i);
  const anyChosen = columns.some((c) => c.priority !== undefined && shown.has(c.key));
  rest.forEach(({ c }, n) => {
    if (used + least(c) <= available || (n === 0 && !anyChosen)) {
      shown.add(c.key);
      used += least(c);
    }
  });
  return shown;
}

/**
 * The widths of the shown columns in `available` pixels: each its width when they all fit, else each narrowed
 * towards its minimum, in proportion to how much it can give, until they fit (or all are at their minimum: the
 * table then scrolls sideways).
 */
export function fitWidths(columns: FitColumn[], available: number): Map<string, number> {
  const total = columns.reduce((n, c) => n + c.width, 0);
  const slack = columns.reduce((n, c) => n + c.width - Math.min(c.width, c.min ?? c.width), 0);
  const over = total - available;
  const ratio = over <= 0 || slack === 0 ? 0 : Math.min(1, over / slack);
  return new Map(columns.map((c) => [c.key, Math.floor(c.width - (c.width - Math.min(c.width, c.min ?? c.width)) * ratio)]));
}

/** The storage name of a table's column choice: per user and per table. */
export const choiceKey = (userId: string, table: string): string => `columns:${userId || 'anonymous'}:${table}`;

export function loadChoice(userId: string, table: string): ColumnChoice {
  const c = getStore<Partial<ColumnChoice>>(choiceKey(userId, table));
  return { shown: Array.isArray(c?.shown) ? c.shown : [], hidden: Array.isArray(c?.hidden) ? c.hidden : [] };
}

export function saveChoice(userId: string, table: string, choice: ColumnChoice): void {
  setStore(choiceKey(userId, table), choice);
}

/** The choice after the user ticks (on) or unticks a column. */
export function toggleChoice(choice: ColumnChoice, key: string, on: boolean): ColumnChoice {
  const shown = choice.shown.filter((k) => k !== key);
  const hidden = choice.hidden.filter((k) => k !== key);
  return on ? { shown: [...shown, key], hidden } : { shown, hidden: [...hidden, key] };
}
