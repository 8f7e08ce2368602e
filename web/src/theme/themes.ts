/** The 11 named themes of spec §2. Each sets the shell colours; the primary colour stays the user's. */
export interface ThemeDef {
  name: string;
  /** Side menu and logo. */
  siderBg: string;
  siderText: string;
  menuTheme: 'dark' | 'light';
  /** Active side-menu item background ('' = primary colour). */
  menuActiveBg: string;
  headerBg: string;
  headerText: string;
  tagsBg: string;
  contentBg: string;
  /** Dark page bodies (antd dark algorithm). */
  dark?: boolean;
}

export const THEMES: ThemeDef[] = [
  { name: 'theme-default', siderBg: '#20222a', siderText: 'rgba(255,255,255,0.75)', menuTheme: 'dark', menuActiveBg: '', headerBg: '#ffffff', headerText: '#303133', tagsBg: '#ffffff', contentBg: '#f0f2f5' },
  { name: 'theme-white', siderBg: '#ffffff', siderText: '#303133', menuTheme: 'light', menuActiveBg: '', headerBg: '#ffffff', headerText: '#303133', tagsBg: '#ffffff', contentBg: '#f5f7fa' },
  { name: 'theme-dark', siderBg: '#191a23', siderText: 'rgba(255,255,255,0.7)', menuTheme: 'dark', menuActiveBg: '', headerBg: '#191a23', headerText: '#ffffff', tagsBg: '#22232d', contentBg: '#101014', dark: true },
  { name: 'theme-star', siderBg: 'linear-gradient(160deg,#3a1c71 0%,#d76d77 60%,#ffaf7b 100%)', siderText: '#ffffff', menuTheme: 'dark', menuActiveBg: 'rgba(255,255,255,0.2)', headerBg: 'linear-gradient(90deg,#3a1c71,#d76d77)', headerText: '#ffffff', tagsBg: '#ffffff', contentBg: '#f5f3f8' },
  { name: 'theme-bule', siderBg: 'linear-gradient(180deg,#0b3b8c 0%,#1d67d3 100%)', siderText: '#e6f0ff', menuTheme: 'dark', menuActiveBg: 'rgba(255,255,255,0.18)', headerBg: '#0b3b8c', headerText: '#ffffff', tagsBg: '#ffffff', contentBg: '#eef3fb' },
  { name: 'theme-iview', siderBg: '#515a6e', siderText: 'rgba(255,255,255,0.8)', menuTheme: 'dark', menuActiveBg: '#363e4f', headerBg: '#ffffff', headerText: '#515a6e', tagsBg: '#f0f0f0', contentBg: '#f5f7f9' },
  { name: 'theme-vip', siderBg: '#30333c', siderText: '#f0c78a', menuTheme: 'dark', menuActiveBg: '#4a4d57', headerBg: '#30333c', headerText: '#f0c78a', tagsBg: '#ffffff', contentBg: '#f4f1ec' },
  { name: 'theme-cool', siderBg: '#000000', siderText: 'rgba(255,255,255,0.7)', menuTheme: 'dark', menuActiveBg: '#1f1f1f', headerBg: '#000000', headerText: '#ffffff', tagsBg: '#141414', contentBg: '#1b1b1b', dark: true },
  { name: 'theme-d2', siderBg: '#ebf1f6', siderText: '#2f3d4a', menuTheme: 'light', menuActiveBg: '', headerBg: '#ebf1f6', headerText: '#2f3d4a', tagsBg: '#ebf1f6', contentBg: '#ffffff' },
  { name: 'theme-hey', siderBg: '#f7f7fb', siderText: '#4a4a68', menuTheme: 'light', menuActiveBg: '', headerBg: '#ffffff', headerText: '#4a4a68', tagsBg: '#f7f7fb', contentBg: '#ffffff' },
  { name: 'theme-lte', siderBg: '#222d32', siderText: '#b8c7ce', menuTheme: 'dark', menuActiveBg: '#1e282c', headerBg: '#3c8dbc', headerText: '#ffffff', tagsBg: '#ecf0f5', contentBg: '#ecf0f5' },
];

export const themeByName = (name: string): ThemeDef => THEMES.find((t) => t.name === name) ?? THEMES[0];

/** Puts `theme-<name>` on <body> (only one at a time). */
export function applyThemeClass(name: string, body: HTMLElement = document.body): void {
  THEMES.forEach((t) => body.classList.remove(t.name));
  body.classList.add(themeByName(name).name);
}
