/** A node of the server's select trees: `{id, parentId, title, value, key, children}`. */
export interface TreeItem {
  id: string;
  parentId?: string;
  title: string;
  value?: string;
  key: string;
  hasChildren?: boolean;
  isLeaf?: boolean;
  children?: TreeItem[];
  [k: string]: unknown;
}

/** A comma-separated id string (or a list) as a list of non-empty ids. */
export function splitIds(v: unknown): string[] {
  if (Array.isArray(v)) return v.map(String).filter(Boolean);
  if (v === null || v === undefined) return [];
  return String(v)
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s && s !== '0');
}

/** Every key of a tree, depth first. */
export function allKeys(tree: TreeItem[]): string[] {
  const out: string[] = [];
  const walk = (nodes: TreeItem[]) =>
    nodes.forEach((n) => {
      out.push(String(n.key ?? n.id));
      if (n.children) walk(n.children);
    });
  walk(tree);
  return out;
}

/**
 * The keys to show as checked in a conducted (parent-child linked) tree: only the leaves among the
 * keys the server holds. The server stores parents too (a half-checked parent is still granted); given
 * to the tree as checked, a parent would check all its children.
 */
export function leafKeys(tree: TreeItem[], keys: string[]): string[] {
  const want = new Set(keys.map(String));
  const out: string[] = [];
  const walk = (nodes: TreeItem[]) =>
    nodes.forEach((n) => {
      const k = String(n.key ?? n.id);
      if (n.children && n.children.length > 0) walk(n.children);
      else if (want.has(k)) out.push(k);
    });
  walk(tree);
  return out;
}

/**
 * The keys to save: every checked node plus every ancestor of one (fully or half checked), in tree
 * order. Keys not in the tree are dropped.
 */
export function keysToSave(tree: TreeItem[], checked: string[]): string[] {
  const want = new Set(checked.map(String));
  const keep = new Set<string>();
  const walk = (nodes: TreeItem[]): boolean => {
    let any = false;
    nodes.forEach((n) => {
      const k = String(n.key ?? n.id);
      const below = n.children && n.children.length > 0 ? walk(n.children) : false;
      if (below || want.has(k)) {
        keep.add(k);
        any = true;
      }
    });
    return any;
  };
  walk(tree);
  return allKeys(tree).filter((k) => keep.has(k));
}

/**
 * The checked keys after a tick in a conducted tree that shows only `shown` (a filtered part of `tree`).
 * The tree component knows the shown nodes only: it reports none of the keys outside them, and it calls
 * an ancestor shown with one matching branch fully checked. So: keep the earlier keys outside the shown
 * nodes, take the tree's answer for the shown ones, and keep leaves only (the conduction of the whole
 * tree derives its parents again).
 */
export function checkInPart(tree: TreeItem[], shown: TreeItem[], before: string[], reported: string[]): string[] {
  const inPart = new Set(allKeys(shown));
  return leafKeys(tree, [...before.filter((k) => !inPart.has(k)), ...reported]);
}

/** The subtree of nodes whose title contains the text (case-insensitive), with their ancestors. */
export function filterTree(tree: TreeItem[], text: string): TreeItem[] {
  const q = text.trim().toLowerCase();
  if (!q) return tree;
  const visit = (nodes: TreeItem[]): TreeItem[] =>
    nodes.flatMap((n) => {
      const kids = n.children ? visit(n.children) : [];
      if (String(n.title ?? '').toLowerCase().includes(q)) return [{ ...n }];
      return kids.length > 0 ? [{ ...n, children: kids }] : [];
    });
  return visit(tree);
}

/** Finds a node by key. */
export function findNode(tree: TreeItem[], key: string): TreeItem | undefined {
  for (const n of tree) {
    if (String(n.key ?? n.id) === key) return n;
    const f = n.children ? findNode(n.children, key) : undefined;
    if (f) return f;
  }
  return undefined;
}

/** Replaces the children of one node (lazy trees). */
export function setChildren(tree: TreeItem[], key: string, children: TreeItem[]): TreeItem[] {
  return tree.map((n) => {
    if (String(n.key) === key) return { ...n, children, isLeaf: children.length === 0 };
    if (n.children) return { ...n, children: setChildren(n.children, key, children) };
    return n;
  });
}

/** Menu rows (menu/list) to tree items, keeping only menus (category 1), not buttons; titled in the UI language (nameEn in en). */
export function menuRowsToTree(rows: Record<string, unknown>[], lang: 'zh' | 'en' = 'zh'): TreeItem[] {
  return rows
    .filter((r) => r.category === undefined || Number(r.category) === 1)
    .map((r) => {
      const kids = Array.isArray(r.children) ? menuRowsToTree(r.children as Record<string, unknown>[], lang) : [];
      return {
        id: String(r.id),
        key: String(r.id),
        value: String(r.id),
        title: String((lang === 'en' && r.nameEn) || r.name || ''),
        code: r.code,
        source: r.source,
        children: kids.length > 0 ? kids : undefined,
      };
    });
}
