import type { AxiosResponse } from 'axios';
import request from '../api/request';
import type { Page, R } from '../api/types';
import type { Command, DictItem, Remote, ResourceMeta, Row } from './types';

export const getResources = async (): Promise<ResourceMeta[]> =>
  (await request.get<R<ResourceMeta[]>>('/meta/resources')).data.data ?? [];

export const getResourceMeta = async (name: string): Promise<ResourceMeta> =>
  (await request.get<R<ResourceMeta>>('/meta/resource', { params: { name } })).data.data;

export type Filters = Record<string, string>;

export type ListPage = Page<Row> & { tree?: boolean };

/** The address the table reads: an endpoint under the resource (list/page by default) or a view's own path. */
export function listUrl(meta: ResourceMeta, endpointOverride?: string): string {
  if (endpointOverride) return `${meta.path}/${endpointOverride}`;
  const view = meta.listView ? meta.views?.find((v) => v.name === meta.listView) : undefined;
  if (view) return view.path;
  return `${meta.path}/${meta.actions.includes('list') || !meta.actions.includes('page') ? 'list' : 'page'}`;
}

/** A page of rows; a tree (non-paged) list answers with an array and is returned as one page marked tree. */
export async function listRows(
  meta: ResourceMeta,
  current: number,
  size: number,
  filters: Filters,
  sort?: { descs?: string; ascs?: string },
  endpointOverride?: string,
): Promise<ListPage> {
  const { data } = await request.get<R<Page<Row> | Row[]>>(listUrl(meta, endpointOverride), {
    params: { current, size, ...sort, ...filters },
  });
  const d = data.data;
  if (Array.isArray(d)) return { records: d, total: d.length, size: d.length, current: 1, pages: 1, tree: true };
  return d ?? { records: [], total: 0, size, current, pages: 0 };
}

/** Rows per page of a remote search. */
export const REMOTE_PAGE_SIZE = 20;

/** One page of a remote search: `GET url?current=&size=20&<searchParam>=<text>` (no text: no parameter). */
export async function searchRemote(remote: Remote, text: string, current: number): Promise<Page<Row>> {
  const params: Record<string, string | number> = { current, size: REMOTE_PAGE_SIZE };
  if (text) params[remote.searchParam] = text;
  const { data } = await request.get<R<Page<Row> | Row[]>>(remote.url, { params });
  const d = data.data;
  if (Array.isArray(d)) return { records: d, total: d.length, size: d.length, current: 1, pages: 1 };
  return d ?? { records: [], total: 0, size: REMOTE_PAGE_SIZE, current, pages: 0 };
}

/** The row a reference field points to: `GET /api/<service>/<name>/detail?id=` of its `ref`. */
export const getRefRow = async (ref: string, id: string): Promise<Row> =>
  (await request.get<R<Row>>(`/api/${ref}/detail`, { params: { id } })).data.data;

/** Runs a command over rows: `POST path?ids=<comma ids>&<params>`; the answer's msg is for the user. */
export const runCommand = async (command: Command, ids: string[]): Promise<R<unknown>> =>
  (await request.post<R<unknown>>(command.path, null, { params: { ids: ids.join(','), ...command.params } })).data;

/** The next document number the tenant's code rule would give (shown, not reserved). */
export async function getCodePreview(bizType: string): Promise<string> {
  const { data } = await request.get<R<unknown>>('/api/bluebird-basic/coderulenew/preview', { params: { bizType } });
  const d = data.data;
  if (typeof d === 'string') return d;
  // {bizType, number, ruleId}; a bare string is taken as the number too.
  if (d && typeof d === 'object') return String((d as { number?: unknown }).number ?? '');
  return '';
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
  saveBlob(res, `${fallbackName}.xlsx`);
}

/** Saves a file answer (an export, a report's xlsx, generated code) under the name its Content-Disposition gives. */
export function saveBlob(res: AxiosResponse<Blob>, fallbackName: string): void {
  const cd = String(res.headers['content-disposition'] ?? '');
  const m = /filename\*=UTF-8''([^;]+)|filename="?([^";]+)"?/i.exec(cd);
  const name = m ? decodeURIComponent(m[1] ?? m[2]) : fallbackName;
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

/** A node of a resource's own tree (`GET path/tree`, `GET path/lazy-tree?parentId=`). */
export interface ResourceTreeNode extends TreeNode {
  parentId?: string;
  hasChildren?: boolean;
  children?: ResourceTreeNode[];
}

/** The whole tree; params narrow it as they narrow the list (a tree's own filter may read them). */
export const getResourceTree = async (meta: ResourceMeta, params: Filters): Promise<ResourceTreeNode[]> =>
  (await request.get<R<ResourceTreeNode[]>>(`${meta.path}/tree`, { params })).data.data ?? [];

/** One level of the tree: the children of parentId (0: the roots), each saying whether it has children. */
export const getResourceTreeLevel = async (meta: ResourceMeta, parentId: string, params: Filters): Promise<ResourceTreeNode[]> =>
  (await request.get<R<ResourceTreeNode[]>>(`${meta.path}/lazy-tree`, { params: { ...params, parentId } })).data.data ?? [];
