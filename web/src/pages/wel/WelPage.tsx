import { useMemo, useState } from 'react';
import { Button, Card, Col, Empty, Row, Skeleton, Statistic, Tabs, Typography } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import dayjs from 'dayjs';
import { useUserStore } from '../../store/user';
import { findMenuByPath, leafMenus } from '../../store/menu';
import type { MenuNode } from '../../api/user';
import MenuIcon from '../../components/MenuIcon';
import Deferred from '../../layout/widgets/Deferred';
import { useCanReadNotices, useLatestNotices } from '../../layout/widgets/NoticeBell';
import NoticeItemRow from '../../desk/NoticeItem';
import { NOTICE_PATH, homeSummary } from '../../desk/api';
import { mostUsed, watchScreens } from '../../desk/usage';
import { workList, type TaskRow } from '../../flow/api';
import '../../desk/desk.css';
import './wel.css';

const NoticeDialog = Deferred.load(() => import('../../desk/NoticeDialog'));

// Shortcuts count the screens a user switches to from the moment the shell (of which this page is part) loads.
watchScreens();

/** How many tasks, notices and shortcuts the home page shows. */
const NEWEST = 5;
const SHORTCUTS = 8;

function findMenuByCode(list: MenuNode[], code: string): MenuNode | undefined {
  for (const m of list) {
    if (m.code === code) return m;
    const hit = m.children && findMenuByCode(m.children, code);
    if (hit) return hit;
  }
  return undefined;
}

/** The tenant's key figures the user is granted; each opens its screen. The server leaves out the others. */
function Figures() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const menuAll = useUserStore((s) => s.menuAll);
  const { i18n } = useTranslation();
  const { data } = useQuery({ queryKey: ['desk', 'summary', i18n.language], queryFn: homeSummary, staleTime: 30_000, retry: false });
  if (!data || data.length === 0) return null;
  return (
    <Row gutter={[16, 16]} className="bb-wel-figures" aria-label={t('desk.home.figures')} data-testid="home-figures">
      {data.map((f) => {
        const menu = findMenuByCode(menuAll, f.menuCode);
        return (
          <Col key={f.key} xs={12} md={8} xl={Math.max(4, Math.floor(24 / data.length))}>
            <Card size="small" hoverable={Boolean(menu)} onClick={menu ? () => navigate(menu.path) : undefined}>
              <Statistic title={f.label} value={f.value} />
            </Card>
          </Col>
        );
      })}
    </Row>
  );
}

function TaskList({ kind }: { kind: 'todo' | 'claim' }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { data, isLoading } = useQuery({ queryKey: ['flow', 'home', kind], queryFn: () => workList(kind, { current: 1, size: NEWEST }), retry: false });
  if (isLoading) return <Skeleton active paragraph={{ rows: 3 }} />;
  const rows: TaskRow[] = data?.records ?? [];
  if (rows.length === 0) return <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('desk.home.noTasks')} />;
  return (
    <div>
      {rows.map((r) => (
        <div key={`${r.taskId}-${r.processInstanceId}`} className="bb-item" role="button" tabIndex={0} onClick={() => navigate(`/work/${kind}`)}>
          <div className="bb-item-text">
            <div className="bb-item-title">{`${r.processDefinitionName ?? ''}${r.taskName ? ` · ${r.taskName}` : ''}`}</div>
            <div className="bb-item-desc">{`${r.startUserName ? `${t('desk.home.started', { name: r.startUserName })} · ` : ''}${r.createTime ?? ''}`}</div>
          </div>
        </div>
      ))}
    </div>
  );
}

/** The user's to-do and claimable tasks, the newest few of each; shown with the menus of those lists. */
function Tasks({ todo, claim }: { todo: boolean; claim: boolean }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [tab, setTab] = useState(todo ? 'todo' : 'claim');
  const items = [
    todo && { key: 'todo', label: t('desk.home.todoTab'), children: <TaskList kind="todo" /> },
    claim && { key: 'claim', label: t('desk.home.claimTab'), children: <TaskList kind="claim" /> },
  ].filter((x) => x !== false);
  return (
    <Card
      size="small"
      title={t('desk.home.todo')}
      data-testid="home-tasks"
      extra={
        <Button type="link" size="small" onClick={() => navigate(`/work/${tab}`)}>
          {t('desk.home.viewAll')}
        </Button>
      }
    >
      <Tabs size="small" activeKey={tab} onChange={setTab} items={items} />
    </Card>
  );
}

