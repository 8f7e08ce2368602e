import { afterEach, describe, expect, it, vi } from 'vitest';
import { HEARTBEAT_MS, startHeartbeat } from './heartbeat';

const setVisibility = (v: DocumentVisibilityState) =>
  Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => v });

describe('heartbeat', () => {
  afterEach(() => {
    vi.useRealTimers();
    setVisibility('visible');
  });

  it('beats at once and every minute while the tab is visible, not while hidden', () => {
    vi.useFakeTimers();
    setVisibility('visible');
    const send = vi.fn(() => Promise.resolve());
    const stop = startHeartbeat(send);
    expect(send).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(HEARTBEAT_MS);
    expect(send).toHaveBeenCalledTimes(2);
    setVisibility('hidden');
    vi.advanceTimersByTime(3 * HEARTBEAT_MS);
    expect(send).toHaveBeenCalledTimes(2);
    setVisibility('visible');
    document.dispatchEvent(new Event('visibilitychange'));
    expect(send).toHaveBeenCalledTimes(3);
    stop();
    vi.advanceTimersByTime(3 * HEARTBEAT_MS);
    expect(send).toHaveBeenCalledTimes(3);
  });
});
