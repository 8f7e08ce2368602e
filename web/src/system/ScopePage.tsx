import { useMemo, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import ResourceCrud from '../resource/ResourceCrud';
import MenuIcon from '../components/MenuIcon';
import { currentLanguage } from '../i18n';
import { getData, WithMeta } from './common';
import TreeListLayout from './TreeListLayout';
import { findNode, menuRowsToTree, type TreeItem } from './tree';

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
  const { data, isLoading } = useQuery({
    queryKey: ['menu-tree-menus', i18n.language],
    queryFn: async () => menuRowsToTree(await getData<Record<string, unknown>[]>('/blade-system/menu/list'), currentLanguage()),
    staleTime: 30_000,
  });
  const menu = menuId ? findNode(data ?? [], menuId) : undefined;
  const params = useMemo(() => scopeParams(menuId), [menuId]);
  return (
    <TreeListLayout
      title={t('sys.menu')}
      tree={data}
      loading={isLoading}
      selected={menuId}
      onSelect={setMenuId}
      titleRender={(n) => (
        <span>
          <MenuIcon name={typeof n.source === 'string' ? n.source : undefined} /> {n.title}
        </span>
      )}
    >
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
    </TreeListLayout>
  );
}

export default function ApiScopePage() {
  return <ScopeScreen code="api_scope" kind="api" />;
}
