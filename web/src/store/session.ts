import { website } from '../config';
import { getToken } from '../util/auth';
import { ageSeconds } from '../util/date';
import { useUserStore } from './user';

/**
 * Seconds after which the token is refreshed: the configured token time, but never later than
 * one minute before the server's expires_in (a deployment may shorten the access-token validity).
 */
export function refreshAfter(tokenTime: number, expiresIn: number): number {
  if (expiresIn > 120) return Math.min(tokenTime, expiresIn - 60);
  return tokenTime;
}

let refreshing = false;

export const isRefreshing = (): boolean => refreshing;

/** One token-age check (spec §9): refresh at the configured age, never twice at once. */
export async function checkToken(now = Date.now()): Promise<boolean> {
  const s = useUserStore.getState();
  if (!getToken() || !s.token || !s.tokenDatetime) return false;
  const age = ageSeconds(s.tokenDatetime, now);
  if (age < refreshAfter(website.tokenTime, s.expiresIn) || refreshing) return false;
  refreshing = true;
  try {
    await s.refresh();
    return true;
  } catch {
    // A failed refresh is passed on: the next request's 401 logs out.
    return false;
  } finally {
    refreshing = false;
  }
}

let timer: ReturnType<typeof setInterval> | undefined;

export function startTokenRefresh(): () => void {
  stopTokenRefresh();
  timer = setInterval(() => void checkToken(), website.tokenCheckInterval);
  return stopTokenRefresh;
}

export function stopTokenRefresh(): void {
  if (timer) clearInterval(timer);
  timer = undefined;
}
