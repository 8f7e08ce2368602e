import type { R } from '../api/types';
import i18n from '../i18n';
import { toast } from '../util/notify';

/**
 * Runs a flow action: its answer's message (or the generic one) as a success, then `after` (reload a list,
 * close a dialog). A refusal was shown by the request wrapper; false tells the caller it failed.
 */
export async function perform(call: () => Promise<R<unknown>>, after?: () => unknown): Promise<boolean> {
  try {
    const r = await call();
    toast.success(r.msg || i18n.t('flow.done'));
  } catch {
    return false;
  }
  await after?.();
  return true;
}
