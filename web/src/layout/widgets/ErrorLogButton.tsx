import { useState } from 'react';
import { Badge, Button, Tooltip } from 'antd';
import { BugOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { useLogsStore } from '../../store/logs';
import { website } from '../../config';
import Deferred from './Deferred';

const ErrorLogDialog = Deferred.load(() => import('./ErrorLogDialog'));

/** The error-log badge (capped at 99); the full-screen dialog loads on first open. */
export default function ErrorLogButton() {
  const { t } = useTranslation();
  const count = useLogsStore((s) => s.logsList.length);
  const [open, setOpen] = useState(false);
  return (
    <>
      <Tooltip title={t('navbar.logs')}>
        <Button type="text" aria-label={t('navbar.logs')} onClick={() => setOpen(true)} style={{ color: 'inherit' }}>
          <Badge count={count} overflowCount={website.errorLogBadgeMax} size="small">
            <BugOutlined style={{ color: 'inherit' }} />
          </Badge>
        </Button>
      </Tooltip>
      <Deferred when={open}>
        <ErrorLogDialog open={open} onClose={() => setOpen(false)} />
      </Deferred>
    </>
  );
}
