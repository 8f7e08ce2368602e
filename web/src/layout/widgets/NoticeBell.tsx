import { useState } from 'react';
import { Badge, Button, Popover } from 'antd';
import { BellOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import Deferred from './Deferred';

const NoticePanel = Deferred.load(() => import('./NoticePanel'));

/** Notice bell; the popover's tabs (mail / messages / notifications) load on first open. */
export default function NoticeBell() {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  return (
    <Popover
      trigger="click"
      placement="bottomRight"
      open={open}
      onOpenChange={setOpen}
      content={
        <Deferred when={open}>
          <NoticePanel />
        </Deferred>
      }
    >
      <Button type="text" aria-label={t('navbar.notice')} style={{ color: 'inherit' }}>
        <Badge dot>
          <BellOutlined style={{ color: 'inherit' }} />
        </Badge>
      </Button>
    </Popover>
  );
}
