import { website } from '../../config';
import { useCommonStore, useLockStore } from '../../store/common';

/**
 * The lock action (spec §4): with a lock password already set, sets the locked flag and goes to
 * /lock after 100 ms; otherwise returns 'dialog' so the set-password dialog opens first.
 */
export function lockScreen(navigate: (to: string) => void): 'locked' | 'dialog' {
  if (!useCommonStore.getState().lockPasswd) return 'dialog';
  useLockStore.getState().setLock();
  setTimeout(() => navigate(website.lockPage), website.lockRedirectDelay);
  return 'locked';
}
