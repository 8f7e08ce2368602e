import { useState } from 'react';
import { Button, Tooltip } from 'antd';
import { BgColorsOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import Deferred from './Deferred';

const ThemeDialog = Deferred.load(() => import('./ThemeDialog'));

/** Theme button; the dialog with the 11 named themes loads on first open. */
export default function ThemeButton() {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  return (
    <>
      <Tooltip title={t('navbar.theme')}>
        <Button type="text" aria-label={t('navbar.theme')} icon={<BgColorsOutlined />} onClick={() => setOpen(true)} style={{ color: 'inherit' }} />
      </Tooltip>
      <Deferred when={open}>
        <ThemeDialog open={open} onClose={() => setOpen(false)} />
      </Deferred>
    </>
  );
}
