import { useTagsStore } from '../store/tags';
import { useUserStore } from '../store/user';
import { getStore, setStore } from '../util/storage';

/**
 * Which screens a user opens most, for the home page's shortcuts: every switch to a screen's tab counts
 * once, kept in this browser's local storage per tenant and user (no server round trip per navigation).
 */
type Counts = Record<string, number>;

const key = (): string | undefined => {
  const u = useUserStore.getState().userInfo;
  return u.userId ? `usage:${u.tenantId ?? ''}:${u.userId}` : undefined;
};

export function screenCounts(): Counts {
  const k = key();
  return (k && getStore<Counts>(k)) || {};
}

/** At most this many screens are remembered: the least used go first. */
const KEEP = 50;

export function countScreen(path: string): void {
  const k = key();
  const p = path.split('?')[0];
  if (!k || !p || p.startsWith('/wel/')) return;
  const counts = { ...screenCounts(), [p]: (screenCounts()[p] ?? 0) + 1 };
  const kept = Object.entries(counts).sort((a, b) => b[1] - a[1]).slice(0, KEEP);
  setStore(k, Object.fromEntries(kept));
}

/** The paths opened most often, most first. */
export function mostUsed(): string[] {
  return Object.entries(screenCounts())
    .sort((a, b) => b[1] - a[1])
    .map(([p]) => p);
}

let watching = false;
/** Counts each tab the user switches to (called once by the home page's module). */
export function watchScreens(): void {
  if (watching) return;
  watching = true;
  useTagsStore.subscribe((s, prev) => {
    if (s.tag.value !== prev.tag.value) countScreen(s.tag.value);
  });
}
