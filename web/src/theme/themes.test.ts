import { describe, expect, it } from 'vitest';
import { THEMES, applyThemeClass, themeByName } from './themes';
import { applyColorVars, shadeColor, themeCluster, tintColor } from './color';
import { website } from '../config';

describe('themes', () => {
  it('offers the 11 named themes', () => {
    expect(THEMES.map((t) => t.name)).toEqual([
      'theme-default', 'theme-white', 'theme-dark', 'theme-star', 'theme-bule', 'theme-iview',
      'theme-vip', 'theme-cool', 'theme-d2', 'theme-hey', 'theme-lte',
    ]);
    expect(themeByName('nope').name).toBe('theme-default');
    expect(website.defaultTheme).toBe('theme-default');
  });

  it('puts exactly one theme class on the body', () => {
    applyThemeClass('theme-dark');
    applyThemeClass('theme-lte');
    expect(document.body.classList.contains('theme-lte')).toBe(true);
    expect(document.body.classList.contains('theme-dark')).toBe(false);
  });

  it('derives 10 tints and one 10% darker shade from the colour (default #409EFF)', () => {
    expect(website.defaultColor).toBe('#409EFF');
    const c = themeCluster('#409EFF');
    expect(c).toHaveLength(11);
    expect(c[0]).toBe('#409eff');
    expect(c[5]).toBe(tintColor('#409EFF', 0.5));
    expect(tintColor('#000000', 0.5)).toBe('#808080');
    expect(c[10]).toBe(shadeColor('#409EFF', 0.1));
    expect(shadeColor('#ffffff', 0.1)).toBe('#e6e6e6');
    applyColorVars('#409EFF');
    expect(document.documentElement.style.getPropertyValue('--bb-primary-dark')).toBe(c[10]);
  });
});
