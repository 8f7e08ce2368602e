import request from '../../api/request';
import type { Page, R } from '../../api/types';

/** A named count of a chart. */
export interface Count {
  name: string;
  value: number;
}

const get = async <T>(url: string, params?: Record<string, unknown>): Promise<T> => (await request.get<R<T>>(url, { params })).data.data;

interface DeptRow {
  id: string;
  deptName: string;
  children?: DeptRow[];
}

/** Departments of the top two levels (the list answers the tree). */
export function topDepts(tree: DeptRow[], max = 12): DeptRow[] {
  const out: DeptRow[] = [];
  tree.forEach((d) => {
    out.push(d);
    (d.children ?? []).forEach((c) => out.push(c));
  });
  return out.slice(0, max);
}

/** Users per department (each count includes the department's children, as the user page filters). */
export async function usersPerDept(): Promise<Count[]> {
  const depts = topDepts(await get<DeptRow[]>('/blade-system/dept/list'));
  return Promise.all(
    depts.map(async (d) => ({ name: d.deptName, value: (await get<Page<unknown>>('/blade-user/page', { deptId: d.id, current: 1, size: 1 })).total ?? 0 })),
  );
}

interface MenuRow {
  id: string;
  parentId?: string;
  category?: number;
  children?: MenuRow[];
}

/** Menus (category 1) in a subtree, the root included. */
export function countMenus(node: MenuRow): number {
  const self = node.category === undefined || Number(node.category) === 1 ? 1 : 0;
  return self + (node.children ?? []).reduce((n, c) => n + countMenus(c), 0);
}

/** Menus bound to each top menu: the bound roots (top-tree-keys) and every menu under them. */
export async function menusPerTopMenu(): Promise<Count[]> {
  const [tops, tree] = await Promise.all([get<{ id: string; name: string }[]>('/blade-system/menu/top-menu'), get<MenuRow[]>('/blade-system/menu/list')]);
  const byId = new Map<string, MenuRow>();
  const index = (nodes: MenuRow[]) =>
    nodes.forEach((n) => {
      byId.set(String(n.id), n);
      index(n.children ?? []);
    });
  index(tree ?? []);
  return Promise.all(
    (tops ?? []).map(async (tm) => {
      const keys = (await get<string[]>('/blade-system/menu/top-tree-keys', { topMenuIds: tm.id })) ?? [];
      const roots = keys.map((k) => byId.get(String(k))).filter((n): n is MenuRow => n !== undefined);
      // Count each bound root's subtree once; bound keys nested in another bound root are inside it.
      const rootSet = new Set(keys.map(String));
      const top = roots.filter((n) => !hasBoundAncestor(n, rootSet, byId));
      return { name: tm.name, value: top.reduce((n, r) => n + countMenus(r), 0) };
    }),
  );
}

function hasBoundAncestor(n: MenuRow & { parentId?: string }, bound: Set<string>, byId: Map<string, MenuRow & { parentId?: string }>): boolean {
  let p = n.parentId ? byId.get(String(n.parentId)) : undefined;
  while (p) {
    if (bound.has(String(p.id))) return true;
    p = p.parentId ? byId.get(String(p.parentId)) : undefined;
  }
  return false;
}

interface DictNode {
  title: string;
  children?: DictNode[];
}

/** Entries per system dictionary code (dict/tree), largest first; every code. */
export async function dictCounts(): Promise<Count[]> {
  const tree = (await get<DictNode[]>('/blade-system/dict/tree')) ?? [];
  return tree
    .map((d) => ({ name: d.title, value: (d.children ?? []).length }))
    .sort((a, b) => b.value - a.value);
}

/** Users per role (the user page's roleName lists a user's roles, comma-joined). */
export async function usersPerRole(): Promise<Count[]> {
  const page = await get<Page<{ roleName?: string }>>('/blade-user/page', { current: 1, size: 200 });
  const m = new Map<string, number>();
  (page.records ?? []).forEach((u) =>
    (u.roleName || '-')
      .split(',')
      .filter(Boolean)
      .forEach((r) => m.set(r, (m.get(r) ?? 0) + 1)),
  );
  return [...m.entries()].map(([name, value]) => ({ name, value }));
}

/** All users of the tenant (the page's total). */
export async function userTotal(): Promise<number> {
  return (await get<Page<unknown>>('/blade-user/page', { current: 1, size: 1 })).total ?? 0;
}

/** A warehouse's material stock value (materialstock/valueByWarehouse): exact decimals as strings. */
export interface WarehouseValue {
  warehouseId: string;
  warehouseName: string;
  qty: string;
  amount: string;
}

/** Stock value per warehouse, largest first; a warehouse without a name shows its id. */
export async function stockValueByWarehouse(): Promise<WarehouseValue[]> {
  const rows = (await get<WarehouseValue[]>('/bluebird-basic/materialstock/valueByWarehouse')) ?? [];
  return rows.map((r) => ({ ...r, warehouseName: r.warehouseName || r.warehouseId }));
}
