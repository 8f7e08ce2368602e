import { useCallback, useMemo, useState, type Key } from 'react';
import { useQueries } from '@tanstack/react-query';
import { getResourceTree, getResourceTreeLevel, listRows, type Filters, type ListPage, type ResourceTreeNode } from './api';
import type { ResourceMeta, Row, TreeSpec } from './types';

/*
 * A tree resource's table. The tree endpoints answer nodes (id, parentId, title, hasChildren,
 * children), not rows, so each node is filled with its row from the list: one list request beside
 * the tree, or one per level for a lazy tree. A node whose row the list did not answer (beyond its
 * 1000 rows) shows its title in the label column.
 */

/** Rows read beside the tree to fill its nodes (the server's page size limit). */
const ROWS_PER_TREE = 1000;

type Sort = { descs?: string; ascs?: string };

const nodeId = (n: ResourceTreeNode): string => String(n.id ?? n.value ?? n.key ?? '');

const byId = (rows: Row[]): Map<string, Row> => new Map(rows.map((r) => [String(r.id), r]));

function nodeRow(n: ResourceTreeNode, tree: TreeSpec, rows: Map<string, Row>): Row {
  const id = nodeId(n);
  return rows.get(id) ?? { id, [tree.parentField]: n.parentId, [tree.labelField]: n.title ?? n.name };
}

function toRows(nodes: ResourceTreeNode[], tree: TreeSpec, rows: Map<string, Row>): Row[] {
  return nodes.map((n) => {
    const row = nodeRow(n, tree, rows);
    return n.children?.length ? { ...row, children: toRows(n.children, tree, rows) } : row;
  });
}

const asPage = (records: Row[]): ListPage => ({ records, total: records.length, size: records.length, current: 1, pages: 1, tree: true });

/** The whole tree (`GET path/tree`), its nodes filled with the list's rows. */
export async function loadWholeTree(meta: ResourceMeta, tree: TreeSpec, fixed: Filters, sort: Sort): Promise<ListPage> {
  const [nodes, list] = await Promise.all([getResourceTree(meta, fixed), listRows(meta, 1, ROWS_PER_TREE, fixed, sort)]);
  return asPage(toRows(nodes, tree, byId(list.records)));
}

/**
 * One level of a lazy tree (`GET path/lazy-tree?parentId=`), filled with the list's rows of that
 * parent. A node with children gets an empty children array, which the table draws as an expander.
 */
export async function loadTreeLevel(meta: ResourceMeta, tree: TreeSpec, parentId: string, fixed: Filters, sort: Sort): Promise<Row[]> {
  const [nodes, list] = await Promise.all([
    getResourceTreeLevel(meta, parentId, fixed),
    listRows(meta, 1, ROWS_PER_TREE, { ...fixed, [tree.parentField]: parentId }, sort),
  ]);
  const rows = byId(list.records);
  return nodes.map((n) => ({ ...nodeRow(n, tree, rows), ...(n.hasChildren ? { children: [] } : {}) }));
}

/** The root level of a lazy tree, as a page. */
export const loadTreeRoot = async (meta: ResourceMeta, tree: TreeSpec, fixed: Filters, sort: Sort): Promise<ListPage> =>
  asPage(await loadTreeLevel(meta, tree, '0', fixed, sort));

function attach(rows: Row[], levels: Map<string, Row[]>): Row[] {
  return rows.map((r) => {
    const kids = levels.get(String(r.id));
    return kids ? { ...r, children: attach(kids, levels) } : r;
  });
}

/**
 * The expanded levels of a lazy tree table: expanding a row loads its children (cached under the
 * resource's query key, so a reload refreshes them too); `withChildren` puts them under their rows.
 */
export function useLazyTreeLevels(meta: ResourceMeta, tree: TreeSpec | undefined, queryKey: readonly unknown[], fixed: Filters, sort: Sort) {
  const [expanded, setExpanded] = useState<string[]>([]);
  const levels = useQueries({
    queries: (tree?.lazy ? expanded : []).map((id) => ({
      queryKey: [...queryKey, 'lazy-level', id, fixed, sort],
      queryFn: () => loadTreeLevel(meta, tree!, id, fixed, sort),
    })),
    combine: (results) => results.map((r) => r.data),
  });
  const loaded = useMemo(() => {
    const m = new Map<string, Row[]>();
    levels.forEach((rows, i) => rows && m.set(expanded[i], rows));
    return m;
  }, [levels, expanded]);
  const withChildren = useCallback((rows: Row[]) => attach(rows, loaded), [loaded]);
  const onExpandedChange = useCallback((keys: readonly Key[]) => setExpanded(keys.map(String)), []);
  return { expanded, onExpandedChange, withChildren };
}
