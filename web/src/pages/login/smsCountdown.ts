import { RequestError } from '../../api/request';

/*
 * The phone-code button's countdown, kept in sessionStorage so that a reload neither resets it
 * nor lets the user press a button the server would answer with 429. One end time per tenant and
 * phone (the server limits sends per phone); the page resumes the latest one still running, phone
 * filled in. sessionStorage: the phone number goes with the tab, and every entry lapses within a
 * minute anyway.
 */

const KEY = 'bb-sms-countdown';

/** Seconds between two codes to one phone (the server's SMSResendInterval). */
export const RESEND_SECONDS = 60;

export interface Countdown {
  tenantId: string;
  phone: string;
  /** End time, ms since the epoch. */
  until: number;
}

function read(now: number): Countdown[] {
  try {
    const list: unknown = JSON.parse(sessionStorage.getItem(KEY) ?? '[]');
    if (!Array.isArray(list)) return [];
    return (list as Countdown[]).filter((c) => typeof c?.until === 'number' && c.until > now && typeof c.phone === 'string');
  } catch {
    return [];
  }
}

/** When the countdown of the phone ends (0: none is running). */
export function countdownUntil(tenantId: string, phone: string, now = Date.now()): number {
  return read(now).find((c) => c.tenantId === tenantId && c.phone === phone)?.until ?? 0;
}

/** The countdown that started last and still runs, to resume after a reload. */
export function latestCountdown(now = Date.now()): Countdown | undefined {
  return read(now).at(-1);
}

/** Starts (or moves) the phone's countdown to end at until. */
export function startCountdown(tenantId: string, phone: string, until: number, now = Date.now()) {
  const list = read(now).filter((c) => !(c.tenantId === tenantId && c.phone === phone));
  list.push({ tenantId, phone, until });
  try {
    sessionStorage.setItem(KEY, JSON.stringify(list));
  } catch {
    /* storage full or refused: the countdown lasts as long as the page */
  }
}

/**
 * The wait a 429 answer names, in seconds: its Retry-After header (seconds or an HTTP date), or
 * undefined when it names none (the request wrapper has shown the server's message).
 */
export function retryAfterSeconds(err: unknown, now = Date.now()): number | undefined {
  if (!(err instanceof RequestError) || err.code !== 429) return undefined;
  const raw: unknown = err.response?.headers?.['retry-after'];
  if (typeof raw !== 'string' && typeof raw !== 'number') return undefined;
  const text = String(raw).trim();
  const secs = /^\d+$/.test(text) ? Number(text) : Math.ceil((Date.parse(text) - now) / 1000);
  return Number.isFinite(secs) && secs > 0 ? secs : undefined;
}
