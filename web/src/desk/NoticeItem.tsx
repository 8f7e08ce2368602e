import { Avatar, Badge } from 'antd';
import { NotificationOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import type { NoticeRow } from './api';
import './desk.css';

/** One notice in a list: bold with a dot while unread. */
export default function NoticeItemRow({ notice, onOpen }: { notice: NoticeRow; onOpen: () => void }) {
  const { t } = useTranslation();
  return (
    <div className={`bb-item ${notice.read ? 'bb-notice-read' : 'bb-notice-unread'}`} role="button" tabIndex={0} onClick={onOpen} onKeyDown={(e) => e.key === 'Enter' && onOpen()} data-read={notice.read}>
      <Badge dot={!notice.read} title={notice.read ? undefined : t('desk.unread')}>
        <Avatar size="small" icon={<NotificationOutlined />} />
      </Badge>
      <div className="bb-item-text">
        <div className="bb-item-title">{notice.title}</div>
        <div className="bb-item-desc">{`${notice.read ? '' : `${t('desk.unread')} · `}${notice.releaseTime ?? ''}`}</div>
      </div>
    </div>
  );
}
