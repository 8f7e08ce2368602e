import { useCallback } from 'react';
import { useNavigate } from 'react-router';
import type { MenuNode } from '../api/user';
import { isExternal } from '../store/menu';
import { routerBase } from '../router/base';

/** The route of a menu entry: external paths open in the iframe page. */
export function menuTarget(menu: MenuNode): string {
  if (isExternal(menu.path)) {
    const q = new URLSearchParams({ src: menu.path, name: menu.name });
    return `/myiframe/urlPath?${q.toString()}`;
  }
  return menu.path;
}

/** Opens a menu entry: isOpen 2 opens a new window; external paths use the iframe page. */
export function useOpenMenu(): (menu: MenuNode) => void {
  const navigate = useNavigate();
  return useCallback(
    (menu: MenuNode) => {
      if (Number(menu.isOpen) === 2) {
        const url = /^https?:\/\//i.test(menu.path) ? menu.path : `${routerBase().replace(/\/$/, '')}${menuTarget(menu)}`;
        window.open(url, '_blank');
        return;
      }
      void navigate(menuTarget(menu));
    },
    [navigate],
  );
}
