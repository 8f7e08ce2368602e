import { useState } from 'react';
import { Button, List, Tabs, Avatar, Spin, Empty } from 'antd';
import { MailOutlined, MessageOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { website } from '../../config';
import type { NoticeRow } from '../../desk/api';
import { NOTICE_PATH } from '../../desk/api';
import NoticeDialog from '../../desk/NoticeDialog';
import NoticeItemRow from '../../desk/NoticeItem';

export interface NoticeItem {
  id: string;
  title: string;
  description: string;
  time: string;
}

type Kind = 'mail' | 'message' | 'notification';
type DemoKind = Exclude<Kind, 'notification'>;
const PAGES = 3;
const PER_PAGE = 4;

/** Placeholder demo content (spec §2) of the mail and messages tabs; notifications are the tenant's notices. */
export function demoNotices(kind: DemoKind, page: number, lang: string): NoticeItem[] {
  const zh = lang !== 'en';
  const noun: Record<DemoKind, string> = zh
    ? { mail: '邮件', message: '消息' }
    : { mail: 'Mail', message: 'Message' };
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

function NoticeList({ kind }: { kind: DemoKind }) {
  const { t, i18n } = useTranslation();
  const [page, setPage] = useState(1);
  const [items, setItems] = useState(() => demoNotices(kind, 1, i18n.language));
  const [loading, setLoading] = useState(false);
  const icon = { mail: <MailOutlined />, message: <MessageOutlined /> }[kind];

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

/** The tenant's latest notices, the unread ones marked; one opens in a reader, the footer leads to them all. */
function LatestNotices({ canRead, notices, onOpenNotice }: PanelProps) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [reading, setReading] = useState<string>();
  if (!canRead) return <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('desk.noRight')} style={{ width: 300 }} />;
  if (!notices) return <Spin size="small" style={{ display: 'block', width: 300, padding: 16 }} />;
  return (
    <div style={{ width: 300, maxHeight: 360, overflow: 'auto' }} data-testid="notice-list">
      {notices.length === 0 ? (
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('desk.noNotices')} />
      ) : (
        notices.map((n) => <NoticeItemRow key={n.id} notice={n} onOpen={() => setReading(n.id)} />)
      )}
      <div style={{ textAlign: 'center', padding: 8 }}>
        <Button
          type="link"
          onClick={() => {
            onOpenNotice?.();
            navigate(NOTICE_PATH);
          }}
        >
          {t('desk.allNotices')}
        </Button>
      </div>
      <NoticeDialog id={reading} onClose={() => setReading(undefined)} />
    </div>
  );
}

interface PanelProps {
  canRead: boolean;
  notices?: NoticeRow[];
  /** Called when the panel sends the user elsewhere (the popover closes). */
  onOpenNotice?: () => void;
}

/** The notice popover's content: mail and messages tabs of demo items, and the tenant's notices. */
export default function NoticePanel(props: PanelProps) {
  const { t } = useTranslation();
  return (
    <Tabs
      size="small"
      defaultActiveKey="notification"
      items={[
        { key: 'mail', label: t('notice.mail'), children: <NoticeList kind="mail" /> },
        { key: 'message', label: t('notice.message'), children: <NoticeList kind="message" /> },
        { key: 'notification', label: t('notice.notification'), children: <LatestNotices {...props} /> },
      ]}
    />
  );
}
