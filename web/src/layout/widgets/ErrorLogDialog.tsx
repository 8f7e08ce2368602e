import { App as AntApp, Button, Space, Table, Tag } from 'antd';
import { CloudUploadOutlined, DeleteOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import DragDialog from '../../components/DragDialog';
import { useLogsStore, type LogEntry } from '../../store/logs';
import { sendLogs } from '../../api/user';
import { toast } from '../../util/notify';

/** The full-screen error-log dialog (spec §2): table, expandable stack, upload and clear. */
export default function ErrorLogDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const logsList = useLogsStore((s) => s.logsList);
  const clear = useLogsStore((s) => s.clear);
  // antd's hook-based modal renders inside App's context (theme, locale) and unmounts with the tree.
  const { modal } = AntApp.useApp();

  const confirm = (content: string, onOk: () => Promise<void> | void) =>
    modal.confirm({ title: t('navbar.tip'), content, okText: t('common.ok'), cancelText: t('common.cancel'), onOk });

  const upload = () =>
    confirm(t('errlog.uploadConfirm'), async () => {
      await sendLogs(logsList);
      clear();
      toast.success(t('errlog.uploaded'));
    });

  const clearAll = () =>
    confirm(t('errlog.clearConfirm'), () => {
      clear();
      toast.success(t('errlog.cleared'));
    });

  return (
    <DragDialog title={t('errlog.title')} open={open} fullscreen footer={null} onCancel={onClose}>
      <Space style={{ marginBottom: 12 }}>
        <Button type="primary" icon={<CloudUploadOutlined />} onClick={upload} disabled={logsList.length === 0}>
          {t('errlog.upload')}
        </Button>
        <Button danger icon={<DeleteOutlined />} onClick={clearAll} disabled={logsList.length === 0}>
          {t('errlog.clear')}
        </Button>
      </Space>
      <Table<LogEntry & { key: number }>
        size="small"
        bordered
        pagination={false}
        locale={{ emptyText: t('errlog.empty') }}
        dataSource={logsList.map((l, i) => ({ ...l, key: i }))}
        expandable={{
          expandedRowRender: (r) => (
            <pre className="bb-stack">
              {r.stack}
              {r.info ? `\n${r.info}` : ''}
            </pre>
          ),
        }}
        columns={[
          { title: t('errlog.type'), dataIndex: 'type', width: 100, render: (v: string) => <Tag color="red">{v}</Tag> },
          { title: t('errlog.url'), dataIndex: 'url', width: 260, ellipsis: true },
          { title: t('errlog.message'), dataIndex: 'message', ellipsis: true },
          { title: t('errlog.time'), dataIndex: 'time', width: 180 },
        ]}
      />
    </DragDialog>
  );
}

