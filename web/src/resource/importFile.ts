import request, { RequestError } from '../api/request';
import type { R } from '../api/types';
import type { ResourceMeta } from './types';

/** The server's limits of an import (internal/resource/import.go): checked here first to spare an upload. */
export const IMPORT_MAX_BYTES = 10 << 20;
export const IMPORT_MAX_ROWS = 50000;

/** One problem of a refused import: Excel row number (the header is row 1), the field's name ('' for the row or file). */
export interface ImportError {
  row: number;
  field: string;
  message: string;
}

export interface ImportResult {
  inserted: number;
  updated: number;
}

/** The answer to an upload: the counts, or the server's summary and every error it listed. */
export type ImportOutcome = { ok: true; result: ImportResult } | { ok: false; message: string; errors: ImportError[] };

/** Why a chosen file is not sent: only .xlsx, at most IMPORT_MAX_BYTES. */
export function importFileProblem(file: File): 'type' | 'size' | 'empty' | undefined {
  if (!/\.xlsx$/i.test(file.name)) return 'type';
  if (file.size === 0) return 'empty';
  if (file.size > IMPORT_MAX_BYTES) return 'size';
  return undefined;
}

/**
 * Uploads the file to `POST <path>/import` as the multipart field `file`. onProgress gets the share of the
 * bytes sent (0-100); the server answers once every row is checked and saved. A refusal with a list of
 * row errors resolves as such (the request layer has already shown its summary); anything else rejects.
 */
export async function uploadImport(meta: ResourceMeta, file: File, onProgress: (percent: number) => void): Promise<ImportOutcome> {
  const body = new FormData();
  body.append('file', file);
  try {
    const { data } = await request.post<R<ImportResult>>(`${meta.path}/import`, body, {
      // A large file is checked and saved in one transaction: the default timeout is too short for that.
      timeout: 10 * 60 * 1000,
      onUploadProgress: (e) => {
        if (e.total) onProgress(Math.min(100, Math.round((e.loaded / e.total) * 100)));
      },
    });
    return { ok: true, result: data.data };
  } catch (e) {
    const answer = e instanceof RequestError ? (e.response?.data as R<unknown> | undefined) : undefined;
    if (answer && Array.isArray(answer.data)) {
      return { ok: false, message: answer.msg, errors: answer.data as ImportError[] };
    }
    throw e;
  }
}

/** Downloads the import template (`GET <path>/import-template`), named as the server names it. */
export async function downloadImportTemplate(meta: ResourceMeta, fallbackName: string): Promise<void> {
  const res = await request.get<Blob>(`${meta.path}/import-template`, { responseType: 'blob' });
  const cd = String(res.headers['content-disposition'] ?? '');
  const m = /filename\*=UTF-8''([^;]+)|filename="?([^";]+)"?/i.exec(cd);
  const name = m ? decodeURIComponent(m[1] ?? m[2]) : `${fallbackName}.xlsx`;
  const url = URL.createObjectURL(res.data);
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}
