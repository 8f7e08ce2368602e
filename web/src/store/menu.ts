import type { MenuNode } from '../api/user';

/** Paths ending in html or starting with http(s) open in the embedded page (spec §2). */
export const isExternal = (path: string): boolean => /^https?:\/\//i.test(path) || /\.html?$/i.test(path);

const normalize = (p: string): string => (p.startsWith('/') || isExternal(p) ? p : `/${p}`);

/** Top-level leaf menus get an /index suffix (spec §2, BladeX addPath). */
export function formatMenu(list: MenuNode[], roles: string[] = []): MenuNode[] {
  const visit = (node: MenuNode, first: boolean): MenuNode | null => {
    const allowed = node.meta?.roles;
    if (allowed && allowed.length > 0 && !allowed.some((r) => roles.includes(r))) return null;
    const children = (node.children ?? [])
      .filter((c) => c.category === undefined || Number(c.category) === 1)
      .map((c) => visit(c, false))
      .filter((c): c is MenuNode => c !== null);
    let path = normalize(node.path || '');
    if (children.length === 0 && first && !isExternal(path) && !/\/index$/.test(path)) path = `${path}/index`;
    return { ...node, path, children };
  };
  return [...list]
    .sort((a, b) => (a.sort ?? 0) - (b.sort ?? 0))
    .map((n) => visit(n, true))
    .filter((n): n is MenuNode => n !== null);
}

/** Leaf entries of a menu tree. */
export function leafMenus(list: MenuNode[]): MenuNode[] {
  const out: MenuNode[] = [];
  const walk = (nodes: MenuNode[]) =>
    nodes.forEach((n) => (n.children && n.children.length > 0 ? walk(n.children) : out.push(n)));
  walk(list);
  return out;
}

/** Menu search: leaf entries whose name starts with the text, case-insensitive. */
export function searchMenus(list: MenuNode[], text: string): MenuNode[] {
  const q = text.trim().toLowerCase();
  if (!q) return [];
  return leafMenus(list).filter((m) => m.name.toLowerCase().startsWith(q));
}

/** Button permission map: every leaf code becomes true. */
export function flattenButtons(list: MenuNode[]): Record<string, boolean> {
  const out: Record<string, boolean> = {};
  const walk = (nodes: MenuNode[]) =>
    nodes.forEach((n) => {
      if (n.children && n.children.length > 0) walk(n.children);
      else if (n.code) out[n.code] = true;
    });
  walk(list);
  return out;
}

const stripIndex = (p: string): string => p.replace(/\/index$/, '') || '/';

/** The menu entry of a route path (with or without the /index suffix). */
export function findMenuByPath(list: MenuNode[], path: string): MenuNode | undefined {
  const want = stripIndex(path);
  let found: MenuNode | undefined;
  const walk = (nodes: MenuNode[]) => {
    for (const n of nodes) {
      if (found) return;
      if (stripIndex(n.path) === want && (!n.children || n.children.length === 0)) {
        found = n;
        return;
      }
      if (n.children) walk(n.children);
    }
  };
  walk(list);
  return found;
}

/** Ancestors (submenu keys) of a path, for opening the side menu at the active entry. */
export function menuAncestors(list: MenuNode[], path: string): string[] {
  const want = stripIndex(path);
  const trail: string[] = [];
  const walk = (nodes: MenuNode[], stack: string[]): boolean => {
    for (const n of nodes) {
      if (n.children && n.children.length > 0) {
        if (walk(n.children, [...stack, n.path])) return true;
      } else if (stripIndex(n.path) === want) {
        trail.push(...stack);
        return true;
      }
    }
    return false;
  };
  walk(list, []);
  return trail;
}
