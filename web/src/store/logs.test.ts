import { describe, expect, it, vi, beforeEach } from 'vitest';
import { badgeCount, recordError, useLogsStore } from './logs';
import { loadChunk } from '../util/lazy';

describe('error log', () => {
  beforeEach(() => useLogsStore.getState().clear());

  it('caps the badge at 99', () => {
    expect(badgeCount(5)).toBe('5');
    expect(badgeCount(99)).toBe('99');
    expect(badgeCount(100)).toBe('99+');
  });

  it('records type, url, message, stack, time and info', () => {
    recordError(new Error('boom'), 'in Widget');
    const [e] = useLogsStore.getState().logsList;
    expect(e.type).toBe('error');
    expect(e.message).toBe('boom');
    expect(e.stack).toContain('boom');
    expect(e.info).toBe('in Widget');
    expect(e.url).toBe(window.location.href);
    expect(e.time).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
    expect(localStorage.getItem('saber-logs')).toContain('boom');
  });

  it('records a missing chunk as Loading chunk failed', async () => {
    await expect(loadChunk(() => Promise.reject(new Error('Failed to fetch dynamically imported module')))).rejects.toThrow();
    const [e] = useLogsStore.getState().logsList;
    expect(e).toMatchObject({ type: 'missing', message: 'Loading chunk failed' });
  });

  it('records a chunk time-out', async () => {
    vi.useFakeTimers();
    try {
      const p = loadChunk(() => new Promise(() => undefined), 120000);
      const settled = expect(p).rejects.toThrow('Loading chunk failed');
      await vi.advanceTimersByTimeAsync(120000);
      await settled;
      expect(useLogsStore.getState().logsList[0]).toMatchObject({ type: 'timeout', message: 'Loading chunk failed' });
    } finally {
      vi.useRealTimers();
    }
  });
});
