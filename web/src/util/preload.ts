let started = false;

/**
 * Starts downloading the workspace (shell and home page) once the user begins to sign in, so that the
 * code is there when the token is. Nothing loads before that: the login page's own budget stays small.
 */
export function preloadWorkspace(): void {
  if (started) return;
  started = true;
  void import('../layout/Shell').catch(() => {
    started = false;
  });
  void import('../components/MenuIcon').then((m) => m.loadMenuIcons()).catch(() => undefined);
}
