import { describe, expect, it, vi } from 'vitest';
import { http, HttpResponse } from 'msw';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { server } from '../test/server';
import { ok, renderWithProviders } from '../test/utils';
import ImageInput from './ImageInput';

describe('the image field control', () => {
  it('uploads the chosen file through oss put-file and keeps the link it answers', async () => {
    let sent: File | null = null;
    server.use(
      http.post('*/blade-resource/oss/endpoint/put-file', async ({ request }) => {
        sent = (await request.formData()).get('file') as File;
        return HttpResponse.json(ok({ link: '/api/blade-resource/oss/endpoint/file/000000/a.png?sig=1' }));
      }),
    );
    const onChange = vi.fn();
    const { container } = renderWithProviders(<ImageInput onChange={onChange} />);
    const input = container.querySelector('input[type=file]') as HTMLInputElement;
    await userEvent.upload(input, new File([new Uint8Array([137, 80, 78, 71])], 'cover.png', { type: 'image/png' }));
    await waitFor(() => expect(onChange).toHaveBeenCalledWith('/api/blade-resource/oss/endpoint/file/000000/a.png?sig=1'));
    expect(sent).not.toBeNull(); // the file went as the multipart field 'file'
  });

  it('shows the stored image and clears it', async () => {
    const onChange = vi.fn();
    const { container } = renderWithProviders(<ImageInput value="/api/blade-resource/oss/endpoint/file/000000/a.png" onChange={onChange} />);
    expect(container.querySelector('img.ant-image-img')).toHaveAttribute('src', '/api/blade-resource/oss/endpoint/file/000000/a.png');
    await userEvent.click(screen.getByRole('button', { name: '清除图片' }));
    expect(onChange).toHaveBeenCalledWith('');
  });
});
