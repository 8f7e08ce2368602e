import { useEffect } from 'react';
import { Menu } from 'antd';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import type { TopMenu as TopMenuItem } from '../../api/user';
import { useUserStore } from '../../store/user';
import { useCommonStore } from '../../store/common';
import { baseTopMenuCode, siblingUrl } from '../../router/base';
import { website } from '../../config';
import MenuIcon from '../../components/MenuIcon';

const HOME = '__home__';

/** Where choosing a top menu goes: 'in-app' (load its sub-menu) or a sibling application URL. */
export function topMenuAction(code: string): { kind: 'in-app' } | { kind: 'sibling'; url: string } {
  const url = siblingUrl(code);
  if (url && !website.inAppTopMenuCodes.includes(code)) return { kind: 'sibling', url };
  return { kind: 'in-app' };
}

/**
 * The top menu underlined: under a sibling base (/pdm/) its entry, from the first paint on (the side menu of the
 * entry chosen before, kept in the session, loads first and underlined it until the new one came); else the
 * entry whose side menu is loaded; else home when no in-app entry is remembered.
 */
export function selectedTopMenu(topMenu: TopMenuItem[], menuId: string, topMenuCode: string, baseCode: string | undefined): string | undefined {
  if (baseCode) return topMenu.find((m) => m.code === baseCode)?.id;
  return topMenu.find((m) => m.id === menuId)?.id ?? (topMenuCode ? undefined : HOME);
}

/** Home entry plus the server's top menus. 000/001 load their menus here; 002/003/004 open sibling apps. */
export default function TopMenu() {
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  const topMenu = useUserStore((s) => s.topMenu);
  const menuId = useUserStore((s) => s.menuId);
  const loadTopMenu = useUserStore((s) => s.loadTopMenu);
  const loadMenu = useUserStore((s) => s.loadMenu);
  const topMenuCode = useCommonStore((s) => s.topMenuCode);
  const setTopMenuCode = useCommonStore((s) => s.setTopMenuCode);

  // Load the top menus, then the side menu of the preselected entry (base path, else the remembered code).
  useEffect(() => {
    let alive = true;
    void loadTopMenu()
      .then((list) => {
        if (!alive) return;
        const code = baseTopMenuCode() ?? useCommonStore.getState().topMenuCode;
        const item = list.find((m) => m.code === code);
        return loadMenu(item?.id);
      })
      .catch(() => undefined);
    return () => {
      alive = false;
    };
  }, [i18n.language, loadTopMenu, loadMenu]);

  const choose = (item: TopMenuItem | undefined) => {
    if (!item) {
      setTopMenuCode('');
      void loadMenu(undefined);
      void navigate(website.firstPage.value);
      return;
    }
    const action = topMenuAction(item.code);
    if (action.kind === 'sibling') {
      window.location.href = action.url;
      return;
    }
    if (website.inAppTopMenuCodes.includes(item.code)) setTopMenuCode(item.code);
    void loadMenu(item.id);
  };

  const selected = selectedTopMenu(topMenu, menuId, topMenuCode, baseTopMenuCode());

  return (
    <Menu
      mode="horizontal"
      className="bb-top-menu-inner"
      selectedKeys={selected ? [selected] : []}
      style={{ background: 'transparent', borderBottom: 0, color: 'inherit', minWidth: 0, flex: 1 }}
      items={[
        { key: HOME, label: t('navbar.home'), icon: <MenuIcon name="HomeOutlined" /> },
        ...topMenu.map((m) => ({ key: m.id, label: m.name, icon: <MenuIcon name={m.source} /> })),
      ]}
      onClick={({ key }) => choose(key === HOME ? undefined : topMenu.find((m) => m.id === key))}
    />
  );
}
