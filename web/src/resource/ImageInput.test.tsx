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

  it('a video field uploads MP4 or WebM with kind=video, and shows a player', async () => {
    const kinds: (string | null)[] = [];
    server.use(
      http.post('*/blade-resource/oss/endpoint/put-file', ({ request }) => {
        kinds.push(new URL(request.url).searchParams.get('kind'));
        return HttpResponse.json(ok({ link: '/api/blade-resource/oss/endpoint/file/000000/v.mp4?sig=1' }));
      }),
    );
    const onChange = vi.fn();
    const { container, rerender } = renderWithProviders(<ImageInput video onChange={onChange} />);
    const input = container.querySelector('input[type=file]') as HTMLInputElement;
    expect(input).toHaveAttribute('accept', 'video/mp4,video/webm');
    expect(screen.getByText('MP4 或 WebM, 不超过 200MB')).toBeInTheDocument();
    await userEvent.upload(input, new File([new Uint8Array(32)], 'intro.mp4', { type: 'video/mp4' }));
    await waitFor(() => expect(onChange).toHaveBeenCalledWith('/api/blade-resource/oss/endpoint/file/000000/v.mp4?sig=1'));
    expect(kinds).toEqual(['video']);

    rerender(<ImageInput video value="/api/blade-resource/oss/endpoint/file/000000/v.mp4" onChange={onChange} />);
    expect(screen.getByTestId('video-preview')).toHaveAttribute('src', '/api/blade-resource/oss/endpoint/file/000000/v.mp4');
    await userEvent.click(screen.getByRole('button', { name: '清除视频' }));
    expect(onChange).toHaveBeenLastCalledWith('');
  });

  it('a video over the limit is refused before it is sent', async () => {
    let sent = 0;
    server.use(http.post('*/blade-resource/oss/endpoint/put-file', () => ((sent += 1), HttpResponse.json(ok({ link: 'x' })))));
    const { container } = renderWithProviders(<ImageInput video onChange={vi.fn()} />);
    const huge = new File([new Uint8Array(1)], 'huge.mp4', { type: 'video/mp4' });
    Object.defineProperty(huge, 'size', { value: (200 << 20) + 1 });
    await userEvent.upload(container.querySelector('input[type=file]') as HTMLInputElement, huge);
    expect(await screen.findByText('上传视频大小不能超过 200MB!')).toBeInTheDocument();
    expect(sent).toBe(0);
  });
});
