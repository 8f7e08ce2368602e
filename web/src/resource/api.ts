import request from '../api/request';
import type { Page, R } from '../api/types';
import type { DictItem, ResourceMeta, Row } from './types';

export const getResources = async (): Promise<ResourceMeta[]> =>
  (await request.get<R<ResourceMeta[]>>('/meta/resources')).data.data ?? [];

export const getResourceMeta = async (name: string): Promise<ResourceMeta> =>
  (await request.get<R<ResourceMeta>>('/meta/resource', { params: { name } })).data.data;

export type Filters = Record<string, string>;

export type ListPage = Page<Row> & { tree?: boolean };

/** A page of rows; a tree (non-paged) list answers with an array and is returned as one page marked tree. */
export async function listRows(
  meta: ResourceMeta,
  current: number,
  size: number,
  filters: Filters,
  sort?: { descs?: string; ascs?: string },
  endpointOverride?: string,
): Promise<ListPage> {
  const endpoint = endpointOverride ?? (meta.actions.includes('list') || !meta.actions.includes('page') ? 'list' : 'page');
  const { data } = await request.get<R<Page<Row> | Row[]>>(`${meta.path}/${endpoint}`, {
    params: { current, size, ...sort, ...filters },
  });
  const d = data.data;
  if (Array.isArray(d)) return { records: d, total: d.length, size: d.length, current: 1, pages: 1, tree: true };
  return d ?? { records: [], total: 0, size, current, pages: 0 };
}

/** Rows of a list endpoint for a select field's choices: the first 1000, from a page or an array. */
export async function getSelectRows(url: string): Promise<Row[]> {
  const { data } = await request.get<R<Page<Row> | Row[]>>(url, { params: { current: 1, size: 1000 } });
  const d = data.data;
  return Array.isArray(d) ? d : (d?.records ?? []);
}

export const getDetail = async (meta: ResourceMeta, id: string): Promise<Row> =>
  (await request.get<R<Row>>(`${meta.path}/detail`, { params: { id } })).data.data;

export const submitRow = async (meta: ResourceMeta, row: Row): Promise<R<unknown>> =>
  (await request.post<R<unknown>>(`${meta.path}/submit`, row)).data;

export const removeRows = async (meta: ResourceMeta, ids: string[]): Promise<R<unknown>> =>
  (await request.post<R<unknown>>(`${meta.path}/remove`, null, { params: { ids: ids.join(',') } })).data;

/** Excel export with the same filters; saves the xlsx the server sends. */
export async function exportRows(meta: ResourceMeta, filters: Filters, fallbackName: string): Promise<void> {
  const res = await request.get<Blob>(`${meta.path}/export`, { params: filters, responseType: 'blob' });
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

export const getDictionary = async (code: string, biz = false): Promise<DictItem[]> =>
  (await request.get<R<DictItem[]>>(`/blade-system/${biz ? 'dict-biz' : 'dict'}/dictionary`, { params: { code } })).data.data ?? [];

export interface TreeNode {
  id?: string;
  key?: string;
  value?: string;
  title?: string;
  name?: string;
  children?: TreeNode[];
}

export const getTree = async (url: string): Promise<TreeNode[]> => (await request.get<R<TreeNode[]>>(url)).data.data ?? [];
