import request from '../api/request';
import type { R } from '../api/types';
import type { TreeItem } from './tree';
import { getData, postQuery } from './common';

export const REGION_ROOT = '00';

export interface Region {
  code: string;
  parentCode: string;
  ancestors?: string;
  name: string;
  regionLevel: number;
  sort: number;
  remark?: string;
  hasChildren?: boolean;
}

/** One level of the region tree (lazy-tree?parentCode=), as tree items (leaves when no children). */
export async function regionLevel(parentCode: string): Promise<TreeItem[]> {
  const rows = await getData<(Region & { id: string; key: string; title: string })[]>('/blade-system/region/lazy-tree', { parentCode });
  return (rows ?? []).map((r) => ({ ...r, id: r.code, key: r.code, title: r.name, isLeaf: !r.hasChildren }));
}

export const regionDetail = (code: string) => getData<Region>('/blade-system/region/detail', { code });

/** Insert or update: a new region sends parentCode and its full code; an update only name, sort and remark. */
export function regionBody(v: { code: string; parentCode?: string; name: string; sort?: number; remark?: string }, isNew: boolean) {
  return isNew
    ? { code: v.code.trim(), parentCode: v.parentCode || REGION_ROOT, name: v.name, sort: v.sort, remark: v.remark ?? '' }
    : { code: v.code, name: v.name, sort: v.sort, remark: v.remark ?? '' };
}

export const submitRegion = async (body: ReturnType<typeof regionBody>) => (await request.post<R<Region>>('/blade-system/region/submit', body)).data;

export const removeRegion = (code: string) => postQuery('/blade-system/region/remove', { id: code });
