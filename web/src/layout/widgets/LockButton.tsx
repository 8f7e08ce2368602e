import { useState } from 'react';
import { Button, Tooltip } from 'antd';
import { LockOutlined } from '@ant-design/icons';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { lockScreen } from './lock';
import Deferred from './Deferred';

const LockDialog = Deferred.load(() => import('./LockDialog'));

/** Lock button; without a lock password its set-password dialog (loaded on first open) comes first. */
export default function LockButton() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [open, setOpen] = useState(false);
  const go = (to: string) => void navigate(to);

  const onLock = () => {
    if (lockScreen(go) === 'dialog') setOpen(true);
  };

  return (
    <>
      <Tooltip title={t('navbar.lock')}>
        <Button type="text" aria-label={t('navbar.lock')} icon={<LockOutlined />} onClick={onLock} style={{ color: 'inherit' }} />
      </Tooltip>
      <Deferred when={open}>
        <LockDialog open={open} onClose={() => setOpen(false)} onLock={() => lockScreen(go)} />
      </Deferred>
    </>
  );
}
