import { useMemo, useState } from 'react';
import { Alert, Button, Progress, Space, Table, Typography, Upload, type TableProps } from 'antd';
import { DownloadOutlined, InboxOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import DragDialog from '../components/DragDialog';
import { localized } from '../i18n';
import { toast } from '../util/notify';
import { fieldLabel } from './fields';
import { downloadImportTemplate, IMPORT_MAX_ROWS, importFileProblem, uploadImport, type ImportError, type ImportResult } from './importFile';
import type { ResourceMeta } from './types';

export interface ImportDialogProps {
  meta: ResourceMeta;
  onClose: () => void;
  /** Called after rows were written (the list reloads). */
  onImported: () => unknown;
}

/**
 * Excel import of a resource (meta.actions has "import"): download the template, choose an .xlsx, upload it
 * with a progress bar of the bytes sent, then show the counts or a table of every row's errors. The server
 * checks the whole file before writing and writes all or nothing, in one request: there is no job to poll.
 */
type Phase = { kind: 'idle' } | { kind: 'sending'; percent: number } | { kind: 'done'; result: ImportResult } | { kind: 'refused'; message: string; errors: ImportError[] };

export default function ImportDialog({ meta, onClose, onImported }: ImportDialogProps) {
  const { t } = useTranslation();
  const [file, setFile] = useState<File | null>(null);
  const [phase, setPhase] = useState<Phase>({ kind: 'idle' });
  const [downloading, setDownloading] = useState(false);
  const sending = phase.kind === 'sending';

  const labels = useMemo(() => new Map(meta.fields.map((f) => [f.name, fieldLabel(f)])), [meta.fields]);
  const columns = useMemo<NonNullable<TableProps<ImportError>['columns']>>(
    () => [
      { title: t('crud.importRow'), dataIndex: 'row', key: 'row', width: 80, align: 'center' },
      { title: t('crud.importField'), dataIndex: 'field', key: 'field', width: 160, render: (name: string) => (name ? (labels.get(name) ?? name) : '-') },
      { title: t('crud.importMessage'), dataIndex: 'message', key: 'message' },
    ],
    [t, labels],
  );

  const choose = (f: File) => {
    const problem = importFileProblem(f);
    if (problem) {
      toast.error(t(problem === 'type' ? 'crud.importNotXlsx' : problem === 'size' ? 'crud.importTooBig' : 'crud.importEmpty'));
      return;
    }
    setFile(f);
    setPhase({ kind: 'idle' });
  };

  const start = async () => {
    if (!file) return;
    setPhase({ kind: 'sending', percent: 0 });
    try {
      const outcome = await uploadImport(meta, file, (percent) => setPhase({ kind: 'sending', percent }));
      if (outcome.ok) {
        setPhase({ kind: 'done', result: outcome.result });
        setFile(null);
        await onImported();
      } else {
        setPhase({ kind: 'refused', message: outcome.message, errors: outcome.errors });
      }
    } catch {
      setPhase({ kind: 'idle' }); // shown by the request layer
    }
  };

  const template = async () => {
    setDownloading(true);
    try {
      await downloadImportTemplate(meta, localized(meta.label) || meta.name);
    } catch {
      /* shown by the request layer */
    } finally {
      setDownloading(false);
    }
  };

  return (
    <DragDialog
      open
      title={`${t('crud.import')} - ${localized(meta.label) || meta.name}`}
      width={760}
      onCancel={onClose}
      mask={{ closable: !sending }}
      closable={!sending}
      footer={
        <Space>
          <Button onClick={onClose} disabled={sending}>
            {t('crud.close')}
          </Button>
          <Button type="primary" onClick={() => void start()} disabled={!file} loading={sending}>
            {t('crud.importStart')}
          </Button>
        </Space>
      }
    >
      <Space orientation="vertical" style={{ width: '100%' }} size="middle">
        <Space wrap>
          <Button icon={<DownloadOutlined />} loading={downloading} onClick={() => void template()}>
            {t('crud.importTemplate')}
          </Button>
          <Typography.Text type="secondary">{t('crud.importHint', { rows: IMPORT_MAX_ROWS })}</Typography.Text>
        </Space>
        <Upload.Dragger
          accept=".xlsx,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
          multiple={false}
          showUploadList={false}
          disabled={sending}
          beforeUpload={(f) => {
            choose(f);
            return false;
          }}
        >
          <p className="ant-upload-drag-icon">
            <InboxOutlined />
          </p>
          <p className="ant-upload-text">{file ? file.name : t('crud.importChoose')}</p>
        </Upload.Dragger>
        {phase.kind === 'sending' && (
          <div>
            <Progress percent={phase.percent} status="active" />
            <Typography.Text type="secondary">{phase.percent < 100 ? t('crud.importUploading') : t('crud.importProcessing')}</Typography.Text>
          </div>
        )}
        {phase.kind === 'done' && (
          <Alert type="success" showIcon title={t('crud.importDone', { inserted: phase.result.inserted, updated: phase.result.updated })} />
        )}
        {phase.kind === 'refused' && (
          <>
            <Alert type="error" showIcon title={phase.message} description={t('crud.importNothingSaved')} />
            <Table<ImportError>
              className="bb-import-errors"
              size="small"
              bordered
              rowKey={(e) => `${e.row}-${e.field}-${e.message}`}
              columns={columns}
              dataSource={phase.errors}
              pagination={{ pageSize: 10, showSizeChanger: false, hideOnSinglePage: true }}
            />
          </>
        )}
      </Space>
    </DragDialog>
  );
}
