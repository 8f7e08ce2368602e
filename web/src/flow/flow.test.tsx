import { beforeEach, describe, expect, it, vi } from 'vitest';
import { http, HttpResponse } from 'msw';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { server } from '../test/server';
import { ok, renderWithProviders } from '../test/utils';
import { setLanguage } from '../i18n';
import { useUserStore } from '../store/user';
import WorkPage from './WorkPage';
import ManagerPage from './ManagerPage';
import FollowPage from './FollowPage';
import DeployPage from './DeployPage';

// bpmn-js needs a real browser (SVG measurements): the viewer is a fake that records what it was given
const viewer = vi.hoisted(() => ({ xml: [] as string[], markers: [] as [string, string][] }));
vi.mock('./bpmnViewer', () => ({
  default: class {
    importXML(xml: string) {
      viewer.xml.push(xml);
      return Promise.resolve({});
    }
    get(name: string) {
      if (name === 'canvas') return { zoom: () => undefined, addMarker: (id: string, m: string) => viewer.markers.push([id, m]) };
      return { get: (id: string) => (id === 'missing' ? undefined : { id }) };
    }
    destroy() {}
  },
}));

const pageOf = <T,>(rows: T[]) => ({ records: rows, total: rows.length, size: 10, current: 1, pages: 1 });
const dict = http.get('*/api/blade-system/dict/dictionary', ({ request }) =>
  HttpResponse.json(ok(new URL(request.url).searchParams.get('code') === 'flow' ? [{ dictKey: '1', dictValue: '请假流程' }, { dictKey: '3', dictValue: '单据审批' }] : [])),
);
const XML = '<definitions id="d"/>';

/** Every button of the flow screens (the menu buttons of the seeded work and flow menus). */
const ALL_BUTTONS = Object.fromEntries(
  [
    'work_start_start', 'work_claim_claim', 'work_todo_handle',
    ...['work_claim', 'work_todo', 'work_send', 'work_done'].flatMap((c) => [`${c}_view`, `${c}_follow`]),
    'flow_manager_view', 'flow_manager_state', 'flow_manager_delete', 'flow_follow_view', 'flow_follow_delete', 'flow_deploy_upload',
  ].map((c) => [c, true]),
);

const task = {
  taskId: 't1',
  taskName: '主管审批',
  processInstanceId: 'p1',
  processDefinitionName: '物料审批',
  categoryName: '单据审批',
  startUserName: '张三',
  createTime: '2026-11-27 09:00:00',
  businessTable: 'bb_material',
  businessId: '42',
};

