import { describe, expect, it } from 'vitest';
import { guard, type GuardInput } from './guard';
import { routeMeta } from './routes';
import { baseTopMenuCode, routerBase, siblingUrl } from './base';

const input = (over: Partial<GuardInput>): GuardInput => ({
  path: '/wel/index',
  search: '',
  hasToken: true,
  storeToken: 'tok',
  isLock: false,
  meta: {},
  ...over,
});

describe('navigation guard', () => {
  it('forces the lock page while locked', () => {
    expect(guard(input({ isLock: true, path: '/system/param' }))).toEqual({ action: 'redirect', to: '/lock' });
    expect(guard(input({ isLock: true, path: '/lock', meta: routeMeta('/lock') }))).toEqual({ action: 'next', addTag: false });
  });

  it('sends a signed-in user from /login to /', () => {
    expect(guard(input({ path: '/login', meta: routeMeta('/login') }))).toEqual({ action: 'redirect', to: '/' });
  });

  it('clears the session when the store token is empty', () => {
    expect(guard(input({ storeToken: '' }))).toEqual({ action: 'logout' });
  });

  it('adds a tab unless the route opts out', () => {
    expect(guard(input({}))).toEqual({ action: 'next', addTag: true });
    expect(guard(input({ meta: { isTab: false } }))).toEqual({ action: 'next', addTag: false });
  });

  it('opens a new window for a target query', () => {
    expect(guard(input({ path: '/system/param', search: '?target=_blank&a=1' }))).toEqual({
      action: 'open',
      url: '/system/param?a=1',
      back: '/wel/index',
    });
  });

  it('lets anonymous users reach only routes marked isAuth false', () => {
    for (const p of ['/login', '/register', '/lock', '/404', '/403', '/500']) {
      expect(guard(input({ hasToken: false, path: p, meta: routeMeta(p) }))).toEqual({ action: 'next', addTag: false });
    }
    expect(guard(input({ hasToken: false, path: '/system/param', meta: routeMeta('/system/param') }))).toEqual({
      action: 'redirect',
      to: '/login',
    });
    expect(guard(input({ hasToken: false, path: '/', meta: routeMeta('/') }))).toEqual({ action: 'redirect', to: '/login' });
  });
});

describe('base paths of the sibling applications', () => {
  it('picks the basename and the top menu from the path', () => {
    expect(routerBase('/')).toBe('/');
    expect(routerBase('/login')).toBe('/');
    expect(routerBase('/pdm/')).toBe('/pdm');
    expect(routerBase('/erp/wel/index')).toBe('/erp');
    expect(routerBase('/scm')).toBe('/scm');
    expect(routerBase('/pdmx/a')).toBe('/');
    expect(baseTopMenuCode('/pdm/wel/index')).toBe('002');
    expect(baseTopMenuCode('/erp/')).toBe('003');
    expect(baseTopMenuCode('/scm/x')).toBe('004');
    expect(baseTopMenuCode('/wel/index')).toBeUndefined();
    expect(siblingUrl('003')).toBe('/erp/');
    expect(siblingUrl('000')).toBeUndefined();
  });
});
