import { describe, expect, it, beforeEach } from 'vitest';
import { http, HttpResponse } from 'msw';
import { screen, waitFor, fireEvent } from '@testing-library/react';
import { md5 } from 'js-md5';
import { server } from '../../test/server';
import { ok, renderWithProviders } from '../../test/utils';
import { setLanguage } from '../../i18n';
import userEvent from '@testing-library/user-event';
import { website } from '../../config';
import { useUserStore } from '../../store/user';
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

  it('uploads a jpg/png avatar of at most 500kb, refuses others, and the header avatar follows the save', async () => {
    const uploads: string[] = [];
    let body: { avatar?: string } | undefined;
    server.use(
      http.get('*/api/blade-user/info', () => HttpResponse.json(ok({ name: 'Admin', realName: '管理员', phone: '13800138000', email: '', avatar: '' }))),
      http.post('*/api/blade-resource/oss/endpoint/put-file', async ({ request }) => {
        uploads.push(((await request.formData()).get('file') as File).type);
        return HttpResponse.json(ok({ link: '/api/blade-resource/oss/endpoint/file/000000/me.png?sig=1' }));
      }),
      http.post('*/api/blade-user/update-info', async ({ request }) => {
        body = (await request.json()) as { avatar?: string };
        return HttpResponse.json(ok(null));
      }),
    );
    const { container } = renderWithProviders(<InfoPage />);
    await waitFor(() => expect(screen.getByLabelText('姓名')).toHaveValue('Admin'));
    // The avatar is an upload (no text box), showing the default avatar while empty.
    expect(screen.getByRole('button', { name: /上传头像/ })).toBeInTheDocument();
    expect(container.querySelector('#info_avatar input[type=text]')).toBeNull();
    expect(container.querySelector('#info_avatar .ant-avatar img')).toHaveAttribute('src', website.defaultAvatar);
    // rc-upload draws a new file input after each choice: look it up each time.
    const input = () => container.querySelector('#info_avatar input[type=file]') as HTMLInputElement;
    expect(input()).toHaveAttribute('accept', 'image/jpeg,image/png');

    // applyAccept off: a file the picker would have hidden still reaches the check.
    const user = userEvent.setup({ applyAccept: false });
    await user.upload(input(), new File(['GIF89a'], 'me.gif', { type: 'image/gif' }));
    expect(await screen.findByText('头像只能是 JPG/PNG 格式!')).toBeInTheDocument();
    await user.upload(input(), new File([new Uint8Array(500 * 1024 + 1)], 'big.png', { type: 'image/png' }));
    expect(await screen.findByText('头像大小不能超过 500kb!')).toBeInTheDocument();
    expect(uploads).toEqual([]);

    await user.upload(input(), new File([new Uint8Array([137, 80, 78, 71])], 'me.png', { type: 'image/png' }));
    await waitFor(() => expect(container.querySelector('#info_avatar .ant-avatar img')).toHaveAttribute('src', '/api/blade-resource/oss/endpoint/file/000000/me.png?sig=1'));
    expect(uploads).toEqual(['image/png']); // the png alone: the refused files were never sent
    expect(useUserStore.getState().userInfo.avatar).not.toBe('/api/blade-resource/oss/endpoint/file/000000/me.png?sig=1');
    fireEvent.click(screen.getByRole('button', { name: /保\s*存/ }));
    await waitFor(() => expect(body?.avatar).toBe('/api/blade-resource/oss/endpoint/file/000000/me.png?sig=1'));
    await waitFor(() => expect(useUserStore.getState().userInfo.avatar).toBe('/api/blade-resource/oss/endpoint/file/000000/me.png?sig=1'));
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
