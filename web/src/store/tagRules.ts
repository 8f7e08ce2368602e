import { website } from '../config';

export interface TagMeta {
  keepAlive?: boolean;
  isTab?: boolean;
  /** i18n key of the label, used instead of label when present. */
  i18n?: string;
}

/** A tab of the tab strip (spec §3: label, value, params, query, meta, group). */
export interface Tag {
  label: string;
  value: string;
  params?: Record<string, string>;
  query?: Record<string, string>;
  meta?: TagMeta;
  group?: string[];
  close?: boolean;
}

export const homeTag = (): Tag => ({
  label: website.firstPage.label,
  value: website.firstPage.value,
  meta: { i18n: 'route.home', keepAlive: true },
  close: website.firstPage.close,
});

const sameTag = (a: Tag, b: Tag): boolean => a.value === b.value;

/**
 * Sets the close flags (spec §4): a lone tab is never closable; the home tab is not closable while
 * home is not set as first page; every other tab is closable.
 */
export function setFirstTag(list: Tag[], isFirstPage = website.isFirstPage): Tag[] {
  if (list.length === 1) return [{ ...list[0], close: false }];
  return list.map((t) => ({
    ...t,
    close: !(t.value === website.firstPage.value && isFirstPage === false),
  }));
}

/** Adding de-duplicates by value (the existing tab keeps its place). */
export function addTag(list: Tag[], tag: Tag): Tag[] {
  if (list.some((t) => sameTag(t, tag))) {
    return setFirstTag(list.map((t) => (sameTag(t, tag) ? { ...t, ...tag, close: t.close } : t)));
  }
  return setFirstTag([...list, tag]);
}

export function delTag(list: Tag[], tag: Tag): Tag[] {
  return setFirstTag(list.filter((t) => !sameTag(t, tag)));
}

/** Close others keeps the active tab and the home tab. */
export function delOtherTags(list: Tag[], active: Tag): Tag[] {
  return setFirstTag(list.filter((t) => t.value === active.value || t.value === website.firstPage.value));
}

/** Close all resets to the home tab. */
export function delAllTags(): Tag[] {
  return setFirstTag([homeTag()]);
}

/**
 * Closing a tab: returns the new list and, when the closed tab was active, the tab to open
 * (the previous one, or the new first one when the first tab was closed).
 */
export function closeTag(list: Tag[], tag: Tag, active: Tag | undefined): { list: Tag[]; open?: Tag } {
  const index = list.findIndex((t) => sameTag(t, tag));
  if (index < 0) return { list };
  if (list[index].close === false) return { list };
  const next = delTag(list, tag);
  if (active && sameTag(active, tag)) {
    const open = next[index === 0 ? 0 : index - 1] ?? next[0];
    return { list: next, open };
  }
  return { list: next };
}
