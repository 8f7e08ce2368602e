import { beforeEach, describe, expect, it } from 'vitest';
import { http, HttpResponse } from 'msw';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { server } from '../test/server';
import { ok, renderWithProviders } from '../test/utils';
import { setLanguage } from '../i18n';
import { useUserStore } from '../store/user';
import NoticeBell from '../layout/widgets/NoticeBell';
import WelPage from '../pages/wel/WelPage';
import type { NoticeRow } from './api';
import NoticePage from './NoticePage';
import { field } from '../resource/testMeta';
import type { ResourceMeta } from '../resource/types';

const node = (id: string, code: string, name: string, path: string, children: unknown[] = []) => ({ id, code, name, path, children });
const noticeMenu = node('1', 'desk', '工作台', '/desk', [node('2', 'notice', '通知公告', '/desk/notice')]);
const workMenu = node('3', 'work', '我的事务', '/work', [node('4', 'work_todo', '待办事务', '/work/todo'), node('5', 'work_claim', '待签事务', '/work/claim')]);
const userMenu = node('6', 'system', '系统管理', '/system', [node('7', 'user', '用户管理', '/system/user')]);

const page = <T,>(records: T[]) => ok({ records, total: records.length, size: 8, current: 1, pages: 1 });

function serve(notices: NoticeRow[], calls: string[] = []) {
  const read = new Set(notices.filter((n) => n.read).map((n) => n.id));
  server.use(
    http.get('*/api/blade-desk/notice/list', () => {
      calls.push('list');
      return HttpResponse.json(page(notices.map((n) => ({ ...n, read: read.has(n.id) }))));
    }),
    http.get('*/api/blade-desk/notice/detail', ({ request }) => {
      const id = new URL(request.url).searchParams.get('id')!;
      calls.push(`detail:${id}`);
      read.add(id);
      const n = notices.find((x) => x.id === id)!;
      return HttpResponse.json(ok({ ...n, read: true, content: '<p>停电 <b>两小时</b></p>' }));
    }),
    http.get('*/api/blade-desk/home/summary', () => {
      calls.push('summary');
      return HttpResponse.json(ok([{ key: 'users', label: '用户', menuCode: 'user', value: 12 }]));
    }),
    http.get('*/api/blade-flow/work/todo-list', () => {
      calls.push('todo');
      return HttpResponse.json(page([{ taskId: '9', processInstanceId: '8', processDefinitionName: '请假流程', taskName: '主管审批', createTime: '2026-11-27 09:00:00' }]));
    }),
    http.get('*/api/blade-flow/work/claim-list', () => {
      calls.push('claim');
      return HttpResponse.json(page([]));
    }),
    http.get('*/api/blade-system/dict/dictionary', () => HttpResponse.json(ok([{ dictKey: '1', dictValue: '发布通知' }]))),
  );
}

const notices: NoticeRow[] = [
  { id: '11', title: '停电通知', category: 1, releaseTime: '2026-11-27 08:00:00', read: false },
  { id: '12', title: '年会安排', category: 1, releaseTime: '2026-11-26 08:00:00', read: true },
];

describe('notice bell', () => {
  beforeEach(async () => {
    await setLanguage('zh');
  });

  it('counts the unread notices, lists them marked, and a notice opened is read', async () => {
    useUserStore.setState({ menuAll: [noticeMenu] as never });
    const calls: string[] = [];
    serve(notices, calls);
    renderWithProviders(<NoticeBell />);
    const badge = await screen.findByTestId('notice-badge');
    await waitFor(() => expect(badge).toHaveTextContent('1'));
    fireEvent.click(screen.getByRole('button', { name: '消息' }));
    const list = await screen.findByTestId('notice-list');
    const unread = await within(list).findByText('停电通知');
    expect(unread.closest('[data-read]')).toHaveAttribute('data-read', 'false');
    expect(within(list).getByText('年会安排').closest('[data-read]')).toHaveAttribute('data-read', 'true');
    fireEvent.click(unread);
    const reader = await screen.findByTestId('notice-reader');
    expect(within(reader).getByText('两小时').tagName).toBe('B');
    expect(calls).toContain('detail:11');
    // the bell asks again: nothing is unread now
    await waitFor(() => expect(badge).not.toHaveTextContent('1'));
  });

  it('asks nothing without the notice menu, and says why', async () => {
    useUserStore.setState({ menuAll: [workMenu] as never });
    const calls: string[] = [];
    serve(notices, calls);
    renderWithProviders(<NoticeBell />);
    fireEvent.click(screen.getByRole('button', { name: '消息' }));
    expect(await screen.findByText('没有查看通知的权限')).toBeInTheDocument();
    expect(calls).not.toContain('list');
  });
});

