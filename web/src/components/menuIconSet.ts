import type { ComponentType } from 'react';
import * as icons from './menuIcons';

export type Icon = ComponentType<{ className?: string }>;

/**
 * Icons a menu `source` may name, by name (listed in menuIcons.ts). This module is its own chunk,
 * loaded after the shell mounts (importing the whole icon set would add ~190 KB gzip).
 */
export const ICONS: Record<string, Icon> = icons;

export const MENU_ICON_NAMES: readonly string[] = Object.keys(ICONS);
