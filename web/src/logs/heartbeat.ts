import request from '../api/request';

/** How often the console tells the server it is open (internal/monitor: HeartbeatEvery). */
export const HEARTBEAT_MS = 60_000;

/**
 * Sends the online-duration heartbeat (POST /log-service/heartbeat) now and every minute while
 * the tab is visible, and at once when it becomes visible again. The server counts the gaps
 * between heartbeats of up to two minutes as online time. Returns the stop function.
 */
export function startHeartbeat(send: () => Promise<unknown> = () => request.post('/log-service/heartbeat')): () => void {
  const beat = () => {
    if (document.visibilityState === 'visible') void send().catch(() => undefined);
  };
  beat();
  const timer = setInterval(beat, HEARTBEAT_MS);
  document.addEventListener('visibilitychange', beat);
  return () => {
    clearInterval(timer);
    document.removeEventListener('visibilitychange', beat);
  };
}
