import { describe, expect, it, beforeEach } from 'vitest';
import { http, HttpResponse } from 'msw';
import { screen, waitFor, fireEvent } from '@testing-library/react';
import { md5 } from 'js-md5';
import { server } from '../../test/server';
import { ok, renderWithProviders } from '../../test/utils';
import { setLanguage } from '../../i18n';
import InfoPage from './InfoPage';

describe('personal info page', () => {
  beforeEach(async () => {
    await setLanguage('zh');
  });

  it('validates the phone on blur and saves the profile', async () => {
    let body: unknown;
    server.use(
      http.get('*/api/blade-user/info', () => HttpResponse.json(ok({ name: 'Admin', realName: '管理员', phone: '', email: 'a@b.c', avatar: '' }))),
      http.post('*/api/blade-user/update-info', async ({ request }) => {
        body = await request.json();
        return HttpResponse.json(ok(null));
      }),
    );
    renderWithProviders(<InfoPage />);
    const phone = await screen.findByLabelText('手机号');
    await waitFor(() => expect(screen.getByLabelText('姓名')).toHaveValue('Admin'));
    fireEvent.blur(phone);
    expect(await screen.findByText('手机号码不能为空')).toBeInTheDocument();
    fireEvent.change(phone, { target: { value: '138001' } });
    fireEvent.blur(phone);
    expect(await screen.findByText('手机号码长度不为11位')).toBeInTheDocument();
    fireEvent.change(phone, { target: { value: '12345678901' } });
    fireEvent.blur(phone);
    expect(await screen.findByText('手机号码格式不正确')).toBeInTheDocument();
    fireEvent.change(phone, { target: { value: '13800138000' } });
    fireEvent.blur(phone);
    await waitFor(() => expect(screen.queryByText('手机号码格式不正确')).toBeNull());
    fireEvent.click(screen.getByRole('button', { name: /保\s*存/ }));
    await waitFor(() => expect(body).toEqual({ avatar: '', name: 'Admin', realName: '管理员', phone: '13800138000', email: 'a@b.c' }));
  });

  it('needs matching new passwords and sends them md5-hashed as query parameters', async () => {
    let q: URLSearchParams | undefined;
    server.use(
      http.get('*/api/blade-user/info', () => HttpResponse.json(ok({}))),
      http.post('*/api/blade-user/update-password', ({ request }) => {
        q = new URL(request.url).searchParams;
        return HttpResponse.json(ok(null));
      }),
    );
    renderWithProviders(<InfoPage />);
    fireEvent.click(await screen.findByRole('tab', { name: '修改密码' }));
    fireEvent.change(await screen.findByLabelText('原密码'), { target: { value: 'old' } });
    fireEvent.change(screen.getByLabelText('新密码'), { target: { value: 'n1' } });
    fireEvent.change(screen.getByLabelText('确认密码'), { target: { value: 'n2' } });
    fireEvent.click(screen.getAllByRole('button', { name: /保\s*存/ }).at(-1)!);
    expect(await screen.findByText('两次密码输入不一致')).toBeInTheDocument();
    expect(q).toBeUndefined();
    fireEvent.change(screen.getByLabelText('确认密码'), { target: { value: 'n1' } });
    fireEvent.click(screen.getAllByRole('button', { name: /保\s*存/ }).at(-1)!);
    await waitFor(() => expect(q).toBeDefined());
    expect([q!.get('oldPassword'), q!.get('newPassword'), q!.get('newPassword1')]).toEqual([md5('old'), md5('n1'), md5('n1')]);
  });
});
