import { useEffect, useState } from 'react';
import { App as AntApp, Avatar, Dropdown, Space } from 'antd';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { useUserStore } from '../../store/user';
import { website } from '../../config';

/** Avatar and user name with dashboard, user info and log out (with confirmation). */
export default function UserMenu() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  // antd's hook-based modal renders inside App's context (theme, locale) and unmounts with the tree.
  const { modal } = AntApp.useApp();
  const user = useUserStore((s) => s.userInfo);
  const logout = useUserStore((s) => s.logout);
  const [broken, setBroken] = useState(false);
  // a new avatar (saved on /info/index) gets its own chance to load
  useEffect(() => setBroken(false), [user.avatar]);
  const src = !user.avatar || broken ? website.defaultAvatar : user.avatar;

  const confirmLogout = () =>
    modal.confirm({
      title: t('navbar.tip'),
      content: t('navbar.logoutTip'),
      okText: t('common.ok'),
      cancelText: t('common.cancel'),
      onOk: async () => {
        await logout();
        void navigate('/login', { replace: true });
      },
    });

  return (
    <Dropdown
      menu={{
        items: [
          { key: 'dashboard', label: t('navbar.dashboard') },
          { key: 'info', label: t('navbar.userinfo') },
          { type: 'divider' },
          { key: 'logout', label: t('navbar.logOut'), danger: true },
        ],
        onClick: ({ key }) => {
          if (key === 'dashboard') void navigate('/');
          if (key === 'info') void navigate('/info/index');
          if (key === 'logout') confirmLogout();
        },
      }}
    >
      <Space className="bb-user" style={{ cursor: 'pointer', padding: '0 8px' }}>
        <Avatar
          size="small"
          src={src}
          alt=""
          onError={() => {
            setBroken(true);
            return false;
          }}
        />
        <span className="bb-user-name">{user.realName || user.nickName || user.userName || user.account}</span>
      </Space>
    </Dropdown>
  );
}
