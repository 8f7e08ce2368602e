import i18n from 'i18next';
import { initReactI18next } from 'react-i18next';
import zh from './zh';
import en from './en';
import { getStore, setStore } from '../util/storage';
import { website } from '../config';

export type Language = 'zh' | 'en';
export const LANGUAGES: Language[] = ['zh', 'en'];

const stored = getStore<string>('language');
const initial: Language = stored === 'en' ? 'en' : 'zh';

void i18n.use(initReactI18next).init({
  resources: { zh: { translation: zh }, en: { translation: en } },
  lng: initial,
  fallbackLng: 'zh',
  interpolation: { escapeValue: false },
  returnNull: false,
});

function apply(lng: Language): void {
  if (typeof document !== 'undefined') document.documentElement.lang = lng === 'en' ? 'en' : 'zh-CN';
}
apply(initial);

export const currentLanguage = (): Language => (i18n.language === 'en' ? 'en' : 'zh');

/**
 * Switches the UI language: i18next, <html lang>, stored preference (default zh). The dayjs locale
 * follows through i18n/dayjs.ts, antd's through AntProvider.
 */
export async function setLanguage(lng: Language): Promise<void> {
  setStore('language', lng);
  apply(lng);
  await i18n.changeLanguage(lng);
}

/** Page title: `<page> - <site title>` in the current language. */
export function pageTitle(page?: string): string {
  const site = website.title[currentLanguage()];
  return page ? `${page} - ${site}` : site;
}

/** Picks the current language's text of a `{zh, en}` label. */
export function localized(label: { zh?: string; en?: string } | string | undefined): string {
  if (!label) return '';
  if (typeof label === 'string') return label;
  return (currentLanguage() === 'en' ? label.en || label.zh : label.zh || label.en) ?? '';
}

export default i18n;
