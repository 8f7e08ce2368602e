import { useMemo, useState } from 'react';
import { Button } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import ResourceCrud from '../resource/ResourceCrud';
import MenuIcon from '../components/MenuIcon';
import { getData, TreePanel, WithMeta } from './common';
import { filterTree, findNode, menuRowsToTree, type TreeItem } from './tree';

/** Scope rules are attached to a menu: the list parameters and the defaults of a new rule. */
export function scopeParams(menuId?: string) {
  return { menuId: menuId || undefined };
}
export function scopeDefaults(menu?: TreeItem, kind?: 'data' | 'api') {
  if (!menu) return kind === 'data' ? { scopeType: 1 } : {};
  const code = typeof menu.code === 'string' ? menu.code : '';
  return kind === 'data' ? { menuId: menu.id, resourceCode: code, scopeType: 1 } : { menuId: menu.id, resourceCode: code, scopeType: 1 };
}

/** Data scope or API scope: choose a menu on the left, its rules on the right. */
export function ScopeScreen({ code, kind }: { code: 'data_scope' | 'api_scope'; kind: 'data' | 'api' }) {
  const { t, i18n } = useTranslation();
  const [menuId, setMenuId] = useState<string>();
  const [text, setText] = useState('');
  const { data, isLoading } = useQuery({
    queryKey: ['menu-tree-menus', i18n.language],
    queryFn: async () => menuRowsToTree(await getData<Record<string, unknown>[]>('/blade-system/menu/list')),
    staleTime: 30_000,
  });
  const tree = useMemo(() => filterTree(data ?? [], text), [data, text]);
  const menu = menuId ? findNode(data ?? [], menuId) : undefined;
  const params = useMemo(() => scopeParams(menuId), [menuId]);
  return (
    <div className="bb-split">
      <div className="bb-split-side">
        <TreePanel
          title={
            <span>
              {t('sys.menu')}
              {menuId && (
                <Button type="link" size="small" onClick={() => setMenuId(undefined)}>
                  {t('sys.all')}
                </Button>
              )}
            </span>
          }
          data={tree}
          loading={isLoading}
          selected={menuId}
          onSelect={(k) => setMenuId(k)}
          search={text}
          onSearch={setText}
          titleRender={(n) => (
            <span>
              <MenuIcon name={typeof n.source === 'string' ? n.source : undefined} /> {n.title}
            </span>
          )}
        />
      </div>
      <div className="bb-split-main">
        <WithMeta code={code}>
          {(meta) => (
            <ResourceCrud
              meta={meta}
              title={menu ? `${t('sys.menu')}: ${menu.title}` : t('sys.allMenus')}
              params={params}
              addDefaults={() => scopeDefaults(menu, kind)}
            />
          )}
        </WithMeta>
      </div>
    </div>
  );
}

export default function ApiScopePage() {
  return <ScopeScreen code="api_scope" kind="api" />;
}
