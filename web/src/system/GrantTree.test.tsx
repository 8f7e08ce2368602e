import { beforeEach, describe, expect, it } from 'vitest';
import { useState } from 'react';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { renderWithProviders } from '../test/utils';
import { setLanguage } from '../i18n';
import GrantTree from './GrantTree';
import { keysToSave, type TreeItem } from './tree';

const node = (id: string, title: string, children?: TreeItem[]): TreeItem => ({ id, key: id, value: id, title, children });
const TREE = [
  node('sys', '系统管理', [
    node('param', '参数管理', [node('param_add', '新增参数'), node('param_view', '查看参数')]),
    node('post', '岗位管理', [node('post_add', '新增岗位')]),
    node('user', '用户管理'),
  ]),
];

function Harness({ onKeys }: { onKeys: (k: string[]) => void }) {
  const [checked, setChecked] = useState<string[]>([]);
  return (
    <GrantTree
      tree={TREE}
      checked={checked}
      onChange={(k) => {
        setChecked(k);
        onKeys(k);
      }}
    />
  );
}

// A node's checkbox is labelled by its tree item, whose name starts with the switcher icon's label.
const box = (title: string) => new RegExp(`(^| )${title}$`);
const tick = (title: string) => fireEvent.click(screen.getByRole('checkbox', { name: box(title) }));

describe('grant tree', () => {
  beforeEach(async () => {
    await setLanguage('zh');
  });

  it('keeps ticks made under different filters and does not fully check a partly shown parent', async () => {
    let keys: string[] = [];
    renderWithProviders(<Harness onKeys={(k) => (keys = k)} />);
    const filter = screen.getByPlaceholderText('输入关键字过滤');

    fireEvent.change(filter, { target: { value: '查看参数' } });
    await screen.findByRole('checkbox', { name: box('查看参数') });
    tick('查看参数');
    expect(keys).toEqual(['param_view']);

    fireEvent.change(filter, { target: { value: '岗位' } });
    await screen.findByRole('checkbox', { name: box('岗位管理') });
    tick('岗位管理');
    // 系统管理 looked fully checked in the filtered tree (岗位管理 was its only shown child); it is not.
    expect([...keys].sort()).toEqual(['param_view', 'post_add']);
    expect(keysToSave(TREE, keys)).toEqual(['sys', 'param', 'param_view', 'post', 'post_add']);

    fireEvent.change(filter, { target: { value: '' } });
    await waitFor(() => expect(screen.getByRole('checkbox', { name: box('系统管理') })).toHaveAttribute('aria-checked', 'mixed'));
  });

  it('unticks inside a filter without touching what is outside it', async () => {
    let keys: string[] = [];
    renderWithProviders(<Harness onKeys={(k) => (keys = k)} />);
    tick('系统管理');
    expect(keysToSave(TREE, keys)).toHaveLength(7);
    fireEvent.change(screen.getByPlaceholderText('输入关键字过滤'), { target: { value: '参数' } });
    await screen.findByRole('checkbox', { name: box('新增参数') });
    tick('新增参数');
    expect([...keys].sort()).toEqual(['param_view', 'post_add', 'user']);
  });
});
