import { useMemo, useState } from 'react';
import { Empty, Input, Tree } from 'antd';
import { useTranslation } from 'react-i18next';
import { allKeys, checkInPart, filterTree, type TreeItem } from './tree';

/**
 * A checkable tree with parent-child conduction and a filter box. `checked` holds what the tree shows
 * as checked (leaves and fully checked parents); the caller saves keysToSave(tree, checked), which adds
 * the half-checked ancestors.
 */
export default function GrantTree({
  tree,
  checked,
  onChange,
  disabled,
  height = 420,
}: {
  tree: TreeItem[];
  checked: string[];
  onChange: (keys: string[]) => void;
  disabled?: boolean;
  height?: number;
}) {
  const { t } = useTranslation();
  const [text, setText] = useState('');
  const shown = useMemo(() => filterTree(tree, text), [tree, text]);
  // The tree is told only the keys it holds: a filtered-out key would make it warn, and shows nothing.
  const shownChecked = useMemo(() => {
    const inTree = new Set(allKeys(shown));
    return checked.filter((k) => inTree.has(k));
  }, [shown, checked]);
  return (
    <div className="bb-grant-tree">
      <Input.Search allowClear size="small" placeholder={t('sys.filter')} value={text} onChange={(e) => setText(e.target.value)} style={{ marginBottom: 8 }} />
      {shown.length === 0 ? (
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} />
      ) : (
        <Tree<TreeItem>
          checkable
          selectable={false}
          disabled={disabled}
          defaultExpandAll={Boolean(text)}
          key={text ? `f-${text}` : 'all'}
          height={height}
          treeData={shown}
          checkedKeys={shownChecked}
          onCheck={(keys) => {
            const list = (Array.isArray(keys) ? keys : keys.checked).map(String);
            // While filtered, the tree sees only part of the nodes: merge its answer into the whole.
            onChange(text ? checkInPart(tree, shown, checked, list) : list);
          }}
        />
      )}
    </div>
  );
}
