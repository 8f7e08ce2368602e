import { beforeEach, describe, expect, it } from 'vitest';
import { http, HttpResponse } from 'msw';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { server } from '../test/server';
import { ok, renderWithProviders } from '../test/utils';
import { setLanguage } from '../i18n';
import { useUserStore } from '../store/user';
import TodoBadge from '../layout/widgets/TodoBadge';
import ResourceCrud from '../resource/ResourceCrud';
import type { ResourceMeta } from '../resource/types';
import { BusinessDocument } from './BusinessDocument';
import { announceTasksChanged } from './events';

const workMenu = [{ id: '1', code: 'work', name: '我的事务', path: '/work', children: [{ id: '2', code: 'work_todo', name: '待办事务', path: '/work/todo', children: [] }] }];

describe('to-do badge', () => {
  beforeEach(async () => {
    await setLanguage('zh');
  });

  it('counts open tasks and counts again when a task changes', async () => {
    useUserStore.setState({ menuAll: workMenu as never });
    let n = 0;
    server.use(
      http.get('*/api/blade-flow/work/todo-count', () => {
        n++;
        return HttpResponse.json(ok(n === 1 ? { todo: 2, claim: 1 } : { todo: 1, claim: 0 }));
      }),
    );
    renderWithProviders(<TodoBadge />);
    const badge = await screen.findByTestId('todo-badge');
    await waitFor(() => expect(badge).toHaveTextContent('3'));
    act(() => announceTasksChanged());
    await waitFor(() => expect(badge).toHaveTextContent('1'));
    expect(n).toBe(2);
  });

  it('is not shown, and asks nothing, without the work menu', async () => {
    useUserStore.setState({ menuAll: [] });
    renderWithProviders(<TodoBadge />);
    // an unhandled todo-count request would fail the test (msw onUnhandledRequest: error)
    await new Promise((r) => setTimeout(r, 50));
    expect(screen.queryByRole('button', { name: '待办事务' })).not.toBeInTheDocument();
  });
});

const label = (zh: string, en: string) => ({ zh, en });
const materialMeta: ResourceMeta = {
  name: 'material',
  service: 'bluebird-basic',
  path: '/api/bluebird-basic/material',
  menuCode: 'material',
  table: 'bb_material',
  label: label('物料', 'Material'),
  paged: true,
  fields: [
    { name: 'materialCode', type: 'string', label: label('物料编号', 'Material code'), list: true, form: true },
    { name: 'materialName', type: 'string', label: label('物料名称', 'Material name'), list: true, form: true },
    { name: 'status', type: 'int', label: label('状态', 'Status'), list: false, form: false },
  ],
  actions: ['page', 'detail', 'submit'],
  permissions: { view: 'material_view' },
  states: { field: 'status', initial: 1, edit: [1, 4], remove: [1] },
  commands: [{ name: 'startProcess', key: 'startProcess', path: '/api/bluebird-basic/material/startProcess', label: label('提交审批', 'Submit'), from: { field: 'status', values: [1, 4] }, row: true }],
};

describe('approval progress of a document', () => {
  beforeEach(async () => {
    await setLanguage('zh');
    useUserStore.setState({ permission: { material_view: true } });
  });

  it('shows the history by business key for documents in approval, approved or rejected only', async () => {
    const keys: string[] = [];
    server.use(
      http.get('*/api/bluebird-basic/material/page', () =>
        HttpResponse.json(
          ok({
            records: [
              { id: '41', materialCode: 'M-DRAFT', materialName: '草稿', status: 1 },
              { id: '42', materialCode: 'M-WAIT', materialName: '审批中', status: 2 },
              { id: '43', materialCode: 'M-REJ', materialName: '已驳回', status: 4 },
            ],
            total: 3,
            size: 10,
            current: 1,
            pages: 1,
          }),
        ),
      ),
      http.get('*/api/blade-flow/process/history-flow-list', ({ request }) => {
        keys.push(new URL(request.url).searchParams.get('businessKey')!);
        return HttpResponse.json(ok([{ historyActivityId: 'a', historyActivityName: '主管审批', assigneeName: '李四', comment: '同意', pass: true, endTime: '2026-11-27 10:00:00' }]));
      }),
    );
    renderWithProviders(<ResourceCrud meta={materialMeta} />);
    await screen.findByText('M-WAIT');
    const rowOf = (code: string) => screen.getByText(code).closest('tr')!;
    expect(within(rowOf('M-DRAFT')).queryByRole('button', { name: '审批进度' })).not.toBeInTheDocument();
    expect(within(rowOf('M-REJ')).getByRole('button', { name: '审批进度' })).toBeInTheDocument();
    fireEvent.click(within(rowOf('M-WAIT')).getByRole('button', { name: '审批进度' }));
    expect(await screen.findByText('主管审批')).toBeInTheDocument();
    expect(screen.getByText('审批意见: 同意')).toBeInTheDocument();
    expect(keys).toEqual(['bb_material:42']);
  });

  it('has no progress action when the metadata names no table', async () => {
    server.use(http.get('*/api/bluebird-basic/material/page', () => HttpResponse.json(ok({ records: [{ id: '42', materialCode: 'M-WAIT', status: 2 }], total: 1, size: 10, current: 1, pages: 1 }))));
    renderWithProviders(<ResourceCrud meta={{ ...materialMeta, table: undefined }} />);
    await screen.findByText('M-WAIT');
    expect(screen.queryByRole('button', { name: '审批进度' })).not.toBeInTheDocument();
  });
});

describe('a task document', () => {
  it('draws the resource row read-only from its metadata', async () => {
    await setLanguage('zh');
    server.use(
      http.get('*/api/meta/resources', () => HttpResponse.json(ok([materialMeta]))),
      http.get('*/api/bluebird-basic/material/detail', ({ request }) => {
        expect(new URL(request.url).searchParams.get('id')).toBe('42');
        return HttpResponse.json(ok({ id: '42', materialCode: 'M-WAIT', materialName: '螺栓', status: 2 }));
      }),
    );
    renderWithProviders(<BusinessDocument doc={{ businessTable: 'bb_material', businessId: '42', resource: { service: 'bluebird-basic', name: 'material' } }} />);
    expect(await screen.findByText('螺栓')).toBeInTheDocument();
    expect(screen.getByText('物料名称')).toBeInTheDocument();
    expect(screen.queryByRole('textbox')).not.toBeInTheDocument();
  });
});
