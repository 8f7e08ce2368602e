import { wireValues } from './fields';
import type { FieldMeta, Lines, ResourceMeta, Row } from './types';

/**
 * Whether the screen is a phone's (antd's xs): there the master/detail dialog opens maximised (its
 * 400 px minimum would stick out) and the line grid's actions scroll with the line instead of
 * keeping a third of the width to themselves.
 */
export const isPhone = (): boolean => typeof window !== 'undefined' && Boolean(window.matchMedia?.('(max-width: 575px)').matches);

/** The fields of a line drawn as cells of the line grid: form fields, not joined columns. */
export const lineCells = (lines: Lines): FieldMeta[] => lines.meta.fields.filter((f) => f.form !== false && !f.joined);

/**
 * The lines of a submit: each line's cells in their wire types, with its id and version when it is
 * a stored line (it is updated; a line without id is inserted, a stored line left out is removed).
 */
export function linesBody(lines: Lines, rows: Row[] | undefined): Row[] {
  const cells = lineCells(lines);
  return (rows ?? []).map((line) => {
    const out: Row = {};
    if (line.id !== undefined && line.id !== null && line.id !== '') out.id = String(line.id);
    if (line.version !== undefined) out.version = line.version;
    for (const f of cells) if (f.name in line) out[f.name] = line[f.name];
    return wireValues(cells, out);
  });
}

/** A new line copied from another: its cells and joined labels, not its identity. */
export function copyLine(line: Row | undefined): Row {
  const { id: _id, version: _version, ...rest } = line ?? {};
  return rest;
}

/**
 * The lines of a resource as its form edits them: the line field holding the parent's id (the one
 * referring to the parent resource, a code rule segment's ruleId) is not a cell. The server fills it
 * when it saves the lines with their parent; a new parent has no id to type.
 */
export function editableLines(meta: ResourceMeta, lines: Lines | undefined = meta.lines): Lines | undefined {
  if (!lines) return undefined;
  const parent = `${meta.service}/${meta.name}`;
  if (!lines.meta.fields.some((f) => f.ref === parent && f.form !== false)) return lines;
  return { ...lines, meta: { ...lines.meta, fields: lines.meta.fields.map((f) => (f.ref === parent ? { ...f, form: false } : f)) } };
}

/** The further line sets of a resource (metadata extraLines: a plan's required materials), as its form edits them. */
export const editableExtraLines = (meta: ResourceMeta): Lines[] =>
  (meta.extraLines ?? []).map((l) => editableLines(meta, l)).filter((l): l is Lines => Boolean(l));
