import { routerBase } from '../router/base';

type NavigateFn = (to: string, opts?: { replace?: boolean }) => void;

/** Navigation from outside React (request wrapper, stores). The router installs its navigate. */
let nav: NavigateFn = (to) => {
  window.location.assign(`${routerBase().replace(/\/$/, '')}${to}`);
};

export const setNavigate = (fn: NavigateFn): void => {
  nav = fn;
};

export const navigateTo: NavigateFn = (to, opts) => nav(to, opts);
