import { useEffect } from 'react';
import { Button, Tooltip } from 'antd';
import { FullscreenExitOutlined, FullscreenOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { useCommonStore } from '../../store/common';

export default function FullScreenToggle() {
  const { t } = useTranslation();
  const isFullScreen = useCommonStore((s) => s.isFullScreen);
  const setFullScreen = useCommonStore((s) => s.setFullScreen);
  useEffect(() => {
    const on = () => setFullScreen(Boolean(document.fullscreenElement));
    document.addEventListener('fullscreenchange', on);
    return () => document.removeEventListener('fullscreenchange', on);
  }, [setFullScreen]);
  const toggle = () => {
    if (document.fullscreenElement) void document.exitFullscreen?.();
    else void document.documentElement.requestFullscreen?.();
  };
  return (
    <Tooltip title={t('navbar.screenfull')}>
      <Button
        type="text"
        aria-label={t('navbar.screenfull')}
        icon={isFullScreen ? <FullscreenExitOutlined /> : <FullscreenOutlined />}
        onClick={toggle}
        style={{ color: 'inherit' }}
      />
    </Tooltip>
  );
}
