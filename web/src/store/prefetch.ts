/**
 * Requests started ahead of their consumer: right after sign-in the menus, buttons and top menus are
 * asked for while the workspace's code is still downloading. A consumer takes the started request if it
 * is recent (and of the same language), else makes its own.
 */
const FRESH_MS = 10_000;
const cache = new Map<string, { at: number; p: Promise<unknown> }>();

export function prefetch<T>(key: string, fn: () => Promise<T>): void {
  const p = fn();
  p.catch(() => undefined);
  cache.set(key, { at: Date.now(), p });
}

export function take<T>(key: string, fn: () => Promise<T>): Promise<T> {
  const c = cache.get(key);
  if (c && Date.now() - c.at < FRESH_MS) return c.p as Promise<T>;
  cache.delete(key);
  return fn();
}

export function clearPrefetch(): void {
  cache.clear();
}
