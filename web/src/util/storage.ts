import type { StateStorage } from 'zustand/middleware';
import { website } from '../config';

/** Prefixed key of local and session storage (spec §9: keys carry the configured prefix). */
export const storeKey = (name: string): string => `${website.keyPrefix}${name}`;

function area(session: boolean): Storage | undefined {
  try {
    return session ? window.sessionStorage : window.localStorage;
  } catch {
    return undefined;
  }
}

export function getStore<T>(name: string, session = false): T | undefined {
  const raw = area(session)?.getItem(storeKey(name));
  if (raw == null) return undefined;
  try {
    const parsed = JSON.parse(raw) as { content: T };
    return parsed.content;
  } catch {
    return undefined;
  }
}

export function setStore<T>(name: string, content: T, session = false): void {
  area(session)?.setItem(storeKey(name), JSON.stringify({ content, datetime: Date.now() }));
}

export function removeStore(name: string, session = false): void {
  area(session)?.removeItem(storeKey(name));
}

/** Removes every prefixed key from local (or session) storage. */
export function clearStore(session = false): void {
  const s = area(session);
  if (!s) return;
  const keys: string[] = [];
  for (let i = 0; i < s.length; i++) {
    const k = s.key(i);
    if (k && k.startsWith(website.keyPrefix)) keys.push(k);
  }
  keys.forEach((k) => s.removeItem(k));
}

/** zustand persist storage that prefixes its keys. */
export function prefixedStorage(session = false): StateStorage {
  return {
    getItem: (name) => area(session)?.getItem(storeKey(name)) ?? null,
    setItem: (name, value) => area(session)?.setItem(storeKey(name), value),
    removeItem: (name) => area(session)?.removeItem(storeKey(name)),
  };
}
