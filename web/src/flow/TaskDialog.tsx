import { useState } from 'react';
import { Button, Input, Space, Spin, Tabs, Typography } from 'antd';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import DragDialog from '../components/DragDialog';
import { toast } from '../util/notify';
import { completeTask, taskDetail, taskOf, type TaskRow } from './api';
import { BusinessDocument } from './BusinessDocument';
import { HistoryTimeline } from './HistoryTimeline';
import { InstanceDiagram } from './FlowDiagram';
import { announceTasksChanged } from './events';
import { perform } from './perform';


/**
 * A task or instance opened from a work list: its business document read-only, its history and its
 * highlighted diagram; a to-do task (handle) also takes a comment (default 同意) and is approved or rejected.
 */
export function TaskDialog({ row, handle, onClose }: { row: TaskRow | null; handle?: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const client = useQueryClient();
  // empty, with 同意 as the placeholder an approval sends: a rejection must say why, never "同意"
  const [comment, setComment] = useState<string>('');
  const [busy, setBusy] = useState<'ok' | 'reject' | null>(null);
  const taskId = taskOf(row);
  // the dialog stays mounted between tasks: the next task starts without the last one's comment
  const [commentOf, setCommentOf] = useState(taskId);
  if (commentOf !== taskId) {
    setCommentOf(taskId);
    setComment('');
  }
  const { data: detail, isLoading } = useQuery({
    queryKey: ['flow', 'task-detail', taskId],
    queryFn: () => taskDetail(taskId!),
    enabled: Boolean(taskId),
  });
  const doc = detail ?? row ?? {};
  const complete = async (flag: 'ok' | 'reject') => {
    if (!row || !taskId) return;
    if (flag === 'reject' && !comment.trim()) {
      toast.error(t('flow.rejectNeedsComment'));
      return;
    }
    setBusy(flag);
    await perform(
      () => completeTask({ taskId, processInstanceId: row.processInstanceId, flag, comment: comment.trim() || t('flow.defaultComment') }),
      () => {
        announceTasksChanged();
        onClose();
        return client.invalidateQueries({ queryKey: ['flow', 'list'] });
      },
    );
    setBusy(null);
  };
  const title = row ? `${row.processDefinitionName ?? ''}${row.taskName ? ` · ${row.taskName}` : ''}` : '';
  return (
    <DragDialog
      title={title}
      open={row !== null}
      onCancel={onClose}
      width={1100}
      destroyOnHidden
      footer={
        handle ? (
          <Space>
            <Button onClick={onClose}>{t('crud.cancel')}</Button>
            <Button danger loading={busy === 'reject'} disabled={busy !== null} onClick={() => void complete('reject')}>
              {t('flow.reject')}
            </Button>
            <Button type="primary" loading={busy === 'ok'} disabled={busy !== null} onClick={() => void complete('ok')}>
              {t('flow.approve')}
            </Button>
          </Space>
        ) : (
          <Button onClick={onClose}>{t('crud.close')}</Button>
        )
      }
    >
      {row && (
        <>
          {isLoading ? (
            <Spin />
          ) : (
            <Tabs
              destroyOnHidden
              items={[
                { key: 'doc', label: t('flow.document'), children: <BusinessDocument doc={doc} /> },
                { key: 'history', label: t('flow.history'), children: <HistoryTimeline instance={{ processInstanceId: row.processInstanceId }} /> },
                { key: 'diagram', label: t('flow.diagram'), children: <InstanceDiagram instance={{ processInstanceId: row.processInstanceId }} height={420} /> },
              ]}
            />
          )}
          {handle && (
            <div style={{ marginTop: 12 }}>
              <Typography.Text strong>{t('flow.comment')}</Typography.Text>
              <Input.TextArea aria-label={t('flow.comment')} placeholder={t('flow.defaultComment')} rows={3} maxLength={500} showCount value={comment} onChange={(e) => setComment(e.target.value)} />
            </div>
          )}
        </>
      )}
    </DragDialog>
  );
}