const noticeMeta: ResourceMeta = {
  name: 'notice',
  service: 'blade-desk',
  path: '/api/blade-desk/notice',
  menuCode: 'notice',
  label: { zh: '通知公告', en: 'Notices' },
  paged: false,
  fields: [field({ name: 'title', label: { zh: '标题', en: 'Title' } }), field({ name: 'content', type: 'html', list: false, label: { zh: '通知内容', en: 'Content' } })],
  actions: ['list', 'detail'],
  permissions: { view: 'notice_view' },
};

describe('notice page', () => {
  beforeEach(async () => {
    await setLanguage('zh');
  });

  it('marks unread notices, and one viewed there is no longer unread in the bell', async () => {
    useUserStore.setState({ menuAll: [noticeMenu] as never, permission: { notice_view: true } });
    const calls: string[] = [];
    serve(notices, calls);
    server.use(http.get('*/api/meta/resources', () => HttpResponse.json(ok([noticeMeta]))));
    renderWithProviders(
      <>
        <NoticeBell />
        <NoticePage />
      </>,
    );
    const badge = await screen.findByTestId('notice-badge');
    await waitFor(() => expect(badge).toHaveTextContent('1'));
    const row = (await screen.findAllByText('停电通知')).find((e) => e.closest('tr'))!.closest('tr') as HTMLElement;
    expect(within(row).getByText('停电通知').tagName).toBe('STRONG');
    fireEvent.click(within(row).getByRole('button', { name: /查\s*看/ }));
    expect(await screen.findByText('两小时')).toBeInTheDocument();
    expect(calls).toContain('detail:11');
    await waitFor(() => expect(badge).not.toHaveTextContent('1'));
  });
});

describe('home page', () => {
  beforeEach(async () => {
    await setLanguage('zh');
  });

  it('shows the figures, the to-do tasks and the latest notices to a user with their menus', async () => {
    useUserStore.setState({ menuAll: [noticeMenu, workMenu, userMenu] as never, userInfo: { userId: '1', realName: '张三', tenantId: '000000' } });
    serve(notices);
    renderWithProviders(<WelPage />);
    expect(screen.getByText('您好, 张三')).toBeInTheDocument();
    const figures = await screen.findByTestId('home-figures');
    expect(within(figures).getByText('用户')).toBeInTheDocument();
    expect(within(figures).getByText('12')).toBeInTheDocument();
    const tasks = screen.getByTestId('home-tasks');
    expect(await within(tasks).findByText('请假流程 · 主管审批')).toBeInTheDocument();
    const latest = screen.getByTestId('home-notices');
    expect(await within(latest).findByText('停电通知')).toBeInTheDocument();
    expect(within(screen.getByTestId('home-shortcuts')).getByText('通知公告')).toBeInTheDocument();
  });

  it('hides the blocks whose menus the user lacks and asks nothing for them', async () => {
    useUserStore.setState({ menuAll: [userMenu] as never, userInfo: { userId: '2', realName: '李四', tenantId: '000000' } });
    const calls: string[] = [];
    serve(notices, calls);
    renderWithProviders(<WelPage />);
    await screen.findByTestId('home-figures');
    expect(screen.queryByTestId('home-tasks')).toBeNull();
    expect(screen.queryByTestId('home-notices')).toBeNull();
    expect(calls.filter((c) => c !== 'summary')).toEqual([]);
  });

  it('offers the screens the user opens most as shortcuts', async () => {
    const { countScreen } = await import('./usage');
    useUserStore.setState({ menuAll: [noticeMenu, userMenu] as never, userInfo: { userId: '3', realName: '王五', tenantId: '000000' } });
    countScreen('/system/user');
    countScreen('/system/user');
    countScreen('/desk/notice');
    serve(notices);
    renderWithProviders(<WelPage />);
    const shortcuts = screen.getByTestId('home-shortcuts');
    const names = within(shortcuts).getAllByRole('button').map((b) => b.textContent);
    expect(names).toEqual(['用户管理', '通知公告']);
  });
});
