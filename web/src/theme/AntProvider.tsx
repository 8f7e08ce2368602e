import { useEffect, useMemo, type ReactNode } from 'react';
import { ConfigProvider, theme as antdTheme } from 'antd';
import zhCN from 'antd/locale/zh_CN';
import enUS from 'antd/locale/en_US';
import { useTranslation } from 'react-i18next';
import { useCommonStore } from '../store/common';
import { applyColorVars } from './color';
import { applyThemeClass, themeByName } from './themes';

/**
 * antd ConfigProvider following the language (antd locale), the theme colour and the named theme.
 * Each lazily loaded route group wraps itself in it, so the entry chunk carries no antd code.
 */
export default function AntProvider({ children }: { children: ReactNode }) {
  const { i18n } = useTranslation();
  const colorName = useCommonStore((s) => s.colorName);
  const themeName = useCommonStore((s) => s.themeName);
  const def = themeByName(themeName);

  useEffect(() => applyColorVars(colorName), [colorName]);
  useEffect(() => applyThemeClass(themeName), [themeName]);

  const theme = useMemo(
    () => ({
      algorithm: def.dark ? antdTheme.darkAlgorithm : antdTheme.defaultAlgorithm,
      token: { colorPrimary: colorName, borderRadius: 4 },
      components: {
        Layout: { siderBg: 'transparent', headerBg: 'transparent', bodyBg: def.contentBg },
        Menu: { darkItemBg: 'transparent', darkSubMenuItemBg: 'rgba(0,0,0,0.15)', itemBg: 'transparent' },
      },
    }),
    [colorName, def],
  );

  return (
    <ConfigProvider locale={i18n.language === 'en' ? enUS : zhCN} theme={theme}>
      {children}
    </ConfigProvider>
  );
}