/** The latest notices, the unread marked (the bell's list); one opens in the reader. */
function Notices() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { data, isLoading } = useLatestNotices(true);
  const [reading, setReading] = useState<string>();
  const rows = (data?.records ?? []).slice(0, NEWEST);
  return (
    <Card
      size="small"
      title={t('desk.home.notices')}
      data-testid="home-notices"
      extra={
        <Button type="link" size="small" onClick={() => navigate(NOTICE_PATH)}>
          {t('desk.home.viewAll')}
        </Button>
      }
    >
      {isLoading ? (
        <Skeleton active paragraph={{ rows: 3 }} />
      ) : rows.length === 0 ? (
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('desk.noNotices')} />
      ) : (
        rows.map((n) => <NoticeItemRow key={n.id} notice={n} onOpen={() => setReading(n.id)} />)
      )}
      <Deferred when={Boolean(reading)}>
        <NoticeDialog id={reading} onClose={() => setReading(undefined)} />
      </Deferred>
    </Card>
  );
}

/** The screens the user opens most (counted in this browser, desk/usage.ts), among those still granted. */
function Shortcuts({ menuAll }: { menuAll: MenuNode[] }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const used = useMemo(
    () =>
      mostUsed()
        .map((p) => findMenuByPath(menuAll, p))
        .filter((m): m is MenuNode => Boolean(m && !m.children?.length))
        .slice(0, SHORTCUTS),
    [menuAll],
  );
  const shown = used.length ? used : leafMenus(menuAll).slice(0, SHORTCUTS);
  if (shown.length === 0) return null;
  return (
    <Card
      size="small"
      title={t('desk.home.shortcuts')}
      data-testid="home-shortcuts"
      extra={<Typography.Text type="secondary">{used.length ? t('desk.home.shortcutsHint') : t('desk.home.shortcutsSuggested')}</Typography.Text>}
    >
      <div className="bb-wel-shortcuts">
        {shown.map((m) => (
          <Button key={m.id} icon={<MenuIcon name={m.source} />} onClick={() => navigate(m.path)}>
            {m.name}
          </Button>
        ))}
      </div>
    </Card>
  );
}

/**
 * The home page (/wel/index), where a user starts the day: a greeting, the tenant's key figures, their
 * to-do and claimable tasks, the latest notices and shortcuts to the screens they use most. A block shows
 * only when the user holds its menu, and the server refuses its data to anyone else.
 */
export default function WelPage() {
  const { t } = useTranslation();
  const user = useUserStore((s) => s.userInfo);
  const menuAll = useUserStore((s) => s.menuAll);
  const todo = Boolean(findMenuByPath(menuAll, '/work/todo'));
  const claim = Boolean(findMenuByPath(menuAll, '/work/claim'));
  const notices = useCanReadNotices();
  return (
    <div className="bb-wel">
      <Card size="small" className="bb-wel-greeting">
        <Typography.Title level={4} style={{ margin: 0 }}>
          {t('wel.hello', { name: user.realName || user.nickName || user.account || '' })}
        </Typography.Title>
        <Typography.Text type="secondary">
          {t('wel.welcome')} · {t('desk.home.today', { date: dayjs().format(t('desk.home.dateFormat', { defaultValue: 'YYYY-MM-DD dddd' })) })}
        </Typography.Text>
      </Card>
      <Figures />
      {(todo || claim || notices) && (
        <Row gutter={[16, 16]}>
          {(todo || claim) && (
            <Col xs={24} lg={notices ? 12 : 24}>
              <Tasks todo={todo} claim={claim} />
            </Col>
          )}
          {notices && (
            <Col xs={24} lg={todo || claim ? 12 : 24}>
              <Notices />
            </Col>
          )}
        </Row>
      )}
      <Shortcuts menuAll={menuAll} />
    </div>
  );
}
