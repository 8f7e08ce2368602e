import { useState } from 'react';
import { Button, Image, Upload } from 'antd';
import { DeleteOutlined, LoadingOutlined, UploadOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import request from '../api/request';
import type { R } from '../api/types';

/** The object store's upload (oss put-file): it checks the type from the content and answers a signed link. */
export const PUT_FILE_URL = '/blade-resource/oss/endpoint/put-file';

/**
 * The form control of an image field (type=image): a thumbnail of the stored link, an upload button that sends
 * the chosen file to oss put-file and keeps the link it answers, and a button that clears it. The server accepts
 * only a live upload of the row's tenant, so a typed URL is not offered.
 */
export default function ImageInput({ value, onChange, disabled, id }: { value?: string; onChange?: (v: string) => void; disabled?: boolean; id?: string }) {
  const { t } = useTranslation();
  const [busy, setBusy] = useState(false);
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
  return (
    <div id={id} style={{ display: 'flex', alignItems: 'center', gap: 12 }}>
      {value ? <Image src={value} width={64} height={64} style={{ objectFit: 'cover' }} /> : null}
      <Upload
        accept="image/jpeg,image/png,image/gif,image/webp"
        showUploadList={false}
        disabled={disabled || busy}
        beforeUpload={(file) => {
          void upload(file);
          return false;
        }}
      >
        <Button icon={busy ? <LoadingOutlined /> : <UploadOutlined />} disabled={disabled || busy}>
          {t('crud.uploadImage')}
        </Button>
      </Upload>
      {value && !disabled ? <Button type="text" icon={<DeleteOutlined />} aria-label={t('crud.clearImage')} onClick={() => onChange?.('')} /> : null}
    </div>
  );
}
