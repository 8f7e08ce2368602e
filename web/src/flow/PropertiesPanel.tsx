import { useMemo } from 'react';
import { Button, Checkbox, Empty, Form, Input, Radio, Select, Space, Typography } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { roles } from './api';
import { UserSelect } from './UserSelect';
import { ANY_COMPLETION, collectionOf, idsOfCollection, MULTI_VAR, splitList, unwrapExpr, wrapExpr, type MultiKind } from './modelXml';

/** The parts of a bpmn-js element and its moddle object the panel reads and writes. */
export interface BusinessObject {
  id: string;
  name?: string;
  $type: string;
  get(name: string): unknown;
  loopCharacteristics?: BusinessObject & { completionCondition?: { body?: string } };
  conditionExpression?: { body?: string };
  sourceRef?: BusinessObject & { default?: BusinessObject };
  default?: BusinessObject;
}
export interface Shape {
  id: string;
  type: string;
  businessObject: BusinessObject;
  source?: Shape;
  /** A label's element (selecting a flow's name selects the label). */
  labelTarget?: Shape;
}
export interface ModelerApi {
  modeling: { updateProperties(el: Shape, props: Record<string, unknown>): void };
  moddle: { create(type: string, attrs?: Record<string, unknown>): BusinessObject & { set(n: string, v: unknown): void } };
}

/** What a user task's panel shows, read from its moddle object. */
export function readUserTask(bo: BusinessObject) {
  const loop = bo.loopCharacteristics;
  const multi: MultiKind = !loop ? 'none' : loop.completionCondition?.body ? 'any' : 'all';
  return {
    assignee: (bo.get('camunda:assignee') as string | undefined) ?? '',
    candidateUsers: splitList(bo.get('camunda:candidateUsers') as string | undefined),
    candidateGroups: splitList(bo.get('camunda:candidateGroups') as string | undefined),
    multi,
    multiUsers: loop ? idsOfCollection(loop.get('camunda:collection') as string | undefined) : [],
  };
}

