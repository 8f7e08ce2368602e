import { useEffect, useState, type ReactNode } from 'react';
import { Avatar, Button, Image, Upload } from 'antd';
import { DeleteOutlined, LoadingOutlined, UploadOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import request from '../api/request';
import type { R } from '../api/types';
import { website } from '../config';
import { toast } from '../util/notify';

/** The object store's upload (oss put-file): it checks the type from the content and answers a signed link. */
export const PUT_FILE_URL = '/blade-resource/oss/endpoint/put-file';

interface ImageInputProps {
  value?: string;
  onChange?: (v: string) => void;
  disabled?: boolean;
  id?: string;
  /** The file types offered; jpg, png, gif and webp by default. */
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
 * The form control of an image field (type=image), and of the avatar on /info/index: a thumbnail of
 * the stored link, an upload button that sends the chosen file to oss put-file and keeps the link it
 * answers, and a button that clears it. The server accepts only a live upload of the row's tenant, so
 * a typed URL is not offered.
 */
export default function ImageInput({ value, onChange, disabled, id, accept = 'image/jpeg,image/png,image/gif,image/webp', check, avatar, label, tip }: ImageInputProps) {
  const { t } = useTranslation();
  const [busy, setBusy] = useState(false);
  const [broken, setBroken] = useState(false);
  useEffect(() => setBroken(false), [value]);
  const upload = async (file: File) => {
    const fd = new FormData();
    fd.append('file', file);
    setBusy(true);
    try {
      const { data } = await request.post<R<{ link: string }>>(PUT_FILE_URL, fd);
      onChange?.(data.data.link);
    } catch {
      /* the request wrapper showed the server's message */
    } finally {
      setBusy(false);
    }
  };
  let preview: ReactNode = null;
  if (avatar) preview = <Avatar size={avatar} src={value && !broken ? value : website.defaultAvatar} onError={() => (setBroken(true), false)} />;
  else if (value) preview = <Image src={value} width={64} height={64} style={{ objectFit: 'cover' }} />;
  return (
    <div id={id} style={{ display: 'flex', alignItems: 'center', gap: 12, flexWrap: 'wrap' }}>
      {preview}
      <Upload
        accept={accept}
        showUploadList={false}
        disabled={disabled || busy}
        beforeUpload={(file) => {
          const refused = check?.(file);
          if (refused) toast.error(refused);
          else void upload(file);
          return false;
        }}
      >
        <Button icon={busy ? <LoadingOutlined /> : <UploadOutlined />} disabled={disabled || busy}>
          {label ?? t('crud.uploadImage')}
        </Button>
      </Upload>
      {value && !disabled ? <Button type="text" icon={<DeleteOutlined />} aria-label={t('crud.clearImage')} onClick={() => onChange?.('')} /> : null}
      {tip ? <span style={{ color: '#999' }}>{tip}</span> : null}
    </div>
  );
}
