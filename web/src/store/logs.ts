import { create } from 'zustand';
import { persist, createJSONStorage } from 'zustand/middleware';
import { prefixedStorage } from '../util/storage';
import { website } from '../config';

/** Error log entry (spec §3): type, url, message, stack, time, info. */
export interface LogEntry {
  type: string;
  url: string;
  message: string;
  stack: string;
  time: string;
  info: string;
}

const MAX_KEPT = 500;

const pad = (n: number) => String(n).padStart(2, '0');
/** yyyy-MM-dd HH:mm:ss of now (no dayjs: this module is in the entry chunk). */
export function formatNow(d = new Date()): string {
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())} ${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}`;
}

interface LogsState {
  logsList: LogEntry[];
  add: (e: Partial<LogEntry> & { message: string }) => void;
  clear: () => void;
}

export const useLogsStore = create<LogsState>()(
  persist(
    (set) => ({
      logsList: [],
      add: (e) =>
        set((s) => ({
          logsList: [
            {
              type: e.type ?? 'error',
              url: e.url ?? (typeof window === 'undefined' ? '' : window.location.href),
              message: e.message,
              stack: e.stack ?? '',
              info: e.info ?? '',
              time: e.time ?? formatNow(),
            },
            ...s.logsList,
          ].slice(0, MAX_KEPT),
        })),
      clear: () => set({ logsList: [] }),
    }),
    { name: 'logs', storage: createJSONStorage(() => prefixedStorage()) },
  ),
);

/** Badge text: the count, capped at 99 (shown as 99+ beyond). */
export function badgeCount(n: number, max = website.errorLogBadgeMax): string {
  return n > max ? `${max}+` : String(n);
}

/** Records an error thrown anywhere in the UI. */
export function recordError(err: unknown, info = '', type = 'error'): void {
  const e = err instanceof Error ? err : new Error(typeof err === 'string' ? err : JSON.stringify(err));
  useLogsStore.getState().add({ type, message: e.message, stack: e.stack ?? '', info });
}

let installed = false;

/** Window handlers for uncaught errors, rejected promises and Vite's chunk preload failures. */
export function installGlobalErrorHandlers(): void {
  if (installed || typeof window === 'undefined') return;
  installed = true;
  window.addEventListener('error', (ev: ErrorEvent) => {
    recordError(ev.error ?? ev.message, `${ev.filename ?? ''}:${ev.lineno ?? ''}:${ev.colno ?? ''}`);
  });
  window.addEventListener('unhandledrejection', (ev: PromiseRejectionEvent) => {
    // Failed requests already showed their toast; they are not UI errors.
    const r: unknown = ev.reason;
    if (r instanceof Error && r.name === 'RequestError') return;
    recordError(r, 'unhandledrejection');
  });
  window.addEventListener('vite:preloadError', (ev: Event) => {
    const payload = (ev as Event & { payload?: unknown }).payload;
    recordChunkError('missing', payload);
  });
}

/** Chunk loading failure (spec §8): message 'Loading chunk failed', type missing or timeout. */
export function recordChunkError(type: 'missing' | 'timeout', cause: unknown): void {
  const detail = cause instanceof Error ? cause.message : String(cause ?? '');
  useLogsStore.getState().add({
    type,
    message: 'Loading chunk failed',
    stack: cause instanceof Error ? (cause.stack ?? '') : '',
    info: detail,
  });
}
