import { describe, expect, it, beforeEach } from 'vitest';
import { act, screen, fireEvent, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { server } from '../../test/server';
import { ok, renderWithProviders } from '../../test/utils';
import ErrorLogButton from './ErrorLogButton';
import { useLogsStore } from '../../store/logs';
import { website } from '../../config';
import { setLanguage } from '../../i18n';

describe('error-log dialog', () => {
  beforeEach(async () => {
    await setLanguage('zh');
    useLogsStore.getState().clear();
  });

  it('caps the badge at 99', () => {
    for (let i = 0; i < 120; i++) useLogsStore.getState().add({ message: `e${i}` });
    renderWithProviders(<ErrorLogButton />);
    expect(screen.getByText('99+')).toBeInTheDocument();
  });

  it('lists type, address, content and time, with an expandable stack', async () => {
    useLogsStore.getState().add({ type: 'error', message: 'kaboom', stack: 'at Foo (foo.tsx:1)', url: 'http://h/x' });
    renderWithProviders(<ErrorLogButton />);
    fireEvent.click(screen.getByRole('button', { name: '错误日志' }));
    const dialog = await screen.findByRole('dialog');
    for (const h of ['类型', '地址', '内容', '时间']) expect(within(dialog).getByText(h)).toBeInTheDocument();
    expect(within(dialog).getByText('kaboom')).toBeInTheDocument();
    fireEvent.click(within(dialog).getByRole('button', { name: /expand|展开/i }));
    expect(await within(dialog).findByText(/at Foo/)).toBeInTheDocument();
  });

  it('uploads after confirmation (发送成功!) and clears after confirmation (清空成功!)', async () => {
    let sent: unknown;
    server.use(
      http.post(`*/api${website.errorLogUploadUrl}`, async ({ request }) => {
        sent = await request.json();
        return HttpResponse.json(ok(null));
      }),
    );
    useLogsStore.getState().add({ message: 'one' });
    renderWithProviders(<ErrorLogButton />);
    fireEvent.click(screen.getByRole('button', { name: '错误日志' }));
    fireEvent.click(await screen.findByRole('button', { name: /上传服务器/ }));
    expect(await screen.findByText('确定上传本地日志到服务器?')).toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: /确\s*定/ }));
    await waitFor(() => expect(Array.isArray(sent) && (sent as { message: string }[])[0].message).toBe('one'));
    expect(await screen.findByText('发送成功!')).toBeInTheDocument();

    act(() => useLogsStore.getState().add({ message: 'two' }));
    fireEvent.click(await screen.findByRole('button', { name: /清空本地日志/ }));
    expect(await screen.findByText('确定清空本地日志记录?')).toBeInTheDocument();
    const confirms = screen.getAllByRole('button', { name: /确\s*定/ });
    fireEvent.click(confirms[confirms.length - 1]);
    expect(await screen.findByText('清空成功!')).toBeInTheDocument();
    expect(useLogsStore.getState().logsList).toHaveLength(0);
  });
});
