import { useEffect } from 'react';
import { Badge, Empty } from 'antd';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import PageSpin from '../components/PageSpin';
import { useResources } from '../resource/ResourcePage';
import ResourceCrud from '../resource/ResourceCrud';
import { NOTICES_KEY } from './api';
import RichTextEditor from '../resource/RichTextEditor';

/**
 * 通知公告 (/desk/notice): the generic page of blade-desk/notice, with a rich-text editor for the body (read
 * only in the view dialog, where opening a notice marks it read) and the user's unread notices marked.
 */
export default function NoticePage() {
  const { t } = useTranslation();
  const { data, isLoading } = useResources();
  if (isLoading) return <PageSpin />;
  const meta = data?.find((r) => r.menuCode === 'notice');
  if (!meta) return <Empty description={t('crud.notFound')} style={{ marginTop: 80 }} />;
  return (
    <ResourceCrud
      meta={meta}
      dialogWidth={860}
      inputs={{ content: ({ disabled, mode }) => <NoticeBody disabled={disabled} viewing={mode === 'view'} /> }}
      cells={{
        title: (value, row) =>
          row.read ? (
            String(value ?? '')
          ) : (
            <Badge dot offset={[6, 0]} title={t('desk.unread')}>
              <strong>{String(value ?? '')}</strong>
            </Badge>
          ),
      }}
    />
  );
}

/**
 * The body's form control. The view dialog shows it after fetching the detail, which recorded the read: the
 * bell and the home page are told, so the notice is no longer marked there.
 */
function NoticeBody({ viewing, ...rest }: { viewing: boolean; disabled: boolean; value?: string; onChange?: (html: string) => void }) {
  const client = useQueryClient();
  useEffect(() => {
    if (viewing) void client.invalidateQueries({ queryKey: NOTICES_KEY });
  }, [viewing, client]);
  const { t } = useTranslation();
  return <RichTextEditor label={t('desk.content')} {...rest} />;
}
