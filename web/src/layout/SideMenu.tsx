import { useEffect, useMemo, useState } from 'react';
import { Menu, type MenuProps } from 'antd';
import { useLocation } from 'react-router';
import { useTranslation } from 'react-i18next';
import type { MenuNode } from '../api/user';
import { useUserStore } from '../store/user';
import { useCommonStore } from '../store/common';
import { leafMenus, menuAncestors } from '../store/menu';
import { themeByName } from '../theme/themes';
import MenuIcon from '../components/MenuIcon';
import { menuTarget, useOpenMenu } from './useOpenMenu';
import { website } from '../config';

type Item = Required<MenuProps>['items'][number];

function toItems(nodes: MenuNode[]): Item[] {
  return nodes.map((n) =>
    n.children && n.children.length > 0
      ? { key: n.path, label: n.name, icon: <MenuIcon name={n.source} />, children: toItems(n.children) }
      : { key: menuTarget(n), label: n.name, icon: <MenuIcon name={n.source} /> },
  );
}

/** Keeps only one open submenu branch (the newest) at a time. */
export function accordion(prev: string[], next: string[], parents: Record<string, string[]>): string[] {
  const opened = next.find((k) => !prev.includes(k));
  if (!opened) return next;
  return [...(parents[opened] ?? []), opened];
}

/** Collapsible side menu of the chosen top menu; one open submenu at a time. */
export default function SideMenu({ collapsed = false }: { collapsed?: boolean }) {
  const { t } = useTranslation();
  const location = useLocation();
  const menu = useUserStore((s) => s.menu);
  const themeName = useCommonStore((s) => s.themeName);
  const openMenu = useOpenMenu();
  const theme = themeByName(themeName);

  const { items, byKey, parents } = useMemo(() => {
    const byKey: Record<string, MenuNode> = {};
    leafMenus(menu).forEach((m) => {
      byKey[menuTarget(m)] = m;
    });
    const parents: Record<string, string[]> = {};
    const walk = (nodes: MenuNode[], stack: string[]) =>
      nodes.forEach((n) => {
        if (n.children && n.children.length > 0) {
          parents[n.path] = stack;
          walk(n.children, [...stack, n.path]);
        }
      });
    walk(menu, []);
    const home: Item = { key: website.firstPage.value, label: t('route.home'), icon: <MenuIcon name="HomeOutlined" /> };
    return { items: [home, ...toItems(menu)], byKey, parents };
  }, [menu, t]);

  const selected = `${location.pathname}${location.search}`;
  const [openKeys, setOpenKeys] = useState<string[]>([]);
  useEffect(() => {
    setOpenKeys(menuAncestors(menu, location.pathname));
  }, [menu, location.pathname]);

  return (
    <Menu
      className="bb-side-menu"
      mode="inline"
      theme={theme.menuTheme}
      inlineCollapsed={collapsed}
      items={items}
      selectedKeys={[byKey[selected] ? selected : location.pathname]}
      openKeys={collapsed ? undefined : openKeys}
      onOpenChange={(keys) => setOpenKeys(accordion(openKeys, keys, parents))}
      onClick={({ key }) => {
        const m = byKey[key];
        if (m) openMenu(m);
        else openMenu({ id: 'home', code: 'home', name: t('route.home'), path: key });
      }}
      style={{ background: 'transparent', borderInlineEnd: 0, color: theme.siderText }}
    />
  );
}
