import { useState } from 'react';
import { App as AntApp, Avatar, Button, Input, Space, Typography } from 'antd';
import { LogoutOutlined, UnlockOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { useCommonStore, useLockStore } from '../../store/common';
import { useUserStore } from '../../store/user';
import { useTagsStore } from '../../store/tags';
import { usePageTitle } from '../../util/title';
import { toast } from '../../util/notify';
import { website } from '../../config';
import '../login/login.css';
import AntProvider from '../../theme/AntProvider';

function LockPageInner() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  // antd's hook-based modal renders inside App's context (theme, locale) and unmounts with the tree.
  const { modal } = AntApp.useApp();
  usePageTitle('route.lock');
  const lockPasswd = useCommonStore((s) => s.lockPasswd);
  const clearLockPasswd = useCommonStore((s) => s.clearLockPasswd);
  const clearLock = useLockStore((s) => s.clearLock);
  const user = useUserStore((s) => s.userInfo);
  const logout = useUserStore((s) => s.logout);
  const tag = useTagsStore((s) => s.tag);
  const [value, setValue] = useState('');
  const [error, setError] = useState('');

  const unlock = () => {
    if (!value) {
      setError(t('lock.required'));
      return;
    }
    if (value !== lockPasswd) {
      setValue('');
      setError(t('lock.wrong'));
      toast.error(t('lock.wrong'));
      return;
    }
    clearLock();
    clearLockPasswd();
    void navigate(tag?.value || website.firstPage.value, { replace: true });
  };

  const signOut = () =>
    modal.confirm({
      title: t('navbar.tip'),
      content: t('lock.logoutConfirm'),
      okText: t('common.ok'),
      cancelText: t('common.cancel'),
      onOk: async () => {
        await logout();
        void navigate('/login', { replace: true });
      },
    });

  return (
    <div className="login-container">
      <Space orientation="vertical" align="center" size="large" style={{ color: '#fff' }}>
        <Avatar size={96} src={user.avatar || website.defaultAvatar} />
        <Typography.Title level={3} style={{ color: '#fff', margin: 0 }}>
          {user.realName || user.userName || user.account}
        </Typography.Title>
        <Space.Compact>
          <Input.Password
            aria-label={t('lock.password')}
            placeholder={t('lock.placeholder')}
            value={value}
            status={error ? 'error' : undefined}
            onChange={(e) => {
              setValue(e.target.value);
              setError('');
            }}
            onPressEnter={unlock}
            style={{ width: 260 }}
          />
          <Button type="primary" icon={<UnlockOutlined />} onClick={unlock}>
            {t('lock.unlock')}
          </Button>
        </Space.Compact>
        {error && <Typography.Text style={{ color: '#ffccc7' }}>{error}</Typography.Text>}
        <Button icon={<LogoutOutlined />} onClick={signOut}>
          {t('lock.logout')}
        </Button>
      </Space>
    </div>
  );
}

export default function LockPage() {
  return (
    <AntProvider>
      <AntApp>
        <LockPageInner />
      </AntApp>
    </AntProvider>
  );
}
