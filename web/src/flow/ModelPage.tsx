import { lazy, Suspense, useMemo, useState } from 'react';
import { App, Button, Form, Select, Spin, Tag } from 'antd';
import { PlusOutlined } from '@ant-design/icons';
import type { ColumnsType } from 'antd/es/table';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import DragDialog from '../components/DragDialog';
import RowButton from '../resource/RowButton';
import { perform } from './perform';
import { modelDeploy, modelList, modelRemove, type ModelRow, type Params } from './api';
import FlowTable, { flowListKey, useFlowCategories } from './FlowTable';
import { TenantSelect } from './TenantSelect';
import { useCan } from './perm';

// bpmn-js and the camunda moddle load with the designer, not with the model list
const ModelDesigner = lazy(() => import('./ModelDesigner'));

/** Deploys a model with a category and tenants. */
function DeployDialog({ model, onClose }: { model: ModelRow | null; onClose: () => void }) {
  const { t } = useTranslation();
  const client = useQueryClient();
  const categories = useFlowCategories();
  const [form] = Form.useForm<{ category: string; tenantIds?: string[] }>();
  const [busy, setBusy] = useState(false);
  const ok = async () => {
    const v = await form.validateFields();
    setBusy(true);
    await perform(
      () => modelDeploy(model!.id, v.category, v.tenantIds ?? []),
      () => {
        onClose();
        return client.invalidateQueries({ queryKey: ['flow', 'list'] });
      },
    );
    setBusy(false);
  };
  return (
    <DragDialog title={model ? t('flow.model.deployTitle', { name: model.name }) : ''} open={model !== null} onCancel={onClose} onOk={() => void ok().catch(() => undefined)} okText={t('flow.deploy')} confirmLoading={busy} width={560} destroyOnHidden>
      <Form form={form} layout="vertical" name="model-deploy" initialValues={{ category: model?.category || undefined }}>
        <Form.Item name="category" label={t('flow.category')} rules={[{ required: true, message: t('flow.categoryRequired') }]}>
          <Select options={categories} />
        </Form.Item>
        <Form.Item name="tenantIds" label={t('flow.tenants')}>
          <TenantSelect />
        </Form.Item>
      </Form>
    </DragDialog>
  );
}

/** /flow/model: process models; create and design them in the bpmn-js designer, deploy, delete. */
export default function ModelPage() {
  const { t } = useTranslation();
  const { modal } = App.useApp();
  const client = useQueryClient();
  const can = useCan();
  const [designing, setDesigning] = useState<{ id?: string } | null>(null);
  const [deploying, setDeploying] = useState<ModelRow | null>(null);
  const reload = () => client.invalidateQueries({ queryKey: flowListKey('model') });
  const columns = useMemo<ColumnsType<ModelRow>>(
    () => [
      { key: 'modelKey', dataIndex: 'modelKey', title: t('flow.model.key'), width: 160 },
      { key: 'name', dataIndex: 'name', title: t('flow.model.name'), width: 180 },
      { key: 'version', dataIndex: 'version', title: t('flow.model.version'), width: 80, render: (v: unknown) => (v ? <Tag>v{String(v)}</Tag> : null) },
      { key: 'description', dataIndex: 'description', title: t('flow.model.description'), width: 200 },
      { key: 'updateTime', dataIndex: 'updateTime', title: t('flow.model.updateTime'), width: 170 },
    ],
    [t],
  );
  const remove = (m: ModelRow) =>
    modal.confirm({
      title: t('flow.model.remove'),
      content: t('flow.model.removeConfirm', { name: m.name }),
      okButtonProps: { danger: true },
      onOk: () => perform(() => modelRemove([m.id]), reload),
    });
  return (
    <>
      <FlowTable<ModelRow>
        listKey="model"
        fetch={(p: Params) => modelList(p)}
        columns={columns}
        rowKey={(r) => r.id}
        filters={[{ kind: 'text', name: 'name', label: t('flow.model.name') }]}
        toolbar={
          can('flow_model_add') && (
            <Button type="primary" icon={<PlusOutlined />} onClick={() => setDesigning({})}>
              {t('flow.model.add')}
            </Button>
          )
        }
        actionWidth={170}
        actions={(m) => (
          <>
            {can('flow_model_edit') && <RowButton onClick={() => setDesigning({ id: m.id })}>{t('flow.model.edit')}</RowButton>}
            {can('flow_model_deploy') && <RowButton onClick={() => setDeploying(m)}>{t('flow.model.deploy')}</RowButton>}
            {can('flow_model_delete') && (
              <RowButton danger onClick={() => remove(m)}>
                {t('flow.model.remove')}
              </RowButton>
            )}
          </>
        )}
      />
      <DragDialog title={t('flow.model.designer')} open={designing !== null} onCancel={() => setDesigning(null)} footer={null} fullscreen width={1300} destroyOnHidden mask={{ closable: false }}>
        {designing && (
          <Suspense fallback={<Spin />}>
            <ModelDesigner
              modelId={designing.id}
              onClose={() => setDesigning(null)}
              onSaved={(m) => {
                void reload();
                setDesigning({ id: m.id });
              }}
            />
          </Suspense>
        )}
      </DragDialog>
      <DeployDialog model={deploying} onClose={() => setDeploying(null)} />
    </>
  );
}
