import { useMemo, useState } from 'react';
import { Form, Input, Tag } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import DragDialog from '../components/DragDialog';
import RowButton from '../resource/RowButton';
import { perform } from './perform';
import { deleteInstance, followList, type InstanceRef, type InstanceRow, type Params } from './api';
import FlowTable, { flowListKey } from './FlowTable';
import { ProgressDialog } from './ProcessProgress';
import { announceTasksChanged } from './events';
import { useCan } from './perm';

/** /flow/follow: running instances, each with its highlighted diagram and history; delete with a reason. */
export default function FollowPage() {
  const { t } = useTranslation();
  const client = useQueryClient();
  const can = useCan();
  const [progress, setProgress] = useState<InstanceRef | null>(null);
  const [deleting, setDeleting] = useState<InstanceRow | null>(null);
  const [busy, setBusy] = useState(false);
  const [form] = Form.useForm<{ reason: string }>();
  const columns = useMemo<ColumnsType<InstanceRow>>(
    () => [
      { key: 'processDefinitionName', dataIndex: 'processDefinitionName', title: t('flow.processName'), width: 180 },
      { key: 'processDefinitionKey', dataIndex: 'processDefinitionKey', title: t('flow.processKey'), width: 130 },
      { key: 'processDefinitionVersion', dataIndex: 'processDefinitionVersion', title: t('flow.version'), width: 80, render: (v: unknown) => <Tag>v{String(v)}</Tag> },
      { key: 'businessKey', dataIndex: 'businessKey', title: t('flow.businessKey'), width: 200 },
      { key: 'taskNames', dataIndex: 'taskNames', title: t('flow.currentTask'), width: 150 },
      { key: 'startUserName', dataIndex: 'startUserName', title: t('flow.startUser'), width: 110 },
      { key: 'startTime', dataIndex: 'startTime', title: t('flow.startTime'), width: 170 },
    ],
    [t],
  );
  const remove = async () => {
    const { reason } = await form.validateFields();
    setBusy(true);
    await perform(
      () => deleteInstance(deleting!.processInstanceId, reason.trim()),
      () => {
        announceTasksChanged();
        setDeleting(null);
        return client.invalidateQueries({ queryKey: flowListKey('follow') });
      },
    );
    setBusy(false);
  };
  return (
    <>
      <FlowTable<InstanceRow>
        listKey="follow"
        fetch={(p: Params) => followList(p)}
        columns={columns}
        rowKey={(r) => r.processInstanceId}
        filters={[{ kind: 'text', name: 'processDefinitionKey', label: t('flow.processKey') }, { kind: 'text', name: 'businessKey', label: t('flow.businessKey') }]}
        actionWidth={150}
        actions={(r) => (
          <>
            {can('flow_follow_view') && <RowButton onClick={() => setProgress({ processInstanceId: r.processInstanceId })}>{t('flow.diagram')}</RowButton>}
            {can('flow_follow_delete') && (
              <RowButton
                danger
                onClick={() => {
                  form.resetFields();
                  setDeleting(r);
                }}
              >
                {t('crud.delete')}
              </RowButton>
            )}
          </>
        )}
      />
      <ProgressDialog instance={progress} onClose={() => setProgress(null)} />
      <DragDialog title={t('flow.deleteInstance')} open={deleting !== null} onCancel={() => setDeleting(null)} onOk={() => void remove().catch(() => undefined)} confirmLoading={busy} okButtonProps={{ danger: true }} width={520} forceRender>
        <Form form={form} layout="vertical" name="delete-instance">
          <Form.Item name="reason" label={t('flow.deleteReason')} rules={[{ required: true, whitespace: true, message: t('flow.deleteReasonRequired') }]}>
            <Input.TextArea rows={3} maxLength={255} showCount />
          </Form.Item>
        </Form>
      </DragDialog>
    </>
  );
}
