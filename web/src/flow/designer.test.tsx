import { useReducer } from 'react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { http, HttpResponse } from 'msw';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { server } from '../test/server';
import { ok, renderWithProviders } from '../test/utils';
import { setLanguage } from '../i18n';
import { useUserStore } from '../store/user';
import ModelPage from './ModelPage';
import { PropertiesPanel, readUserTask, type BusinessObject, type ModelerApi, type Shape } from './PropertiesPanel';
import { ANY_COMPLETION } from './modelXml';

const pageOf = <T,>(rows: T[]) => ({ records: rows, total: rows.length, size: 10, current: 1, pages: 1 });
const dict = http.get('*/api/blade-system/dict/dictionary', () => HttpResponse.json(ok([{ dictKey: '3', dictValue: '单据审批' }])));

/** A moddle object: attributes in a map, read by get() as bpmn-js's are. */
function bo(type: string, id: string, attrs: Record<string, unknown> = {}): BusinessObject & { set(n: string, v: unknown): void } {
  const o: Record<string, unknown> = { $type: type, id, ...attrs };
  return Object.assign(o, {
    get: (n: string) => o[n],
    set: (n: string, v: unknown) => {
      o[n] = v;
    },
  }) as unknown as BusinessObject & { set(n: string, v: unknown): void };
}

/**
 * A fake of the modeler's modeling and moddle services: updateProperties writes into the object and tells
 * the panel's host, as bpmn-js's element.changed does.
 */
function fakeApi() {
  const calls: [string, Record<string, unknown>][] = [];
  const changed = { notify: () => undefined as void };
  const api: ModelerApi = {
    modeling: {
      updateProperties: (el, props) => {
        calls.push([el.id, props]);
        Object.entries(props).forEach(([k, v]) => ((el.businessObject as unknown as Record<string, unknown>)[k] = v));
        changed.notify();
      },
    },
    moddle: { create: (type, attrs) => bo(type, `${type}-new`, attrs) },
  };
  /** The panel as the designer hosts it: drawn again on every change. */
  function Host({ el }: { el: Shape }) {
    const [, bump] = useReducer((n: number) => n + 1, 0);
    changed.notify = bump;
    return <PropertiesPanel el={el} api={api} />;
  }
  return { api, calls, Host };
}

describe('model list', () => {
  beforeEach(async () => {
    await setLanguage('zh');
    useUserStore.setState({ permission: { flow_model_add: true, flow_model_edit: true, flow_model_deploy: true, flow_model_delete: true } });
  });

  it('deploys a model with a category and tenants, and deletes one after confirming', async () => {
    const deployed: string[] = [];
    const removed: string[] = [];
    server.use(
      dict,
      http.get('*/api/blade-flow/model/list', () => HttpResponse.json(ok(pageOf([{ id: 'm1', modelKey: 'material_approval', name: '物料审批', version: 2, category: '3' }])))),
      http.get('*/api/blade-system/tenant/list', () => HttpResponse.json(ok([{ tenantId: '000000', tenantName: '管理组' }]))),
      http.post('*/api/blade-flow/model/deploy', ({ request }) => {
        const q = new URL(request.url).searchParams;
        deployed.push(`${q.get('modelId')}|${q.get('category')}|${q.get('tenantIds')}`);
        return HttpResponse.json(ok(null));
      }),
      http.post('*/api/blade-flow/model/remove', ({ request }) => {
        removed.push(new URL(request.url).searchParams.get('ids')!);
        return HttpResponse.json(ok(null));
      }),
    );
    renderWithProviders(<ModelPage />);
    expect(await screen.findByText('material_approval')).toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: '部署' }));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText('部署模型「物料审批」')).toBeInTheDocument();
    fireEvent.mouseDown(within(dialog).getByLabelText('租户'));
    fireEvent.click(await screen.findByText('管理组 (000000)'));
    fireEvent.click(within(dialog).getByRole('button', { name: '部 署' }));
    await waitFor(() => expect(deployed).toEqual(['m1|3|000000']));
    fireEvent.click(screen.getByRole('button', { name: '删除' }));
    fireEvent.click(await screen.findByRole('button', { name: /确\s*定/ }));
    await waitFor(() => expect(removed).toEqual(['m1']));
  });
});