describe('work lists', () => {
  beforeEach(async () => {
    await setLanguage('zh');
    useUserStore.setState({ permission: ALL_BUTTONS });
    viewer.xml.length = 0;
    viewer.markers.length = 0;
  });

  it('approves a to-do task with the default comment 同意, after showing its history and highlighted diagram', async () => {
    const completed: unknown[] = [];
    let listed = 0;
    server.use(
      dict,
      http.get('*/api/blade-flow/work/todo-list', () => {
        listed++;
        return HttpResponse.json(ok(pageOf(listed === 1 ? [task] : [])));
      }),
      http.get('*/api/blade-flow/work/task-detail', () => HttpResponse.json(ok({ ...task, resource: { service: 'bluebird-basic', name: 'nothing' } }))),
      http.get('*/api/meta/resources', () => HttpResponse.json(ok([]))),
      http.get('*/api/blade-flow/process/history-flow-list', ({ request }) => {
        expect(new URL(request.url).searchParams.get('processInstanceId')).toBe('p1');
        return HttpResponse.json(
          ok([
            { historyActivityId: 'start', historyActivityName: '开始', assigneeName: '张三', createTime: '2026-11-27 09:00:00', endTime: '2026-11-27 09:00:00' },
            { historyActivityId: 'approve', historyActivityName: '主管审批', createTime: '2026-11-27 09:00:01' },
          ]),
        );
      }),
      http.get('*/api/blade-flow/process/diagram', () =>
        HttpResponse.json(ok({ processInstanceId: 'p1', xml: XML, finished: false, result: 'running', activities: [{ activityId: 'start', state: 'done' }, { activityId: 'approve', state: 'active' }, { activityId: 'missing', state: 'done' }], flows: ['f1'] })),
      ),
      http.post('*/api/blade-flow/work/complete-task', async ({ request }) => {
        completed.push(await request.json());
        return HttpResponse.json(ok(null));
      }),
    );
    const changed = vi.fn();
    window.addEventListener('bb-flow-tasks-changed', changed);
    renderWithProviders(<WorkPage kind="todo" />);
    fireEvent.click(await screen.findByRole('button', { name: '办理' }));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText('物料审批 · 主管审批')).toBeInTheDocument();
    expect(await within(dialog).findByText('没有可显示的业务单据')).toBeInTheDocument();
    fireEvent.click(within(dialog).getByRole('tab', { name: '流转记录' }));
    expect(await within(dialog).findAllByTestId('flow-history-item')).toHaveLength(2);
    expect(within(dialog).getByText('待处理')).toBeInTheDocument();
    fireEvent.click(within(dialog).getByRole('tab', { name: '流程图' }));
    await waitFor(() => expect(viewer.markers).toEqual([['start', 'bb-flow-done'], ['approve', 'bb-flow-active'], ['f1', 'bb-flow-taken']]));
    expect(viewer.xml).toEqual([XML]);
    expect(within(dialog).getByText('审批中')).toBeInTheDocument();
    // empty, 同意 only its placeholder: what an approval without a comment sends
    expect(within(dialog).getByLabelText('审批意见')).toHaveValue('');
    expect(within(dialog).getByLabelText('审批意见')).toHaveAttribute('placeholder', '同意');
    fireEvent.click(within(dialog).getByRole('button', { name: '同 意' }));
    await waitFor(() => expect(completed).toEqual([{ taskId: 't1', processInstanceId: 'p1', flag: 'ok', comment: '同意' }]));
    await waitFor(() => expect(changed).toHaveBeenCalled());
    // the list is read again without the task
    await waitFor(() => expect(listed).toBeGreaterThan(1));
    window.removeEventListener('bb-flow-tasks-changed', changed);
  });

  it('rejects with the comment written, and refuses a rejection without one', async () => {
    const completed: { flag: string; comment: string }[] = [];
    server.use(
      dict,
      http.get('*/api/blade-flow/work/todo-list', () => HttpResponse.json(ok(pageOf([task])))),
      http.get('*/api/blade-flow/work/task-detail', () => HttpResponse.json(ok(task))),
      http.get('*/api/meta/resources', () => HttpResponse.json(ok([]))),
      http.post('*/api/blade-flow/work/complete-task', async ({ request }) => {
        completed.push((await request.json()) as { flag: string; comment: string });
        return HttpResponse.json(ok(null));
      }),
    );
    renderWithProviders(<WorkPage kind="todo" />);
    fireEvent.click(await screen.findByRole('button', { name: '办理' }));
    const dialog = await screen.findByRole('dialog');
    const comment = within(dialog).getByLabelText('审批意见');
    // as opened (nothing written), then blanks only
    fireEvent.click(within(dialog).getByRole('button', { name: '驳 回' }));
    expect(await screen.findByText('驳回时请填写审批意见')).toBeInTheDocument();
    fireEvent.change(comment, { target: { value: '  ' } });
    fireEvent.click(within(dialog).getByRole('button', { name: '驳 回' }));
    expect(await screen.findByText('驳回时请填写审批意见')).toBeInTheDocument();
    expect(completed).toEqual([]);
    fireEvent.change(comment, { target: { value: '数量不对' } });
    fireEvent.click(within(dialog).getByRole('button', { name: '驳 回' }));
    await waitFor(() => expect(completed).toEqual([expect.objectContaining({ taskId: 't1', flag: 'reject', comment: '数量不对' })]));
  });

  it('starts the next task without the comment written for the last one', async () => {
    const completed: { taskId: string; flag: string; comment: string }[] = [];
    const second = { ...task, taskId: 't2', taskName: '复审' };
    let rows = [task, second];
    server.use(
      dict,
      http.get('*/api/blade-flow/work/todo-list', () => HttpResponse.json(ok(pageOf(rows)))),
      http.get('*/api/blade-flow/work/task-detail', ({ request }) =>
        HttpResponse.json(ok(new URL(request.url).searchParams.get('taskId') === 't2' ? second : task)),
      ),
      http.get('*/api/meta/resources', () => HttpResponse.json(ok([]))),
      http.post('*/api/blade-flow/work/complete-task', async ({ request }) => {
        const body = (await request.json()) as { taskId: string; flag: string; comment: string };
        completed.push(body);
        rows = rows.filter((r) => r.taskId !== body.taskId);
        return HttpResponse.json(ok(null));
      }),
    );
    renderWithProviders(<WorkPage kind="todo" />);
    fireEvent.click((await screen.findAllByRole('button', { name: '办理' }))[0]);
    let dialog = await screen.findByRole('dialog');
    fireEvent.change(within(dialog).getByLabelText('审批意见'), { target: { value: '初审通过' } });
    fireEvent.click(within(dialog).getByRole('button', { name: '同 意' }));
    await waitFor(() => expect(completed).toHaveLength(1));
    await waitFor(() => expect(screen.getAllByRole('button', { name: '办理' })).toHaveLength(1));
    fireEvent.click(screen.getByRole('button', { name: '办理' }));
    dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByLabelText('审批意见')).toHaveValue('');
    // so a rejection without a comment is refused, not sent with the last task's approval
    fireEvent.click(within(dialog).getByRole('button', { name: '驳 回' }));
    expect(await screen.findByText('驳回时请填写审批意见')).toBeInTheDocument();
    expect(completed).toEqual([expect.objectContaining({ taskId: 't1', flag: 'ok', comment: '初审通过' })]);
  });

  it('claims a task of the claim list and filters by category and name', async () => {
    const claimed: string[] = [];
    const queries: URLSearchParams[] = [];
    server.use(
      dict,
      http.get('*/api/blade-flow/work/claim-list', ({ request }) => {
        queries.push(new URL(request.url).searchParams);
        return HttpResponse.json(ok(pageOf([task])));
      }),
      http.post('*/api/blade-flow/work/claim-task', ({ request }) => {
        claimed.push(new URL(request.url).searchParams.get('taskId')!);
        return HttpResponse.json(ok(null));
      }),
    );
    renderWithProviders(<WorkPage kind="claim" />);
    fireEvent.click(await screen.findByRole('button', { name: '签收' }));
    await waitFor(() => expect(claimed).toEqual(['t1']));
    fireEvent.change(screen.getByLabelText('流程名称'), { target: { value: '物料' } });
    fireEvent.click(screen.getByRole('button', { name: /搜\s*索/ }));
    await waitFor(() => expect(queries.some((q) => q.get('processDefinitionName') === '物料' && q.get('current') === '1')).toBe(true));
  });

  it('lists sent instances with their state, in English', async () => {
    await setLanguage('en');
    server.use(
      dict,
      http.get('*/api/blade-flow/work/send-list', () =>
        HttpResponse.json(ok(pageOf([{ ...task, taskId: '0', processIsFinished: 'finished' }, { ...task, taskId: '', processInstanceId: 'p2', processIsFinished: 'unfinished' }]))),
      ),
    );
    renderWithProviders(<WorkPage kind="send" />);
    expect(await screen.findByText('Finished')).toBeInTheDocument();
    expect(screen.getByText('Running')).toBeInTheDocument();
    expect(screen.getByRole('columnheader', { name: 'Current task' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Handle' })).not.toBeInTheDocument();
    // a row without a task (id 0) opens from the row itself: no task-detail asked (msw would refuse it)
    server.use(http.get('*/api/meta/resources', () => HttpResponse.json(ok([]))));
    fireEvent.click(screen.getAllByRole('button', { name: 'Details' })[0]);
    expect(await screen.findByText('No document to show')).toBeInTheDocument();
  });

  it('starts the leave process from its form', async () => {
    const started: unknown[] = [];
    server.use(
      dict,
      http.get('*/api/blade-flow/work/start-list', () => HttpResponse.json(ok(pageOf([{ id: 'd1', key: 'leave', name: '请假流程', version: 1, categoryName: '请假流程' }, { id: 'd2', key: 'material', name: '物料审批', version: 2 }])))),
      http.get('*/api/blade-user/page', () => HttpResponse.json(ok(pageOf([{ id: '7', realName: '李四', account: 'lisi' }])))),
      http.post('*/api/blade-desk/process/leave/start-process', async ({ request }) => {
        started.push(await request.json());
        return HttpResponse.json(ok(null));
      }),
    );
    renderWithProviders(<WorkPage kind="start" />);
    const rows = await screen.findAllByRole('button', { name: '发起' });
    fireEvent.click(rows[1]);
    expect(await screen.findByText('该流程由业务单据提交审批时发起')).toBeInTheDocument();
    fireEvent.click(rows[0]);
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText('请假申请')).toBeInTheDocument();
    fireEvent.click(within(dialog).getByRole('button', { name: '发 起' }));
    expect(await within(dialog).findByText('请选择请假时间')).toBeInTheDocument();
    expect(started).toEqual([]);
  });
});