const isExpr = (s: string) => /^[$#]\{.*\}$/s.test(s.trim());

function UserTaskPanel({ el, api }: { el: Shape; api: ModelerApi }) {
  const { t } = useTranslation();
  const v = readUserTask(el.businessObject);
  const { data: roleRows } = useQuery({ queryKey: ['flow', 'roles'], queryFn: roles, staleTime: 60_000 });
  const roleOptions = useMemo(() => (roleRows ?? []).filter((r) => r.roleAlias).map((r) => ({ value: r.roleAlias, label: `${r.roleName} (${r.roleAlias})` })), [roleRows]);
  const set = (props: Record<string, unknown>) => api.modeling.updateProperties(el, props);
  const setMulti = (kind: MultiKind, users: string[]) => {
    if (kind === 'none') {
      set({ loopCharacteristics: undefined, ...(v.assignee === `\${${MULTI_VAR}}` ? { 'camunda:assignee': undefined } : {}) });
      return;
    }
    const loop = api.moddle.create('bpmn:MultiInstanceLoopCharacteristics', { isSequential: false });
    loop.set('camunda:collection', collectionOf(users));
    loop.set('camunda:elementVariable', MULTI_VAR);
    if (kind === 'any') loop.set('completionCondition', api.moddle.create('bpmn:FormalExpression', { body: ANY_COMPLETION }));
    set({ loopCharacteristics: loop, 'camunda:assignee': `\${${MULTI_VAR}}` });
  };
  return (
    <>
      <Form.Item label={t('flow.panel.multi')}>
        <Radio.Group
          value={v.multi}
          onChange={(e) => setMulti(e.target.value as MultiKind, v.multiUsers)}
          options={[
            { value: 'none', label: t('flow.panel.multiNone') },
            { value: 'all', label: t('flow.panel.multiAll') },
            { value: 'any', label: t('flow.panel.multiAny') },
          ]}
        />
      </Form.Item>
      {v.multi !== 'none' ? (
        <Form.Item label={t('flow.panel.multiUsers')}>
          <UserSelect multiple value={v.multiUsers} onChange={(x) => setMulti(v.multi, (x as string[] | undefined) ?? [])} />
        </Form.Item>
      ) : (
        <>
          <Form.Item label={t('flow.panel.assignee')} extra={t('flow.panel.assigneeHint')}>
            <Space.Compact style={{ width: '100%' }}>
              <UserSelect value={v.assignee && !isExpr(v.assignee) ? v.assignee : undefined} onChange={(x) => set({ 'camunda:assignee': (x as string | undefined) || undefined })} />
              <Button onClick={() => set({ 'camunda:assignee': '${initiator}' })}>{'${initiator}'}</Button>
            </Space.Compact>
          </Form.Item>
          <Form.Item label={t('flow.panel.assigneeExpr')}>
            <Input aria-label={t('flow.panel.assigneeExpr')} value={v.assignee} onChange={(e) => set({ 'camunda:assignee': e.target.value || undefined })} />
          </Form.Item>
        </>
      )}
      <Form.Item label={t('flow.panel.candidateUsers')}>
        <UserSelect multiple value={v.candidateUsers} onChange={(x) => set({ 'camunda:candidateUsers': ((x as string[] | undefined) ?? []).join(',') || undefined })} />
      </Form.Item>
      <Form.Item label={t('flow.panel.candidateGroups')}>
        <Select
          aria-label={t('flow.panel.candidateGroups')}
          mode="multiple"
          allowClear
          optionFilterProp="label"
          options={roleOptions}
          value={v.candidateGroups}
          onChange={(x: string[]) => set({ 'camunda:candidateGroups': x.join(',') || undefined })}
        />
      </Form.Item>
    </>
  );
}

function GatewayFlowPanel({ el, api }: { el: Shape; api: ModelerApi }) {
  const { t } = useTranslation();
  const bo = el.businessObject;
  const gateway = el.source;
  const isDefault = gateway?.businessObject.default?.id === bo.id;
  return (
    <>
      <Typography.Text type="secondary">{t('flow.panel.gatewayFlow')}</Typography.Text>
      <Form.Item label={t('flow.panel.isDefault')} style={{ marginTop: 8 }}>
        <Checkbox
          checked={isDefault}
          onChange={(e) => {
            if (!gateway) return;
            if (e.target.checked) {
              api.modeling.updateProperties(el, { conditionExpression: undefined });
              api.modeling.updateProperties(gateway, { default: bo });
            } else api.modeling.updateProperties(gateway, { default: undefined });
          }}
        />
      </Form.Item>
      <Form.Item label={t('flow.panel.condition')} extra={t('flow.panel.conditionHint')}>
        <Input.TextArea
          aria-label={t('flow.panel.condition')}
          disabled={isDefault}
          rows={2}
          value={unwrapExpr(bo.conditionExpression?.body)}
          onChange={(e) => {
            const body = wrapExpr(e.target.value);
            api.modeling.updateProperties(el, { conditionExpression: body ? api.moddle.create('bpmn:FormalExpression', { body }) : undefined });
          }}
        />
      </Form.Item>
    </>
  );
}

/**
 * Our own properties panel of the designer (not bpmn-js-properties-panel): name of any element; for a user
 * task its assignee, candidate users (remote search), candidate groups (role aliases) and countersign; for
 * a flow out of an exclusive gateway its condition or default mark. Edits go through bpmn-js modeling, so
 * undo and redo cover them.
 */
export function PropertiesPanel({ el, api }: { el: Shape | null; api: ModelerApi | null }) {
  const { t } = useTranslation();
  if (!el || !api) return <Empty description={t('flow.panel.none')} />;
  const bo = el.businessObject;
  const isProcess = bo.$type === 'bpmn:Process';
  return (
    <Form layout="vertical" size="small" key={el.id} data-testid="flow-panel">
      <Typography.Title level={5} style={{ marginTop: 0 }}>
        {t('flow.panel.title')} · {bo.$type.replace('bpmn:', '')}
      </Typography.Title>
      <Form.Item label={isProcess ? t('flow.panel.processKey') : t('flow.panel.id')}>
        <Input value={bo.id} disabled />
      </Form.Item>
      <Form.Item label={t('flow.panel.name')}>
        <Input aria-label={t('flow.panel.name')} value={bo.name ?? ''} onChange={(e) => api.modeling.updateProperties(el, { name: e.target.value })} />
      </Form.Item>
      {bo.$type === 'bpmn:UserTask' && <UserTaskPanel el={el} api={api} />}
      {bo.$type === 'bpmn:SequenceFlow' && el.source?.type === 'bpmn:ExclusiveGateway' && <GatewayFlowPanel el={el} api={api} />}
    </Form>
  );
}
