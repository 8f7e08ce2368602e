import { useState } from 'react';
import { Badge, Button, Popover } from 'antd';
import { BellOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import Deferred from './Deferred';
import { useUserStore } from '../../store/user';
import { findMenuByPath } from '../../store/menu';
import { LATEST, NOTICE_PATH, NOTICES_KEY, latestNotices } from '../../desk/api';

const NoticePanel = Deferred.load(() => import('./NoticePanel'));

/** How often the bell looks for new notices. */
export const NOTICE_POLL_MS = 60_000;

/** Whether the user is granted the notice screen (the server refuses notices to everyone else). */
export function useCanReadNotices(): boolean {
  const menuAll = useUserStore((s) => s.menuAll);
  return Boolean(findMenuByPath(menuAll, NOTICE_PATH));
}

/** The latest notices with the user's read marks, shared with the home page. */
export function useLatestNotices(enabled: boolean) {
  return useQuery({ queryKey: NOTICES_KEY, queryFn: () => latestNotices(LATEST), enabled, refetchInterval: NOTICE_POLL_MS, retry: false });
}

/**
 * Notice bell: its badge counts the unread among the latest notices; the popover's tabs (mail and messages
 * are spec §2's demo content, notifications are the tenant's notices) load on first open.
 */
export default function NoticeBell() {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  const canRead = useCanReadNotices();
  const { data, refetch } = useLatestNotices(canRead);
  const unread = data?.records.filter((n) => !n.read).length ?? 0;
  return (
    <Popover
      trigger="click"
      placement="bottomRight"
      open={open}
      onOpenChange={(o) => {
        setOpen(o);
        // opening the bell shows what was published since the last look, not what the last poll saw
        if (o && canRead) void refetch();
      }}
      content={
        <Deferred when={open}>
          <NoticePanel canRead={canRead} notices={data?.records} onOpenNotice={() => setOpen(false)} />
        </Deferred>
      }
    >
      <Button type="text" aria-label={t('navbar.notice')} style={{ color: 'inherit' }}>
        <Badge count={unread} size="small" overflowCount={LATEST - 1} data-testid="notice-badge">
          <BellOutlined style={{ color: 'inherit' }} />
        </Badge>
      </Button>
    </Popover>
  );
}
