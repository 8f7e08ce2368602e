import { useEffect, useState } from 'react';
import { App as AntApp, Drawer, Layout } from 'antd';
import { QueryClientProvider } from '@tanstack/react-query';
import { Navigate, useLocation } from 'react-router';
import { useTranslation } from 'react-i18next';
import { useUserStore } from '../store/user';
import { useCommonStore, screenLevel, useSider } from '../store/common';
import { useTagsStore } from '../store/tags';
import { startTokenRefresh } from '../store/session';
import { startHeartbeat } from '../logs/heartbeat';
import { findMenuByPath } from '../store/menu';
import { resolvePage } from '../router/pages';
import { routeMeta } from '../router/routes';
import { themeByName } from '../theme/themes';
import { pageTitle } from '../i18n';
import PageSpin from '../components/PageSpin';
import SideMenu from './SideMenu';
import TopBar from './TopBar';
import Tags, { tagLabel } from './Tags';
import PageHost, { isKeepAlive } from './PageHost';
import Deferred from './widgets/Deferred';
import { needsRegistration } from './widgets/needsRegistration';
import AntProvider from '../theme/AntProvider';
import { queryClient } from '../queryClient';
import { setMessageApi } from '../util/notify';
import '../i18n/dayjs';
import './shell.css';

const RegisterDialog = Deferred.load(() => import('./widgets/RegisterDialog'));

/** Routes toasts from outside React through antd's context-aware message API. */
function MessageBridge() {
  const { message } = AntApp.useApp();
  useEffect(() => {
    setMessageApi(message);
    return () => setMessageApi(null);
  }, [message]);
  return null;
}

/** Providers of the signed-in workspace: antd (theme, locale, App context) and TanStack Query. */
export default function Shell() {
  return (
    <QueryClientProvider client={queryClient}>
      <AntProvider>
        <AntApp>
          <MessageBridge />
          <ShellLayout />
        </AntApp>
      </AntProvider>
    </QueryClientProvider>
  );
}

/** The signed-in workspace: side menu, top bar, tab strip and the kept-alive pages. */
export function ShellLayout() {
  const location = useLocation();
  const { t, i18n } = useTranslation();
  const menuAll = useUserStore((s) => s.menuAll);
  const userInfo = useUserStore((s) => s.userInfo);
  const sider = useSider();
  const setSiderOpen = useCommonStore((s) => s.setSiderOpen);
  const screen = useCommonStore((s) => s.screen);
  const setScreen = useCommonStore((s) => s.setScreen);
  const themeName = useCommonStore((s) => s.themeName);
  const addTag = useTagsStore((s) => s.add);
  const activeTag = useTagsStore((s) => s.tag);
  const [ready, setReady] = useState(false);
  const theme = themeByName(themeName);

  // Menus and buttons after entering the shell, again on a language switch (names are localized).
  useEffect(() => {
    let alive = true;
    const s = useUserStore.getState();
    void Promise.allSettled([s.loadMenuAll(), s.loadButtons()]).then(() => {
      if (alive) setReady(true);
    });
    // Names and dictionary values come localized from the server: refetch what is on screen.
    void queryClient.invalidateQueries();
    return () => {
      alive = false;
    };
  }, [i18n.language]);

  useEffect(() => startTokenRefresh(), []);
  // Online-duration statistics (/system/user/log): a heartbeat a minute while the tab is visible.
  useEffect(() => startHeartbeat(), []);

  useEffect(() => {
    const onResize = () => setScreen(screenLevel(window.innerWidth));
    onResize();
    window.addEventListener('resize', onResize);
    return () => window.removeEventListener('resize', onResize);
  }, [setScreen]);

  // On a narrow screen the opened menu (or its drawer) closes once a page is chosen.
  useEffect(() => {
    setSiderOpen(false);
  }, [location.pathname, setSiderOpen]);

  const resolved = resolvePage(location.pathname, menuAll);
  const value = `${location.pathname}${location.search}`;

  // Each visited page becomes a tab unless its route opts out.
  useEffect(() => {
    if (resolved.kind === 'unknown' || resolved.kind === 'forbidden') return;
    const meta = routeMeta(location.pathname);
    const isTab = resolved.kind === 'static' ? resolved.def.isTab : resolved.menu.meta?.isTab;
    if (meta.isTab === false || isTab === false) return;
    const query = Object.fromEntries(new URLSearchParams(location.search));
    addTag({
      value,
      label: resolved.kind === 'menu' ? resolved.menu.name : (query.name ?? resolved.def.labelKey ?? value),
      query,
      meta: {
        i18n: resolved.kind === 'static' && !query.name ? resolved.def.labelKey : undefined,
        keepAlive: isKeepAlive(resolved),
      },
    });
    // eslint-disable-next-line react-hooks/exhaustive-deps -- once per location
  }, [value, resolved.kind]);

  // Page title follows the language.
  useEffect(() => {
    const m = findMenuByPath(menuAll, activeTag.value.split('?')[0]);
    document.title = pageTitle(tagLabel(activeTag, m, t));
  }, [activeTag, menuAll, t, i18n.language]);

  // Decide "forbidden" only against the menus just loaded (the stored ones may be stale or empty).
  if (resolved.kind === 'forbidden') return ready ? <Navigate to="/403" replace /> : <PageSpin />;
  if (resolved.kind === 'unknown') {
    if (ready) return <Navigate to="/404" replace />;
    return <PageSpin />;
  }

  return (
    <Layout className={`bb-shell screen-${screen}`} style={{ minHeight: '100vh' }}>
      {sider.drawer ? (
        // below 768 px the side menu is a drawer the collapse button opens (spec §2 screen levels)
        <Drawer
          className="bb-sider-drawer"
          placement="left"
          size={230}
          closable={false}
          open={!sider.collapsed}
          onClose={() => setSiderOpen(false)}
          styles={{ body: { padding: 0, background: theme.siderBg } }}
        >
          <div className="bb-logo" style={{ color: theme.siderText }}>
            <img src="/favicon.svg" alt="" />
            <span>{t('logoTitle')}</span>
          </div>
          <SideMenu />
        </Drawer>
      ) : (
        <Layout.Sider className="bb-sider" width={230} collapsedWidth={64} collapsed={sider.collapsed} trigger={null} style={{ background: theme.siderBg }}>
          <div className="bb-logo" style={{ color: theme.siderText }}>
            <img src="/favicon.svg" alt="" />
            {!sider.collapsed && <span>{t('logoTitle')}</span>}
          </div>
          <SideMenu collapsed={sider.collapsed} />
        </Layout.Sider>
      )}
      <Layout>
        <TopBar />
        <Tags />
        <Layout.Content className="bb-content">
          <PageHost menuAll={menuAll} />
        </Layout.Content>
      </Layout>
      <Deferred when={needsRegistration(userInfo.userId, userInfo.oauthId)}>
        <RegisterDialog />
      </Deferred>
    </Layout>
  );
}
