/**
 * Toasts from outside React (request wrapper, stores). Until the shell installs antd's
 * context-aware message API (setMessageApi), a tiny DOM toast is used, so that the login page
 * carries no antd code.
 */
type Kind = 'success' | 'error' | 'warning' | 'info';
type Show = (text: string) => unknown;
type MessageApi = Record<Kind, Show>;

const DURATION = 3000;

function domToast(kind: Kind, text: string): void {
  if (typeof document === 'undefined') return;
  let box = document.getElementById('bb-toasts');
  if (!box) {
    box = document.createElement('div');
    box.id = 'bb-toasts';
    box.className = 'bb-toasts';
    document.body.appendChild(box);
  }
  const el = document.createElement('div');
  el.className = `bb-toast bb-toast-${kind}`;
  el.setAttribute('role', kind === 'error' ? 'alert' : 'status');
  el.textContent = text;
  box.appendChild(el);
  setTimeout(() => el.remove(), DURATION);
}

const fallback: MessageApi = {
  success: (t) => domToast('success', t),
  error: (t) => domToast('error', t),
  warning: (t) => domToast('warning', t),
  info: (t) => domToast('info', t),
};

let api: MessageApi = fallback;

export const setMessageApi = (m: MessageApi | null): void => {
  api = m ?? fallback;
};

export const toast = {
  success: (text: string) => void api.success(text),
  error: (text: string) => void api.error(text),
  warning: (text: string) => void api.warning(text),
  info: (text: string) => void api.info(text),
};
