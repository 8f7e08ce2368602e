import { describe, expect, it, vi, beforeEach } from 'vitest';
import { http, HttpResponse } from 'msw';
import { waitFor } from '@testing-library/react';
import { server } from '../test/server';
import type { AxiosResponse } from 'axios';
import request, { readBlobBody, RequestError, setUnauthorizedHandler, withApiPrefix } from './request';
import { loginByUsername } from './user';
import { setToken } from '../util/auth';
import { website } from '../config';
import i18n, { setLanguage } from '../i18n';

const toastText = () => document.getElementById('bb-toasts')?.textContent ?? '';

describe('request wrapper', () => {
  beforeEach(async () => {
    await setLanguage('zh');
  });

  it('prefixes /api once and leaves absolute URLs alone', () => {
    expect(withApiPrefix('/blade-system/param/list')).toBe('/api/blade-system/param/list');
    expect(withApiPrefix('/api/blade-system/param/list')).toBe('/api/blade-system/param/list');
    expect(withApiPrefix('https://example.test/x')).toBe('https://example.test/x');
  });

  it('sends the Basic client header, the bearer token, cookies and the UI language', async () => {
    let headers: Headers | undefined;
    server.use(
      http.get('*/api/blade-system/param/list', ({ request: r }) => {
        headers = r.headers;
        return HttpResponse.json({ code: 200, success: true, msg: '', data: { records: [], total: 0 } });
      }),
    );
    setToken('tok-1');
    await setLanguage('en');
    const res = await request.get('/blade-system/param/list');
    expect(res.status).toBe(200);
    expect(headers?.get('authorization')).toBe(`Basic ${btoa('saber:saber_secret')}`);
    expect(headers?.get('blade-auth')).toBe('bearer tok-1');
    expect(headers?.get('accept-language')).toBe('en');
    expect(request.defaults.withCredentials).toBe(true);
    expect(request.defaults.timeout).toBe(website.timeout);
    expect(website.timeout).toBe(60000);
  });

  it('sends no Blade-Auth without a token, and Tenant-Id plus the md5 password on token requests', async () => {
    let url: URL | undefined;
    let headers: Headers | undefined;
    server.use(
      http.post('*/api/blade-auth/oauth/token', ({ request: r }) => {
        url = new URL(r.url);
        headers = r.headers;
        return HttpResponse.json({ access_token: 'a', refresh_token: 'r', tenant_id: '000000' });
      }),
    );
    const res = await loginByUsername({ tenantId: '000000', username: 'admin', password: 'admin' });
    expect(res.data.access_token).toBe('a');
    expect(headers?.get('blade-auth')).toBeNull();
    expect(headers?.get('tenant-id')).toBe('000000');
    expect(url?.searchParams.get('password')).toBe('21232f297a57a5a743894a0e4a801fc3');
    expect(url?.searchParams.get('grant_type')).toBe('password');
    expect(url?.searchParams.get('scope')).toBe('all');
    expect(url?.searchParams.get('type')).toBe('account');
    expect(url?.searchParams.get('username')).toBe('admin');
  });

  it('judges 200-500 answers by the body code and toasts msg', async () => {
    server.use(
      http.post('*/api/blade-system/param/submit', () =>
        HttpResponse.json({ code: 400, success: false, msg: '参数键名已存在', data: null }, { status: 400 }),
      ),
    );
    const err = await request.post('/blade-system/param/submit', {}).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RequestError);
    expect((err as RequestError).message).toBe('参数键名已存在');
    expect((err as RequestError).code).toBe(400);
    await waitFor(() => expect(toastText()).toContain('参数键名已存在'));
  });

  it('rejects a 200 status whose body code is not 200', async () => {
    server.use(http.get('*/api/x', () => HttpResponse.json({ code: 500, success: false, msg: '内部错误' })));
    await expect(request.get('/x')).rejects.toThrow('内部错误');
  });

  it('shows error_description of a failed login', async () => {
    server.use(
      http.post('*/api/blade-auth/oauth/token', () =>
        HttpResponse.json({ error: 'invalid_grant', error_description: '用户名或密码错误' }, { status: 400 }),
      ),
    );
    await expect(loginByUsername({ tenantId: '000000', username: 'admin', password: 'bad' })).rejects.toThrow('用户名或密码错误');
    await waitFor(() => expect(toastText()).toContain('用户名或密码错误'));
  });

  it('falls back to 未知错误 (Unknown error in English)', async () => {
    server.use(http.get('*/api/y', () => new HttpResponse(null, { status: 500 })));
    await expect(request.get('/y')).rejects.toThrow('未知错误');
    await setLanguage('en');
    await expect(request.get('/y')).rejects.toThrow('Unknown error');
    expect(i18n.language).toBe('en');
  });

  it('logs out on 401', async () => {
    const handler = vi.fn();
    setUnauthorizedHandler(handler);
    server.use(http.get('*/api/z', () => HttpResponse.json({ code: 401, success: false, msg: '请求未授权' }, { status: 401 })));
    await expect(request.get('/z')).rejects.toThrow('请求未授权');
    expect(handler).toHaveBeenCalledTimes(1);
  });

  it('rejects whitelisted codes silently', async () => {
    website.statusWhiteList.push(409);
    try {
      server.use(http.get('*/api/w', () => HttpResponse.json({ code: 409, success: false, msg: 'quiet' }, { status: 409 })));
      const r = await request.get('/w').catch((e: unknown) => e);
      expect(r).not.toBeInstanceOf(Error);
      expect(toastText()).not.toContain('quiet');
    } finally {
      website.statusWhiteList.pop();
    }
  });

  it('rejects network failures with an error and no toast', async () => {
    server.use(http.get('*/api/n', () => HttpResponse.error()));
    const err = await request.get('/n').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RequestError);
    expect((err as RequestError).code).toBeUndefined();
    expect(toastText()).toBe('');
  });

  it('reads the JSON error of a blob (export) request', async () => {
    const blob = new Blob([JSON.stringify({ code: 403, msg: '无权导出' })], { type: 'application/json' });
    const res = await readBlobBody({ data: blob, status: 403 } as AxiosResponse);
    expect(res.data).toEqual({ code: 403, msg: '无权导出' });
    const xlsx = new Blob(['PK'], { type: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet' });
    expect((await readBlobBody({ data: xlsx, status: 200 } as AxiosResponse)).data).toBe(xlsx);
  });
});
