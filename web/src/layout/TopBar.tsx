import { Button, Layout, Space, Tooltip } from 'antd';
import { MenuFoldOutlined, MenuUnfoldOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { useCommonStore, useSider } from '../store/common';
import { themeByName } from '../theme/themes';
import { website } from '../config';
import LanguageSwitch from '../components/LanguageSwitch';
import TopMenu from './widgets/TopMenu';
import NoticeBell from './widgets/NoticeBell';
import TodoBadge from './widgets/TodoBadge';
import FullScreenToggle from './widgets/FullScreenToggle';
import UserMenu from './widgets/UserMenu';
import LockButton from './widgets/LockButton';
import ThemeButton from './widgets/ThemeButton';
import ColorButton from './widgets/ColorButton';
import SearchButton from './widgets/SearchButton';
import ErrorLogButton from './widgets/ErrorLogButton';

/** Top bar: collapse, top menu, optional widgets (settings), notices, full screen, user. */
export default function TopBar() {
  const { t } = useTranslation();
  const { collapsed } = useSider();
  const toggle = useCommonStore((s) => s.toggleCollapse);
  const themeName = useCommonStore((s) => s.themeName);
  const screen = useCommonStore((s) => s.screen);
  const theme = themeByName(themeName);
  const s = website.setting;
  return (
    <Layout.Header className="bb-header" style={{ background: theme.headerBg, color: theme.headerText }}>
      <Tooltip title={t('navbar.collapse')}>
        <Button
          type="text"
          aria-label={t('navbar.collapse')}
          icon={collapsed ? <MenuUnfoldOutlined /> : <MenuFoldOutlined />}
          onClick={toggle}
          style={{ color: 'inherit' }}
        />
      </Tooltip>
      <div className="bb-top-menu">
        <TopMenu />
      </div>
      <Space size={0} className="bb-top-right">
        {s.search && screen < 2 && <SearchButton />}
        {s.errlog && <ErrorLogButton />}
        {s.lock && <LockButton />}
        {s.theme && <ThemeButton />}
        {s.color && screen < 2 && <ColorButton />}
        {s.language && <LanguageSwitch />}
        <TodoBadge />
        <NoticeBell />
        {s.fullscreen && screen < 2 && <FullScreenToggle />}
        <UserMenu />
      </Space>
    </Layout.Header>
  );
}
