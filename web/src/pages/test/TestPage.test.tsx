import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { http, HttpResponse } from 'msw';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { server } from '../../test/server';
import { renderWithProviders } from '../../test/utils';
import { setLanguage } from '../../i18n';
import { useUserStore } from '../../store/user';
import { useCommonStore } from '../../store/common';
import { installGlobalErrorHandlers, useLogsStore } from '../../store/logs';
import TestPage from './TestPage';
import { buildId, clock, jwtTimes, tokenTimes } from './selfCheck';

const b64url = (o: unknown) => btoa(JSON.stringify(o)).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
const jwt = (claims: Record<string, unknown>) => `${b64url({ alg: 'HS256' })}.${b64url(claims)}.sig`;

describe('self-check helpers', () => {
  it('reads exp and iat of a JWT and falls back to the login answer', () => {
    expect(jwtTimes(jwt({ exp: 1_700_003_600, iat: 1_700_000_000 }))).toEqual({ exp: 1_700_003_600_000, iat: 1_700_000_000_000 });
    expect(jwtTimes('not-a-jwt')).toEqual({});
    expect(jwtTimes('a.%%%.c')).toEqual({});
    const t0 = 1_700_000_000_000;
    // an opaque token: issued at the login, expires after expires_in; refreshed at tokenTime (3000 s)
    expect(tokenTimes('opaque', t0, 3600)).toEqual({ issuedAt: t0, expiresAt: t0 + 3_600_000, refreshAt: t0 + 3_000_000 });
    // a short-lived token is refreshed a minute before it expires
    expect(tokenTimes(jwt({ exp: 1_700_000_600 }), t0, 600).refreshAt).toBe(t0 + 540_000);
    expect(tokenTimes('', t0, 3600)).toEqual({});
  });

  it('formats durations and finds the build hash of the entry script', () => {
    expect(clock(3_599_000)).toBe('59:59');
    expect(clock(3_600_000)).toBe('1:00:00');
    expect(clock(65_500)).toBe('1:05');
    expect(clock(-5)).toBe('0:00');
    const doc = document.implementation.createHTMLDocument('');
    doc.head.innerHTML = '<script type="module" src="/assets/rolldown-runtime-x.js"></script><script type="module" crossorigin src="/assets/index-BMKEISjk.js"></script>';
    expect(buildId(doc)).toBe('BMKEISjk');
    expect(buildId(document.implementation.createHTMLDocument(''))).toBeUndefined();
  });
});

describe('self-check page', () => {
  let probes: string[] = [];
  const swallow = (e: ErrorEvent) => e.preventDefault();

  beforeEach(async () => {
    // The session card's clock ticks every second; a tick landing between two steps of a test is a
    // React update outside act(). Its ticks are not under test: stop them (and only them).
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    await setLanguage('zh');
    probes = [];
    server.use(
      http.get('*/healthz', () => {
        probes.push('healthz');
        return new HttpResponse('ok', { status: 200 });
      }),
      http.get('*/readyz', () => {
        probes.push('readyz');
        return new HttpResponse('not ready', { status: 503 });
      }),
    );
    const now = Date.now();
    useUserStore.setState({
      token: jwt({ exp: Math.floor(now / 1000) + 3600, iat: Math.floor(now / 1000) }),
      tokenDatetime: now,
      expiresIn: 3600,
      tenantId: '000000',
      roles: ['administrator'],
      userInfo: { account: 'admin', realName: '管理员', tenantId: '000000' },
      permission: { user_add: true, user_edit: true },
      menuAll: [{ id: '1', name: '用户管理', path: '/system/user', children: [] } as never],
    });
    useCommonStore.setState({ themeName: 'theme-dark', colorName: '#409EFF' });
    useLogsStore.setState({ logsList: [] });
    window.addEventListener('error', swallow);
  });

  afterEach(() => {
    vi.useRealTimers();
    // Unmount before the store reset below: the page would re-render outside act().
    cleanup();
    window.removeEventListener('error', swallow);
    useUserStore.setState({ token: '', tokenDatetime: 0, expiresIn: 0, roles: [], userInfo: {}, permission: {}, menuAll: [] });
  });

  it('shows the session, the token lifetime, the health answers, version, language and theme', async () => {
    renderWithProviders(<TestPage />);
    expect(screen.getByText('管理员')).toBeInTheDocument();
    expect(screen.getByText('(admin)')).toBeInTheDocument();
    expect(screen.getByText('administrator')).toBeInTheDocument();
    expect(screen.getByText('1 个菜单,2 个按钮权限')).toBeInTheDocument();
    expect(screen.getByRole('timer').textContent).toMatch(/^(59:[0-5]\d|1:00:00)$/);
    expect(screen.getByText('0.1.0')).toBeInTheDocument();
    expect(screen.getByText('中文')).toBeInTheDocument();
    expect(screen.getByText('黑色主题')).toBeInTheDocument();
    expect(screen.getByText('#409EFF')).toBeInTheDocument();

    const health = (await screen.findByText('ok')).closest('tr')!;
    expect(within(health).getByText('200')).toBeInTheDocument();
    expect(within(health).getByText(/^往返 \d+ ms$/)).toBeInTheDocument();
    const ready = screen.getByText('not ready').closest('tr')!;
    expect(within(ready).getByText('503')).toBeInTheDocument();
    expect(probes.sort()).toEqual(['healthz', 'readyz']);

    const again = screen.getByRole('button', { name: /重新检查/ });
    await waitFor(() => expect(again).not.toHaveClass('ant-btn-loading'));
    fireEvent.click(again);
    await waitFor(() => expect(probes).toHaveLength(4));
  });

  it('throws an error on purpose, which lands in the error log', async () => {
    installGlobalErrorHandlers();
    renderWithProviders(<TestPage />);
    expect(screen.getByText('错误日志中现有 0 条记录')).toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: /抛出测试错误/ }));
    await waitFor(() => expect(useLogsStore.getState().logsList[0]?.message).toBe('自检页面故意抛出的测试错误'));
    expect(await screen.findByText('错误日志中现有 1 条记录')).toBeInTheDocument();
    // The health probes the page started answer before the test ends (their update is then inside act).
    expect(await screen.findAllByText(/^往返 \d+ ms$/)).toHaveLength(2);
  });

  it('speaks English', async () => {
    await setLanguage('en');
    renderWithProviders(<TestPage />);
    expect(screen.getByText('Current session')).toBeInTheDocument();
    expect(screen.getByText('menus: 1, button permissions: 2')).toBeInTheDocument();
    expect(screen.getByText('Entries in the error log: 0')).toBeInTheDocument();
    expect(screen.getByText('Dark')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: /Throw a test error/ })).toBeInTheDocument();
    expect(await screen.findAllByText(/^round trip \d+ ms$/)).toHaveLength(2);
  });
});