describe('flow management', () => {
  beforeEach(async () => {
    await setLanguage('zh');
    useUserStore.setState({ permission: ALL_BUTTONS });
    viewer.xml.length = 0;
  });

  it('suspends and activates definitions, deletes a deployment and views its diagram', async () => {
    const states: string[] = [];
    const deleted: string[] = [];
    server.use(
      dict,
      http.get('*/api/blade-flow/manager/list', () =>
        HttpResponse.json(ok(pageOf([{ id: 'def1', deploymentId: 'dep1', name: '物料审批', key: 'material', version: 3, suspensionState: 1, tenantIds: '000000' }, { id: 'def2', deploymentId: 'dep2', name: '请假', key: 'leave', version: 1, suspensionState: 2 }]))),
      ),
      http.post('*/api/blade-flow/manager/change-state', ({ request }) => {
        const q = new URL(request.url).searchParams;
        states.push(`${q.get('processId')}:${q.get('state')}`);
        return HttpResponse.json(ok(null));
      }),
      http.post('*/api/blade-flow/manager/delete-deployment', ({ request }) => {
        deleted.push(new URL(request.url).searchParams.get('deploymentIds')!);
        return HttpResponse.json(ok(null));
      }),
      http.get('*/api/blade-flow/manager/definition-xml', ({ request }) => {
        expect(new URL(request.url).searchParams.get('processId')).toBe('def1');
        return HttpResponse.json(ok({ xml: XML }));
      }),
    );
    renderWithProviders(<ManagerPage />);
    fireEvent.click(await screen.findByRole('button', { name: '挂起' }));
    fireEvent.click(screen.getByRole('button', { name: '激活' }));
    await waitFor(() => expect(states).toEqual(['def1:suspend', 'def2:active']));
    fireEvent.click(screen.getAllByRole('button', { name: '删除' })[0]);
    fireEvent.click(await screen.findByRole('button', { name: /确\s*定/ }));
    await waitFor(() => expect(deleted).toEqual(['dep1']));
    fireEvent.click(screen.getAllByRole('button', { name: '流程图' })[0]);
    await waitFor(() => expect(viewer.xml).toEqual([XML]));
  });

  it('shows only the actions whose buttons the user holds', async () => {
    useUserStore.setState({ permission: { flow_manager_view: true, flow_follow_view: true } });
    server.use(
      dict,
      http.get('*/api/blade-flow/manager/list', () => HttpResponse.json(ok(pageOf([{ id: 'def1', deploymentId: 'dep1', name: '物料审批', key: 'material', version: 3, suspensionState: 1 }])))),
      http.get('*/api/blade-flow/follow/list', () => HttpResponse.json(ok(pageOf([{ processInstanceId: 'p9', processDefinitionName: '请假流程', businessKey: 'leave:1' }])))),
    );
    renderWithProviders(
      <>
        <ManagerPage />
        <FollowPage />
      </>,
    );
    expect(await screen.findByText('leave:1')).toBeInTheDocument();
    expect(await screen.findByText('material')).toBeInTheDocument();
    expect(screen.getAllByRole('button', { name: '流程图' })).toHaveLength(2);
    expect(screen.queryByRole('button', { name: '挂起' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: '删除' })).not.toBeInTheDocument();
  });

  it('deletes a running instance only with a reason', async () => {
    const deleted: string[] = [];
    server.use(
      http.get('*/api/blade-flow/follow/list', () => HttpResponse.json(ok(pageOf([{ processInstanceId: 'p9', processDefinitionName: '物料审批', processDefinitionVersion: 1, businessKey: 'bb_material:42', taskNames: '主管审批', startUserName: '张三' }])))),
      http.post('*/api/blade-flow/follow/delete-process-instance', ({ request }) => {
        const q = new URL(request.url).searchParams;
        deleted.push(`${q.get('processInstanceId')}:${q.get('deleteReason')}`);
        return HttpResponse.json(ok(null));
      }),
    );
    renderWithProviders(<FollowPage />);
    expect(await screen.findByText('bb_material:42')).toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: '删除' }));
    const dialog = await screen.findByRole('dialog');
    fireEvent.click(within(dialog).getByRole('button', { name: /确\s*定|OK/ }));
    expect(await within(dialog).findByText('请填写删除原因')).toBeInTheDocument();
    expect(deleted).toEqual([]);
    fireEvent.change(within(dialog).getByLabelText('删除原因'), { target: { value: '重复提交' } });
    fireEvent.click(within(dialog).getByRole('button', { name: /确\s*定|OK/ }));
    await waitFor(() => expect(deleted).toEqual(['p9:重复提交']));
  });

  it('uploads BPMN files with the category and tenants', async () => {
    let got: FormData | undefined;
    server.use(
      dict,
      http.get('*/api/blade-system/tenant/list', () => HttpResponse.json(ok(pageOf([{ tenantId: '000000', tenantName: '管理组' }, { tenantId: '100001', tenantName: '分公司' }])))),
      http.post('*/api/blade-flow/manager/deploy-upload', async ({ request }) => {
        got = await request.formData();
        return HttpResponse.json(ok(null));
      }),
    );
    const { container } = renderWithProviders(<DeployPage />);
    fireEvent.click(screen.getByRole('button', { name: '部 署' }));
    expect(await screen.findByText('请选择流程分类')).toBeInTheDocument();
    fireEvent.mouseDown(screen.getByLabelText('流程分类'));
    fireEvent.click(await screen.findByText('单据审批'));
    fireEvent.mouseDown(screen.getByLabelText('租户'));
    fireEvent.click(await screen.findByText('分公司 (100001)'));
    const input = container.querySelector('input[type=file]') as HTMLInputElement;
    const notBpmn = new File(['x'], 'notes.txt', { type: 'text/plain' });
    const bpmn = new File([XML], 'material.bpmn', { type: 'application/xml' });
    fireEvent.change(input, { target: { files: [notBpmn, bpmn] } });
    expect(await screen.findByText('notes.txt 不是 .bpmn 或 .xml 文件')).toBeInTheDocument();
    expect(await screen.findByText('material.bpmn')).toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: '部 署' }));
    await waitFor(() => expect(got).toBeDefined());
    expect(got!.get('category')).toBe('3');
    expect(got!.get('tenantIds')).toBe('100001');
    // jsdom's File does not survive msw's multipart (name "blob", content "undefined"): its type tells the
    // .bpmn chosen from the refused .txt
    const files = got!.getAll('files') as File[];
    expect(files.map((f) => f.type)).toEqual(['application/xml']);
    expect(await screen.findByText('操作成功')).toBeInTheDocument();
    expect(screen.getByRole('progressbar')).toHaveAttribute('aria-valuenow', '100');
  });
});
