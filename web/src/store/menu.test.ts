import { describe, expect, it } from 'vitest';
import type { MenuNode } from '../api/user';
import { findMenuByPath, flattenButtons, formatMenu, isExternal, leafMenus, menuAncestors, searchMenus } from './menu';

const tree: MenuNode[] = [
  {
    id: '1', code: 'system', name: '系统管理', path: '/system', sort: 2,
    children: [
      { id: '11', code: 'param', name: '参数管理', path: '/system/param', category: 1 },
      { id: '12', code: 'user', name: 'User admin', path: '/system/user', category: 1 },
    ],
  },
  { id: '2', code: 'report', name: '报表管理', path: '/report/reportlist', sort: 1 },
  { id: '3', code: 'ext', name: 'Docs', path: 'https://example.test/docs', sort: 3 },
  { id: '4', code: 'secret', name: 'Secret', path: '/secret', sort: 4, meta: { roles: ['administrator'] } },
];

describe('menus', () => {
  it('suffixes top-level leaves with /index, sorts, and filters by roles', () => {
    const m = formatMenu(tree, ['user']);
    expect(m.map((x) => x.path)).toEqual(['/report/reportlist/index', '/system', 'https://example.test/docs']);
    expect(m[1].children?.map((x) => x.path)).toEqual(['/system/param', '/system/user']);
    expect(formatMenu(tree, ['administrator']).map((x) => x.code)).toContain('secret');
  });

  it('finds entries by path with or without /index', () => {
    const m = formatMenu(tree, []);
    expect(findMenuByPath(m, '/report/reportlist/index')?.code).toBe('report');
    expect(findMenuByPath(m, '/system/param')?.code).toBe('param');
    expect(findMenuByPath(m, '/system/param/index')?.code).toBe('param');
    expect(findMenuByPath(m, '/system')).toBeUndefined();
    expect(menuAncestors(m, '/system/user')).toEqual(['/system']);
  });

  it('searches leaf entries by case-insensitive name prefix', () => {
    const m = formatMenu(tree, []);
    expect(searchMenus(m, '参数').map((x) => x.code)).toEqual(['param']);
    expect(searchMenus(m, 'user').map((x) => x.code)).toEqual(['user']);
    expect(searchMenus(m, 'admin')).toEqual([]);
    expect(searchMenus(m, '系统')).toEqual([]);
    expect(searchMenus(m, '  ')).toEqual([]);
    expect(leafMenus(m)).toHaveLength(4);
  });

  it('turns button leaf codes into the permission map', () => {
    const buttons: MenuNode[] = [
      { id: '1', code: 'param', name: 'p', path: '', children: [
        { id: '2', code: 'param_add', name: 'a', path: '' },
        { id: '3', code: 'param_delete', name: 'd', path: '' },
      ] },
    ];
    expect(flattenButtons(buttons)).toEqual({ param_add: true, param_delete: true });
  });

  it('recognises external paths', () => {
    expect(isExternal('https://x.test')).toBe(true);
    expect(isExternal('/report/a.html')).toBe(true);
    expect(isExternal('/system/param')).toBe(false);
  });
});
