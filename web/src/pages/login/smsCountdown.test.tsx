import { describe, expect, it, beforeEach } from 'vitest';
import { http, HttpResponse } from 'msw';
import { screen, fireEvent, render } from '@testing-library/react';
import { MemoryRouter, Route, Routes } from 'react-router';
import { server } from '../../test/server';
import { ok } from '../../test/utils';
import { setLanguage } from '../../i18n';
import { useUserStore } from '../../store/user';
import LoginPage from './LoginPage';

// Each render is a page load: the component state starts afresh, sessionStorage stays.
const load = () =>
  render(
    <MemoryRouter initialEntries={['/login']}>
      <Routes>
        <Route path="/login" element={<LoginPage />} />
      </Routes>
    </MemoryRouter>,
  );

const sendButton = () => screen.getByRole('button', { name: /获取验证码|秒后重发/ });

async function openPhoneTab(phone?: string) {
  fireEvent.click(await screen.findByRole('tab', { name: '手机号登录' }));
  if (phone !== undefined) fireEvent.change(screen.getByLabelText('请输入手机号码'), { target: { value: phone } });
}

describe('the SMS countdown', () => {
  let sends: string[];
  beforeEach(async () => {
    await setLanguage('zh');
    useUserStore.getState().fedLogout();
    sends = [];
    server.use(http.get('*/api/blade-auth/oauth/social/providers', () => HttpResponse.json(ok([]))));
  });

  const answer = (status: number, headers: Record<string, string> = {}, msg = '短信验证码发送过于频繁,请稍后再试') =>
    server.use(
      http.post('*/api/blade-auth/oauth/sms/send', ({ request }) => {
        sends.push(new URL(request.url).searchParams.get('phone') ?? '');
        return status === 200
          ? HttpResponse.json(ok({ key: 'k', expiresIn: 300 }))
          : HttpResponse.json({ code: status, success: false, msg }, { status, headers });
      }),
    );

  it('survives a reload: the phone tab comes back with its phone and the button still counting', async () => {
    answer(200);
    const first = load();
    await openPhoneTab('13800000000');
    fireEvent.click(sendButton());
    expect(await screen.findByRole('button', { name: /^(59|60)秒后重发$/ })).toBeDisabled();
    expect(sends).toEqual(['13800000000']);
    first.unmount();

    load();
    const btn = await screen.findByRole('button', { name: /^(5[0-9]|60)秒后重发$/ });
    expect(btn).toBeDisabled();
    expect(screen.getByRole('tab', { name: '手机号登录' })).toHaveAttribute('aria-selected', 'true');
    expect(screen.getByLabelText('请输入手机号码')).toHaveValue('13800000000');

    // The wait is the phone's: another phone may be sent a code.
    fireEvent.change(screen.getByLabelText('请输入手机号码'), { target: { value: '13900000000' } });
    expect(sendButton()).toHaveTextContent('获取验证码');
    expect(sendButton()).toBeEnabled();
    fireEvent.change(screen.getByLabelText('请输入手机号码'), { target: { value: '13800000000' } });
    expect(sendButton()).toBeDisabled();
  });

  it("counts down the wait a 429 names in Retry-After, and keeps it across a reload", async () => {
    answer(429, { 'Retry-After': '42' });
    const first = load();
    await openPhoneTab('13800000000');
    fireEvent.click(sendButton());
    expect(await screen.findByRole('button', { name: /^(41|42)秒后重发$/ })).toBeDisabled();
    expect(await screen.findByText('短信验证码发送过于频繁,请稍后再试')).toBeInTheDocument();
    first.unmount();

    load();
    expect(await screen.findByRole('button', { name: /^(4[0-2])秒后重发$/ })).toBeDisabled();
  });

  it("shows the server's message for a 429 naming no wait, and the button stays usable", async () => {
    answer(429, {}, '您的网络地址发送短信过于频繁,请稍后再试');
    load();
    await openPhoneTab('13800000000');
    fireEvent.click(sendButton());
    expect(await screen.findByText('您的网络地址发送短信过于频繁,请稍后再试')).toBeInTheDocument();
    expect(sendButton()).toHaveTextContent('获取验证码');
    expect(sendButton()).toBeEnabled();
    expect(sessionStorage.getItem('bb-sms-countdown') ?? '[]').toBe('[]');
  });

  it('opens on the account tab once the countdown has run out', async () => {
    sessionStorage.setItem('bb-sms-countdown', JSON.stringify([{ tenantId: '000000', phone: '13800000000', until: Date.now() - 1 }]));
    load();
    expect(await screen.findByRole('tab', { name: '账号密码' })).toHaveAttribute('aria-selected', 'true');
    await openPhoneTab();
    expect(screen.getByLabelText('请输入手机号码')).toHaveValue('');
    expect(sendButton()).toBeEnabled();
  });
});
