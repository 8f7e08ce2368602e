import { useState } from 'react';
import { Button, List, Tabs, Avatar, Spin } from 'antd';
import { MailOutlined, MessageOutlined, NotificationOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { website } from '../../config';

export interface NoticeItem {
  id: string;
  title: string;
  description: string;
  time: string;
}

type Kind = 'mail' | 'message' | 'notification';
const PAGES = 3;
const PER_PAGE = 4;

/** Placeholder demo content (spec §2): the notice popover is not backed by the server yet. */
export function demoNotices(kind: Kind, page: number, lang: string): NoticeItem[] {
  const zh = lang !== 'en';
  const noun: Record<Kind, string> = zh
    ? { mail: '邮件', message: '消息', notification: '通知' }
    : { mail: 'Mail', message: 'Message', notification: 'Notification' };
  return Array.from({ length: PER_PAGE }, (_, i) => {
    const n = (page - 1) * PER_PAGE + i + 1;
    return {
      id: `${kind}-${n}`,
      title: `${noun[kind]} ${n}`,
      description: zh ? `这是第 ${n} 条示例${noun[kind]}` : `Demo ${noun[kind].toLowerCase()} number ${n}`,
      time: `2024-01-${String(28 - n).padStart(2, '0')} 09:00`,
    };
  });
}

function NoticeList({ kind }: { kind: Kind }) {
  const { t, i18n } = useTranslation();
  const [page, setPage] = useState(1);
  const [items, setItems] = useState(() => demoNotices(kind, 1, i18n.language));
  const [loading, setLoading] = useState(false);
  const icon = { mail: <MailOutlined />, message: <MessageOutlined />, notification: <NotificationOutlined /> }[kind];

  const more = () => {
    setLoading(true);
    // The next page loads after 1 second (spec §9).
    setTimeout(() => {
      setItems((prev) => [...prev, ...demoNotices(kind, page + 1, i18n.language)]);
      setPage((p) => p + 1);
      setLoading(false);
    }, website.noticeNextPageDelay);
  };

  return (
    <div style={{ width: 300, maxHeight: 360, overflow: 'auto' }}>
      <List
        size="small"
        dataSource={items}
        renderItem={(it) => (
          <List.Item key={it.id}>
            <List.Item.Meta avatar={<Avatar icon={icon} />} title={it.title} description={`${it.description} · ${it.time}`} />
          </List.Item>
        )}
      />
      <div style={{ textAlign: 'center', padding: 8 }}>
        {loading ? (
          <Spin size="small" />
        ) : page < PAGES ? (
          <Button type="link" onClick={more}>
            {t('notice.more')}
          </Button>
        ) : (
          <span style={{ color: '#999' }}>{t('notice.noMore')}</span>
        )}
      </div>
    </div>
  );
}

/** The notice popover's content: mail / messages / notifications tabs of demo items. */
export default function NoticePanel() {
  const { t } = useTranslation();
  return (
    <Tabs
      size="small"
      items={[
        { key: 'mail', label: t('notice.mail'), children: <NoticeList kind="mail" /> },
        { key: 'message', label: t('notice.message'), children: <NoticeList kind="message" /> },
        { key: 'notification', label: t('notice.notification'), children: <NoticeList kind="notification" /> },
      ]}
    />
  );
}
