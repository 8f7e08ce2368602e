import { useSyncExternalStore } from 'react';
import AppstoreOutlined from '@ant-design/icons/AppstoreOutlined';
import type { Icon } from './menuIconSet';

/*
 * Menu icons by antd component name (menu `source`). The set lives in its own chunk (menuIconSet.ts),
 * loaded once after the shell mounts; until then, and for unknown names, AppstoreOutlined shows.
 */
let icons: Record<string, Icon> | null = null;
let loading: Promise<void> | null = null;
const listeners = new Set<() => void>();

export function loadMenuIcons(): Promise<void> {
  loading ??= import('./menuIconSet')
    .then((m) => {
      icons = m.ICONS;
      listeners.forEach((l) => l());
    })
    .catch(() => {
      loading = null;
    });
  return loading;
}

const subscribe = (l: () => void) => {
  listeners.add(l);
  void loadMenuIcons();
  return () => listeners.delete(l);
};

export default function MenuIcon({ name, className }: { name?: string; className?: string }) {
  const set = useSyncExternalStore(subscribe, () => icons, () => icons);
  const C = (name && set?.[name]) || AppstoreOutlined;
  return <C className={className} />;
}
