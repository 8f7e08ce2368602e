import { useMemo, useState } from 'react';
import { App, Tag } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import DragDialog from '../components/DragDialog';
import RowButton from '../resource/RowButton';
import { perform } from './perform';
import { changeState, deleteDeployment, managerList, type Definition, type Params } from './api';
import FlowTable, { definitionColumns, flowListKey } from './FlowTable';
import { DefinitionDiagram } from './FlowDiagram';
import { useCan } from './perm';
import BindDialog from './BindDialog';

const SUSPENDED = 2;

/** /flow/manager: deployed definitions; suspend or activate, delete the deployment, view the diagram. */
export default function ManagerPage() {
  const { t } = useTranslation();
  const { modal } = App.useApp();
  const client = useQueryClient();
  const can = useCan();
  const [diagram, setDiagram] = useState<Definition | null>(null);
  const [binding, setBinding] = useState<Definition | null>(null);
  const reload = () => client.invalidateQueries({ queryKey: flowListKey('manager') });
  const columns = useMemo<ColumnsType<Definition>>(
    () => [
      ...definitionColumns(t),
      { key: 'tenantIds', dataIndex: 'tenantIds', title: t('flow.tenants'), width: 160 },
      {
        key: 'suspensionState',
        dataIndex: 'suspensionState',
        title: t('flow.state'),
        width: 90,
        render: (v: unknown) => (Number(v) === SUSPENDED ? <Tag color="orange">{t('flow.suspended')}</Tag> : <Tag color="green">{t('flow.active')}</Tag>),
      },
      { key: 'deploymentTime', dataIndex: 'deploymentTime', title: t('flow.deployTime'), width: 170 },
    ],
    [t],
  );
  const toggle = (d: Definition) => perform(() => changeState(d.id, Number(d.suspensionState) === SUSPENDED ? 'active' : 'suspend'), reload);
  const remove = (d: Definition) =>
    modal.confirm({
      title: t('flow.deleteDeployment'),
      content: t('flow.deleteDeploymentConfirm', { name: d.name }),
      okButtonProps: { danger: true },
      onOk: () => perform(() => deleteDeployment([d.deploymentId ?? d.id]), reload),
    });
  return (
    <>
      <FlowTable<Definition>
        listKey="manager"
        fetch={(p: Params) => managerList(p)}
        columns={columns}
        rowKey={(r) => r.id}
        filters={[{ kind: 'category', name: 'category' }, { kind: 'text', name: 'key', label: t('flow.processKey') }, { kind: 'text', name: 'name', label: t('flow.processName') }]}
        actionWidth={270}
        actions={(d) => (
          <>
            {can('flow_manager_view') && <RowButton onClick={() => setDiagram(d)}>{t('flow.diagram')}</RowButton>}
            {can('flow_manager_state') && <RowButton onClick={() => void toggle(d)}>{Number(d.suspensionState) === SUSPENDED ? t('flow.activate') : t('flow.suspend')}</RowButton>}
            {can('flow_manager_bind') && <RowButton onClick={() => setBinding(d)}>{t('flow.bind')}</RowButton>}
            {can('flow_manager_delete') && (
              <RowButton danger onClick={() => remove(d)}>
                {t('crud.delete')}
              </RowButton>
            )}
          </>
        )}
      />
      <DragDialog title={diagram ? `${diagram.name} v${diagram.version ?? ''}` : ''} open={diagram !== null} onCancel={() => setDiagram(null)} footer={null} width={1000} destroyOnHidden>
        {diagram && <DefinitionDiagram processId={diagram.id} height={480} />}
      </DragDialog>
      <BindDialog definition={binding} onClose={() => setBinding(null)} />
    </>
  );
}
