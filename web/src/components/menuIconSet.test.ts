import { describe, expect, it } from 'vitest';
import { ICONS, MENU_ICON_NAMES } from './menuIconSet';

describe('menu icon set', () => {
  it('maps every listed name to its icon component', () => {
    expect(MENU_ICON_NAMES.length).toBeGreaterThan(100);
    expect(MENU_ICON_NAMES).toContain('TeamOutlined');
    for (const name of MENU_ICON_NAMES) expect(ICONS[name], name).toBeTypeOf('object');
    expect(ICONS.NoSuchOutlined).toBeUndefined();
  });
});
