import { useMemo, useState, type ReactNode } from 'react';
import { Button } from 'antd';
import { useTranslation } from 'react-i18next';
import { TreePanel } from './common';
import { filterTree, type TreeItem } from './tree';

/**
 * A searchable tree on the left choosing what the list on the right shows (users by department, scope
 * rules by menu). Clicking the chosen node again, or the "all" link beside the title, clears the choice.
 */
export default function TreeListLayout({
  title,
  tree,
  loading,
  selected,
  onSelect,
  titleRender,
  children,
}: {
  title: ReactNode;
  tree: TreeItem[] | undefined;
  loading?: boolean;
  selected?: string;
  onSelect: (key: string | undefined) => void;
  titleRender?: (node: TreeItem) => ReactNode;
  /** The list. */
  children: ReactNode;
}) {
  const { t } = useTranslation();
  const [text, setText] = useState('');
  const shown = useMemo(() => filterTree(tree ?? [], text), [tree, text]);
  return (
    <div className="bb-split">
      <div className="bb-split-side">
        <TreePanel
          title={
            <span>
              {title}
              {selected && (
                <Button type="link" size="small" onClick={() => onSelect(undefined)}>
                  {t('sys.all')}
                </Button>
              )}
            </span>
          }
          data={shown}
          loading={loading}
          selected={selected}
          onSelect={(k) => onSelect(k)}
          search={text}
          onSearch={setText}
          titleRender={titleRender}
        />
      </div>
      <div className="bb-split-main">{children}</div>
    </div>
  );
}
