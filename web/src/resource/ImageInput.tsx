import { useEffect, useState, type ReactNode } from 'react';
import { Avatar, Button, Image, Progress, Upload } from 'antd';
import { DeleteOutlined, LoadingOutlined, UploadOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import request from '../api/request';
import type { R } from '../api/types';
import { website } from '../config';
import { toast } from '../util/notify';

/** The object store's upload (oss put-file): it checks the type from the content and answers a signed link. */
export const PUT_FILE_URL = '/blade-resource/oss/endpoint/put-file';

/** The largest video put-file?kind=video takes by default (files.VideoMaxSize); the server has the last word. */
export const VIDEO_MAX_MB = 200;

interface ImageInputProps {
  value?: string;
  onChange?: (v: string) => void;
  disabled?: boolean;
  id?: string;
  /** A video field (type=video): MP4 or WebM through put-file?kind=video, with a player and the upload's progress. */
  video?: boolean;
  /** The file types offered; jpg, png, gif and webp by default (mp4 and webm for a video). */
  accept?: string;
  /** Checks a chosen file before it is sent: a message refuses it, shown as a toast. */
  check?: (file: File) => string;
  /** A round avatar of this size in place of the thumbnail, the default avatar while empty or broken. */
  avatar?: number;
  /** The upload button's text (上传图片 by default). */
  label?: ReactNode;
  /** A line beside the buttons (what the field accepts). */
  tip?: ReactNode;
}

/**
 * The form control of an image field (type=image), of a video field (type=video), and of the avatar on
 * /info/index: a preview of the stored link, an upload button that sends the chosen file to oss put-file
 * and keeps the link it answers, and a button that clears it. The server accepts only a live upload of the
 * row's tenant, so a typed URL is not offered.
 */
export default function ImageInput({ value, onChange, disabled, id, video, accept, check, avatar, label, tip }: ImageInputProps) {
  const { t } = useTranslation();
  const [busy, setBusy] = useState(false);
  const [progress, setProgress] = useState<number>();
  const [broken, setBroken] = useState(false);
  useEffect(() => setBroken(false), [value]);
  const upload = async (file: File) => {
    const fd = new FormData();
    fd.append('file', file);
    setBusy(true);
    try {
      const { data } = await request.post<R<{ link: string }>>(video ? `${PUT_FILE_URL}?kind=video` : PUT_FILE_URL, fd, {
        // a video may take longer than the usual request timeout
        ...(video ? { timeout: 0, onUploadProgress: (e) => setProgress(e.total ? Math.floor((e.loaded * 100) / e.total) : undefined) } : {}),
      });
      onChange?.(data.data.link);
    } catch {
      /* the request wrapper showed the server's message */
    } finally {
      setBusy(false);
      setProgress(undefined);
    }
  };
  const refuse = (file: File) => check?.(file) || (video && file.size > VIDEO_MAX_MB << 20 ? t('crud.videoTooLarge', { mb: VIDEO_MAX_MB }) : '');
  let preview: ReactNode = null;
  if (avatar) preview = <Avatar size={avatar} src={value && !broken ? value : website.defaultAvatar} onError={() => (setBroken(true), false)} />;
  else if (value && video) preview = <video src={value} controls preload="metadata" width={240} data-testid="video-preview" />;
  else if (value) preview = <Image src={value} width={64} height={64} style={{ objectFit: 'cover' }} />;
  return (
    <div id={id} style={{ display: 'flex', alignItems: 'center', gap: 12, flexWrap: 'wrap' }}>
      {preview}
      <Upload
        accept={accept ?? (video ? 'video/mp4,video/webm' : 'image/jpeg,image/png,image/gif,image/webp')}
        showUploadList={false}
        disabled={disabled || busy}
        beforeUpload={(file) => {
          const refused = refuse(file);
          if (refused) toast.error(refused);
          else void upload(file);
          return false;
        }}
      >
        <Button icon={busy ? <LoadingOutlined /> : <UploadOutlined />} disabled={disabled || busy}>
          {label ?? t(video ? 'crud.uploadVideo' : 'crud.uploadImage')}
        </Button>
      </Upload>
      {progress !== undefined ? <Progress percent={progress} size="small" style={{ width: 120 }} /> : null}
      {value && !disabled ? <Button type="text" icon={<DeleteOutlined />} aria-label={t(video ? 'crud.clearVideo' : 'crud.clearImage')} onClick={() => onChange?.('')} /> : null}
      {tip || (video && !disabled) ? <span style={{ color: '#999' }}>{tip ?? t('crud.videoTip', { mb: VIDEO_MAX_MB })}</span> : null}
    </div>
  );
}
