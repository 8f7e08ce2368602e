import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { pageTitle } from '../i18n';

/** Sets document.title to `<page> - <site>` in the current language (spec §2: title follows the language). */
export function usePageTitle(label?: string, isKey = true): void {
  const { t, i18n } = useTranslation();
  useEffect(() => {
    document.title = pageTitle(label ? (isKey ? t(label) : label) : undefined);
  }, [label, isKey, t, i18n.language]);
}
