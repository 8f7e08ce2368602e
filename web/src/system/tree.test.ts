import { describe, expect, it } from 'vitest';
import { checkInPart, filterTree, keysToSave, leafKeys, menuRowsToTree, splitIds, type TreeItem } from './tree';
import { grantBody, initialGrantKeys } from './RoleGrantDialog';

const n = (key: string, children?: TreeItem[]): TreeItem => ({ id: key, key, title: key, children });

// desk ─ notice ─ (add, edit)        system ─ user ─ (user_add)
//                                            └ dept
const menu: TreeItem[] = [n('desk', [n('notice', [n('add'), n('edit')])]), n('system', [n('user', [n('user_add')]), n('dept')])];

describe('grant tree keys', () => {
  it('opens with only the leaves of the held keys checked, so a held parent does not check all its children', () => {
    // The server holds system and user (ancestors) and user_add; dept is not granted.
    expect(leafKeys(menu, ['system', 'user', 'user_add'])).toEqual(['user_add']);
    expect(leafKeys(menu, ['desk', 'notice', 'add', 'edit'])).toEqual(['add', 'edit']);
    expect(leafKeys(menu, ['unknown'])).toEqual([]);
  });

  it('saves the checked nodes plus their fully and half checked ancestors, in tree order', () => {
    expect(keysToSave(menu, ['user_add'])).toEqual(['system', 'user', 'user_add']);
    expect(keysToSave(menu, ['edit', 'dept'])).toEqual(['desk', 'notice', 'edit', 'system', 'dept']);
    expect(keysToSave(menu, [])).toEqual([]);
    expect(keysToSave(menu, ['gone'])).toEqual([]);
  });

  it('merges a tick made in a filtered part of the tree into the whole', () => {
    // Filter "dept": system ─ dept shown. Ticking dept makes the tree call system checked too.
    const shown = filterTree(menu, 'dept');
    expect(checkInPart(menu, shown, ['add', 'edit', 'user_add'], ['system', 'dept'])).toEqual(['add', 'edit', 'user_add', 'dept']);
    // Unticking it again leaves what is outside the filter.
    expect(checkInPart(menu, shown, ['add', 'dept'], [])).toEqual(['add']);
  });

  it('round-trips what the server holds', () => {
    const held = ['desk', 'notice', 'add', 'system', 'user', 'user_add'];
    expect(keysToSave(menu, leafKeys(menu, held))).toEqual(held);
  });

  it('builds the role grant body from the three trees', () => {
    const trees = { menu, dataScope: [n('m1', [n('rule1'), n('rule2')])], apiScope: [] };
    const keys = initialGrantKeys(trees, { menu: ['system', 'user', 'user_add'], dataScope: ['m1', 'rule2'] });
    expect(keys).toEqual({ menu: ['user_add'], dataScope: ['rule2'], apiScope: [] });
    expect(grantBody(['r1', 'r2'], trees, { ...keys, menu: [...keys.menu, 'dept'] })).toEqual({
      roleIds: ['r1', 'r2'],
      menuIds: ['system', 'user', 'user_add', 'dept'],
      dataScopeIds: ['m1', 'rule2'],
      apiScopeIds: [],
    });
  });
});

describe('tree helpers', () => {
  it('splits comma id lists, dropping empties and the root 0', () => {
    expect(splitIds('1, 2,,3')).toEqual(['1', '2', '3']);
    expect(splitIds('0')).toEqual([]);
    expect(splitIds(undefined)).toEqual([]);
    expect(splitIds(['4', 5])).toEqual(['4', '5']);
  });

  it('filters by title, keeping the ancestors of matches', () => {
    expect(filterTree(menu, 'USER_')).toEqual([{ ...menu[1], children: [{ ...menu[1].children![0], children: [n('user_add')] }] }]);
    expect(filterTree(menu, '')).toBe(menu);
    expect(filterTree(menu, 'zzz')).toEqual([]);
  });

  it('keeps only menus (not buttons) of menu/list rows', () => {
    const rows = [{ id: '1', name: '系统', code: 'system', category: 1, children: [{ id: '2', name: '新增', code: 'x_add', category: 2 }, { id: '3', name: '用户', code: 'user', category: 1, children: [] }] }];
    const tree = menuRowsToTree(rows);
    expect(tree).toHaveLength(1);
    expect(tree[0].children?.map((c) => c.title)).toEqual(['用户']);
    expect(tree[0].children?.[0].children).toBeUndefined();
  });

  it('titles menu/list rows in the UI language, falling back to the zh name', () => {
    const rows = [{ id: '1', name: '系统', nameEn: 'System', category: 1, children: [{ id: '3', name: '用户', nameEn: '', category: 1 }] }];
    expect(menuRowsToTree(rows, 'en').map((n) => [n.title, n.children?.[0].title])).toEqual([['System', '用户']]);
    expect(menuRowsToTree(rows).map((n) => n.title)).toEqual(['系统']);
  });
});
