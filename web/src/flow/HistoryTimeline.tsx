import { Empty, Spin, Tag, Timeline, Typography } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { historyList, type HistoryRow, type InstanceRef } from './api';

function color(h: HistoryRow): string {
  if (h.pass === false) return 'red';
  if (!h.endTime) return 'blue';
  return 'green';
}

/** An instance's history (process/history-flow-list) as a timeline: who did what, when, with which comment. */
export function HistoryTimeline({ instance }: { instance: InstanceRef }) {
  const { t } = useTranslation();
  const { data, isLoading } = useQuery({ queryKey: ['flow', 'history', instance], queryFn: () => historyList(instance) });
  if (isLoading) return <Spin />;
  if (!data?.length) return <Empty description={t('flow.noHistory')} />;
  return (
    <Timeline
      style={{ marginTop: 8 }}
      items={data.map((h, i) => ({
        key: `${h.historyActivityId}-${i}`,
        color: color(h),
        content: (
          <div data-testid="flow-history-item">
            <Typography.Text strong>{h.historyActivityName || h.historyActivityId}</Typography.Text>
            {h.assigneeName || h.assignee ? <span> · {h.assigneeName || h.assignee}</span> : null}
            {h.pass === true && <Tag color="green" style={{ marginInlineStart: 8 }}>{t('flow.passed')}</Tag>}
            {h.pass === false && <Tag color="red" style={{ marginInlineStart: 8 }}>{t('flow.rejectedTag')}</Tag>}
            {!h.endTime && <Tag color="blue" style={{ marginInlineStart: 8 }}>{t('flow.pending')}</Tag>}
            <div>
              <Typography.Text type="secondary">
                {h.createTime}
                {h.endTime ? ` → ${h.endTime}` : ''}
                {h.historyActivityDurationTime ? ` (${h.historyActivityDurationTime})` : ''}
              </Typography.Text>
            </div>
            {h.comment && <div>{t('flow.comment')}: {h.comment}</div>}
          </div>
        ),
      }))}
    />
  );
}
