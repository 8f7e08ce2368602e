import { Badge, Empty } from 'antd';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import PageSpin from '../components/PageSpin';
import { useResources } from '../resource/ResourcePage';
import ResourceCrud from '../resource/ResourceCrud';
import { NOTICES_KEY } from './api';

/**
 * 通知公告 (/desk/notice): the generic page of blade-desk/notice with the user's unread notices marked. Opening
 * a notice fetches its detail, which records the read: the bell and the home page are told, so it is no longer
 * marked there.
 */
export default function NoticePage() {
  const { t } = useTranslation();
  const { data, isLoading } = useResources();
  const client = useQueryClient();
  if (isLoading) return <PageSpin />;
  const meta = data?.find((r) => r.menuCode === 'notice');
  if (!meta) return <Empty description={t('crud.notFound')} style={{ marginTop: 80 }} />;
  return (
    <ResourceCrud
      meta={meta}
      dialogWidth={860}
      onDetail={() => void client.invalidateQueries({ queryKey: NOTICES_KEY })}
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

