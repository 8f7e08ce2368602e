import { Skeleton, Tag, Typography } from 'antd';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import DragDialog from '../components/DragDialog';
import { useDict } from '../resource/fields';
import type { FieldMeta } from '../resource/types';
import { NOTICES_KEY, noticeDetail } from './api';
import './desk.css';
import '../resource/richtext.css';

const CATEGORY = { name: 'category', type: 'dict', dict: 'notice', label: { zh: '通知类型', en: 'Type' } } as unknown as FieldMeta;

/**
 * Reads one notice: its detail (which records that the user has read it), the body as the server sanitised
 * it. Closing it refreshes the bell and the home page, where the notice is no longer marked unread.
 */
export default function NoticeDialog({ id, onClose }: { id?: string; onClose: () => void }) {
  const { t } = useTranslation();
  const client = useQueryClient();
  const categories = useDict(CATEGORY);
  const { data, isLoading } = useQuery({ queryKey: ['desk', 'notice', id], queryFn: () => noticeDetail(id!), enabled: Boolean(id), staleTime: 0 });
  useEffect(() => {
    if (data) void client.invalidateQueries({ queryKey: NOTICES_KEY });
  }, [data, client]);
  const category = categories.find((c) => c.dictKey === String(data?.category))?.dictValue;
  return (
    <DragDialog open={Boolean(id)} title={data?.title ?? t('desk.notice')} width={720} footer={null} onCancel={onClose} destroyOnHidden>
      {isLoading || !data ? (
        <Skeleton active />
      ) : (
        <div data-testid="notice-reader">
          <Typography.Paragraph type="secondary">
            {category && <Tag color="blue">{category}</Tag>}
            {data.releaseTime}
          </Typography.Paragraph>
          {/* the server sanitised the body before storing it: no script, handler or javascript: URL is in it */}
          <div className="bb-rich" dangerouslySetInnerHTML={{ __html: data.content ?? '' }} />
        </div>
      )}
    </DragDialog>
  );
}
