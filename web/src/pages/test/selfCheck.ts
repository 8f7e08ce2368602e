import { refreshAfter } from '../../store/session';
import { website } from '../../config';

/** The `exp` and `iat` claims of a JWT, in epoch ms (undefined when the token is not a readable JWT). */
export function jwtTimes(token: string): { exp?: number; iat?: number } {
  const part = token.split('.')[1];
  if (!part) return {};
  try {
    const json = atob(part.replace(/-/g, '+').replace(/_/g, '/').padEnd(Math.ceil(part.length / 4) * 4, '='));
    const claims = JSON.parse(json) as { exp?: unknown; iat?: unknown };
    const ms = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v * 1000 : undefined);
    return { exp: ms(claims.exp), iat: ms(claims.iat) };
  } catch {
    return {};
  }
}

export interface TokenTimes {
  issuedAt?: number;
  expiresAt?: number;
  /** When the client refreshes it (config tokenTime, bounded by expires_in). */
  refreshAt?: number;
}

/** When the session's token was issued, expires and is due for refresh: from the token, else from the login answer. */
export function tokenTimes(token: string, tokenDatetime: number, expiresIn: number): TokenTimes {
  if (!token) return {};
  const claims = jwtTimes(token);
  const issuedAt = claims.iat ?? (tokenDatetime || undefined);
  const expiresAt = claims.exp ?? (tokenDatetime && expiresIn ? tokenDatetime + expiresIn * 1000 : undefined);
  const refreshAt = tokenDatetime ? tokenDatetime + refreshAfter(website.tokenTime, expiresIn) * 1000 : undefined;
  return { issuedAt, expiresAt, refreshAt };
}

/** A duration as H:MM:SS (or M:SS under an hour); negative durations count as zero. */
export function clock(ms: number): string {
  const total = Math.max(0, Math.floor(ms / 1000));
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = total % 60;
  const two = (n: number) => String(n).padStart(2, '0');
  return h > 0 ? `${h}:${two(m)}:${two(s)}` : `${m}:${two(s)}`;
}

export interface ProbeResult {
  url: string;
  /** HTTP status; 0 when the request did not complete. */
  status: number;
  ok: boolean;
  /** The start of the answer's body, or the network error. */
  body: string;
  /** Round trip in ms. */
  ms: number;
}

/**
 * Watches the Resource Timing entries of one URL while a request runs, so that the round trip is the
 * network's: a busy main thread (the page rendering as the check starts) does not count. An observer,
 * unlike performance.getEntries, is not limited by the timing buffer a long session fills.
 */
function watchTiming(url: string): () => number | undefined {
  const name = new URL(url, window.location.href).href;
  const seen: PerformanceEntry[] = [];
  let obs: PerformanceObserver | undefined;
  try {
    obs = new PerformanceObserver((list) => seen.push(...list.getEntries()));
    obs.observe({ type: 'resource' });
  } catch {
    return () => undefined; // no Resource Timing here (tests, old browsers)
  }
  return () => {
    seen.push(...obs.takeRecords());
    obs.disconnect();
    const e = seen.filter((x) => x.name === name).pop() as PerformanceResourceTiming | undefined;
    return e && e.responseEnd > 0 ? Math.round(e.responseEnd - e.startTime) : undefined;
  };
}

/** GETs a health URL uncached and times the round trip. */
export async function probe(url: string, timeoutMs = 5000): Promise<ProbeResult> {
  const started = performance.now();
  const timing = watchTiming(url);
  const elapsed = () => timing() ?? Math.round(performance.now() - started);
  const ctrl = new AbortController();
  const timer = setTimeout(() => ctrl.abort(), timeoutMs);
  try {
    const res = await fetch(url, { cache: 'no-store', signal: ctrl.signal });
    const body = (await res.text()).trim().slice(0, 120);
    return { url, status: res.status, ok: res.ok, body, ms: elapsed() };
  } catch (e) {
    return { url, status: 0, ok: false, body: e instanceof Error ? e.message : String(e), ms: elapsed() };
  } finally {
    clearTimeout(timer);
  }
}

/** The content hash of the entry script (`/assets/index-<hash>.js`): it changes with every build. */
export function buildId(doc: Document = document): string | undefined {
  for (const s of Array.from(doc.querySelectorAll<HTMLScriptElement>('script[type="module"][src]'))) {
    const m = /\/assets\/index-([\w-]+)\.js$/.exec(s.getAttribute('src') ?? '');
    if (m) return m[1];
  }
  return undefined;
}
