import { useState } from 'react';
import { Button, Tooltip, Upload } from 'antd';
import { LoadingOutlined, UploadOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import request from '../api/request';
import ResourceCrud, { RowButton } from '../resource/ResourceCrud';
import type { Row } from '../resource/types';
import { WithMeta } from '../system/common';
import { toast } from '../util/notify';

export const PUT_FILE_URL = '/blade-resource/oss/endpoint/put-file';

/** Uploads one file to the tenant's enabled object store; the server registers it as an attachment. */
function UploadButton({ onDone }: { onDone: () => void }) {
  const { t } = useTranslation();
  const [busy, setBusy] = useState(false);
  const upload = async (file: File) => {
    const fd = new FormData();
    fd.append('file', file);
    setBusy(true);
    try {
      await request.post(PUT_FILE_URL, fd);
      toast.success(t('res.uploaded'));
      onDone();
    } catch {
      /* the request wrapper showed the server's message */
    } finally {
      setBusy(false);
    }
  };
  return (
    <Upload showUploadList={false} beforeUpload={(file) => (void upload(file), false)}>
      <Tooltip title={t('res.uploadTip')}>
        <Button type="primary" icon={busy ? <LoadingOutlined /> : <UploadOutlined />} disabled={busy}>
          {busy ? t('res.uploading') : t('res.upload')}
        </Button>
      </Tooltip>
    </Upload>
  );
}

/** Saves a file through its signed link (the server answers it as an attachment). */
export function downloadLink(row: Row) {
  const link = String(row.link ?? '');
  if (!link) return;
  const a = document.createElement('a');
  a.href = link;
  a.download = String(row.originalName ?? '');
  a.rel = 'noopener';
  document.body.appendChild(a);
  a.click();
  a.remove();
}

/** /resource/attach: the tenant's uploads, with upload and download (menu attach). */
export default function AttachPage() {
  const { t } = useTranslation();
  return (
    <WithMeta code="attach">
      {(meta) => (
        <ResourceCrud
          meta={meta}
          hide={['add', 'import']}
          toolbar={(ctx) => ctx.can('attach_upload') && <UploadButton onDone={ctx.reload} />}
          rowActions={(row, ctx) =>
            ctx.can('attach_download') && row.link ? <RowButton onClick={() => downloadLink(row)}>{t('res.download')}</RowButton> : null
          }
        />
      )}
    </WithMeta>
  );
}
