import { RequestError } from '../api/request';

/** The field errors of a refused request: the body's `data` as `{field: message}` (lines as `details[3].qty`). */
export function fieldErrorsOf(err: unknown): Record<string, string> | undefined {
  if (!(err instanceof RequestError)) return undefined;
  const d = (err.response?.data as { data?: unknown } | undefined)?.data;
  if (!d || typeof d !== 'object' || Array.isArray(d)) return undefined;
  const out = Object.fromEntries(Object.entries(d).filter((e): e is [string, string] => typeof e[1] === 'string'));
  return Object.keys(out).length > 0 ? out : undefined;
}

export interface FormError {
  name: (string | number)[];
  errors: string[];
}

const LINE_KEY = /^([A-Za-z_$][\w$]*)\[(\d+)\](?:\.([A-Za-z_$][\w$]*))?$/;

/**
 * Where each field error shows in the form: `name` under that field; `details[3].qty` under the
 * qty cell of the fourth line, or under the line itself when qty has no cell; `details` under the
 * grid (of whichever line set, a plan's `materials[0].materialId` as well). Errors naming nothing in the form are left to the toast that already showed the message.
 */
export function formErrors(
  errors: Record<string, string>,
  fields: Set<string>,
  lineSets?: { field: string; cells: Set<string> } | { field: string; cells: Set<string> }[],
): FormError[] {
  const sets = lineSets === undefined ? [] : Array.isArray(lineSets) ? lineSets : [lineSets];
  const byName = new Map<string, FormError>();
  const put = (name: (string | number)[], message: string) => {
    const key = JSON.stringify(name);
    const e = byName.get(key) ?? { name, errors: [] };
    e.errors.push(message);
    byName.set(key, e);
  };
  for (const [key, message] of Object.entries(errors)) {
    const m = LINE_KEY.exec(key);
    const lines = sets.find((l) => l.field === (m ? m[1] : key));
    if (lines && m) {
      const index = Number(m[2]);
      put(m[3] && lines.cells.has(m[3]) ? [lines.field, index, m[3]] : [lines.field, index], message);
    } else if (lines) put([lines.field], message);
    else if (fields.has(key)) put([key], message);
  }
  return [...byName.values()];
}
