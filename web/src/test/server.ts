import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';

/**
 * The msw server of the tests; each test adds its handlers with server.use(). The shell's
 * heartbeat (logs/heartbeat.ts) and the home page's key figures (none: desk/api.ts), which every
 * sign-in meets, are answered in every test.
 */
export const server = setupServer(
  http.post('*/api/log-service/heartbeat', () => HttpResponse.json({ code: 200, success: true, msg: '操作成功', data: true })),
  http.get('*/api/blade-desk/home/summary', () => HttpResponse.json({ code: 200, success: true, msg: '操作成功', data: [] })),
);

const ok = <T,>(data: T) => ({ code: 200, success: true, msg: '操作成功', data });

/**
 * What a sign-in prefetches for the workspace (store/user.ts prefetchSession): empty menus and
 * buttons, for tests that sign in without caring about the shell.
 */
export const signInPrefetch = () => [
  http.get('*/api/blade-system/menu/routes', () => HttpResponse.json(ok([]))),
  http.get('*/api/blade-system/menu/buttons', () => HttpResponse.json(ok([]))),
  http.get('*/api/blade-system/menu/top-menu', () => HttpResponse.json(ok([]))),
];