describe('designer properties panel', () => {
  beforeEach(async () => {
    await setLanguage('zh');
  });

  it('sets a user task candidate groups from the roles and makes it a countersign of any one', async () => {
    server.use(
      http.get('*/api/blade-system/role/list', () => HttpResponse.json(ok([{ id: '1', roleName: '超级管理员', roleAlias: 'administrator', children: [{ id: '2', roleName: '管理员', roleAlias: 'admin' }] }]))),
      http.get('*/api/blade-user/page', () => HttpResponse.json(ok(pageOf([{ id: '7', realName: '李四', account: 'lisi' }])))),
    );
    const task = { id: 'Task_1', type: 'bpmn:UserTask', businessObject: bo('bpmn:UserTask', 'Task_1', { name: '主管审批' }) } as Shape;
    const { calls, Host } = fakeApi();
    renderWithProviders(<Host el={task} />);
    expect(screen.getByLabelText('名称')).toHaveValue('主管审批');
    fireEvent.mouseDown(screen.getByLabelText('候选组(角色)'));
    fireEvent.click(await screen.findByText('管理员 (admin)'));
    expect(calls.at(-1)).toEqual(['Task_1', { 'camunda:candidateGroups': 'admin' }]);
    fireEvent.click(screen.getByText('${initiator}'));
    expect(calls.at(-1)).toEqual(['Task_1', { 'camunda:assignee': '${initiator}' }]);
    expect(screen.getByLabelText('处理人表达式')).toHaveValue('${initiator}');
    fireEvent.click(screen.getByText('或签(任一同意)'));
    const [, props] = calls.at(-1)!;
    expect(props['camunda:assignee']).toBe('${assignee}');
    const loop = props.loopCharacteristics as BusinessObject & { completionCondition?: { body?: string } };
    expect(loop.$type).toBe('bpmn:MultiInstanceLoopCharacteristics');
    expect(loop.get('camunda:elementVariable')).toBe('assignee');
    expect((loop.get('completionCondition') as { body: string }).body).toBe(ANY_COMPLETION);
    expect(readUserTask(task.businessObject).multi).toBe('any');
    expect(readUserTask(task.businessObject).candidateGroups).toEqual(['admin']);
  });

  it('writes a condition on a flow out of an exclusive gateway, or marks it the default', () => {
    const gateway = { id: 'Gw', type: 'bpmn:ExclusiveGateway', businessObject: bo('bpmn:ExclusiveGateway', 'Gw') } as Shape;
    const flow = { id: 'Flow_long', type: 'bpmn:SequenceFlow', source: gateway, businessObject: bo('bpmn:SequenceFlow', 'Flow_long') } as Shape;
    const { calls, Host } = fakeApi();
    renderWithProviders(<Host el={flow} />);
    fireEvent.change(screen.getByLabelText('条件表达式'), { target: { value: 'days > 3' } });
    const [id, props] = calls.at(-1)!;
    expect(id).toBe('Flow_long');
    expect((props.conditionExpression as { $type: string; body: string }).body).toBe('${days > 3}');
    expect(screen.getByLabelText('条件表达式')).toHaveValue('days > 3');
    fireEvent.click(screen.getByRole('checkbox'));
    expect(calls.slice(-2)).toEqual([
      ['Flow_long', { conditionExpression: undefined }],
      ['Gw', { default: flow.businessObject }],
    ]);
  });

  it('shows no gateway fields on a flow out of a task', () => {
    const task = { id: 'T', type: 'bpmn:UserTask', businessObject: bo('bpmn:UserTask', 'T') } as Shape;
    const flow = { id: 'F', type: 'bpmn:SequenceFlow', source: task, businessObject: bo('bpmn:SequenceFlow', 'F') } as Shape;
    renderWithProviders(<PropertiesPanel el={flow} api={fakeApi().api} />);
    expect(screen.queryByLabelText('条件表达式')).not.toBeInTheDocument();
    expect(screen.getByLabelText('名称')).toBeInTheDocument();
  });
});

vi.mock('./bpmnModeler', () => ({ createModeler: () => ({}) }));
