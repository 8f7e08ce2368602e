import { useEffect, useReducer, useRef, useState } from 'react';
import { Alert, Button, Form, Input, Select, Space, Spin } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { toast } from '../util/notify';
import { modelDetail, modelSubmit, type ModelRow } from './api';
import { useFlowCategories } from './FlowTable';
import { blankXml } from './modelXml';
import { PropertiesPanel, type ModelerApi, type Shape } from './PropertiesPanel';
import './flow.css';

interface ModelerLike {
  importXML(xml: string): Promise<unknown>;
  saveXML(o: { format: boolean }): Promise<{ xml?: string }>;
  get(name: string): unknown;
  on(event: string, cb: (e: { newSelection?: Shape[]; element?: Shape }) => void): void;
  destroy(): void;
}

interface ModelFields {
  modelKey: string;
  name: string;
  description?: string;
  category?: string;
}

/** Makes the process's id and name the model's key and name before the XML is saved. */
function applyKey(modeler: ModelerLike, key: string, name: string) {
  const canvas = modeler.get('canvas') as { getRootElement(): Shape };
  const modeling = modeler.get('modeling') as ModelerApi['modeling'];
  const root = canvas.getRootElement();
  if (root.businessObject.id !== key || root.businessObject.name !== name) modeling.updateProperties(root, { id: key, name });
}

/**
 * The process designer: the bpmn-js Modeler (camunda moddle) with our own properties panel beside it and the
 * model's key, name, category and description above; saves through model/submit (the server checks the XML).
 */
export default function ModelDesigner({ modelId, onSaved, onClose }: { modelId?: string; onSaved: (m: ModelRow) => void; onClose: () => void }) {
  const { t } = useTranslation();
  const categories = useFlowCategories();
  const [form] = Form.useForm<ModelFields>();
  const host = useRef<HTMLDivElement>(null);
  const modelerRef = useRef<ModelerLike | null>(null);
  const [api, setApi] = useState<ModelerApi | null>(null);
  const [el, setEl] = useState<Shape | null>(null);
  const [, bump] = useReducer((n: number) => n + 1, 0);
  const [error, setError] = useState<string>();
  const [saving, setSaving] = useState(false);
  const { data: model, isLoading } = useQuery({ queryKey: ['flow', 'model', modelId], queryFn: () => modelDetail(modelId!), enabled: Boolean(modelId), gcTime: 0 });

  useEffect(() => {
    if (modelId && isLoading) return;
    let dead = false;
    let modeler: ModelerLike | undefined;
    form.setFieldsValue({ modelKey: model?.modelKey ?? '', name: model?.name ?? '', description: model?.description ?? '', category: model?.category || undefined });
    void import('./bpmnModeler')
      .then(async ({ createModeler }) => {
        if (dead || !host.current) return;
        modeler = createModeler(host.current) as unknown as ModelerLike;
        modelerRef.current = modeler;
        // the end-to-end test draws through the modeler's own API (e2e/tests/flow.spec.js)
        (window as unknown as { bbModeler?: ModelerLike }).bbModeler = modeler;
        await modeler.importXML(model?.xml || blankXml('process_' + Date.now().toString(36), t('flow.model.add')));
        if (dead) return;
        (modeler.get('canvas') as { zoom(l: string): void }).zoom('fit-viewport');
        const root = () => (modeler!.get('canvas') as { getRootElement(): Shape }).getRootElement();
        setApi({ modeling: modeler.get('modeling') as ModelerApi['modeling'], moddle: modeler.get('moddle') as ModelerApi['moddle'] });
        setEl(root());
        // a clicked label (a flow's condition name) stands for its element
        modeler.on('selection.changed', (e) => setEl(e.newSelection?.length === 1 ? (e.newSelection[0].labelTarget ?? e.newSelection[0]) : root()));
        modeler.on('element.changed', () => bump());
      })
      .catch((e: unknown) => !dead && setError(e instanceof Error ? e.message : String(e)));
    return () => {
      dead = true;
      modeler?.destroy();
      modelerRef.current = null;
    };
  }, [modelId, isLoading, model, form, t]);

  const save = async () => {
    const v = await form.validateFields();
    const modeler = modelerRef.current;
    if (!modeler) return;
    applyKey(modeler, v.modelKey, v.name);
    const { xml } = await modeler.saveXML({ format: true });
    setSaving(true);
    try {
      const saved = await modelSubmit({ id: modelId ?? model?.id, modelKey: v.modelKey, name: v.name, description: v.description ?? '', category: v.category ?? '', xml: xml ?? '' });
      toast.success(t('flow.model.saved'));
      onSaved(saved);
    } catch {
      /* the server's message (an unsupported element, a bad expression) was shown */
    } finally {
      setSaving(false);
    }
  };

  if (modelId && isLoading) return <Spin />;
  return (
    <div>
      <Form form={form} layout="inline" name="flow-model" style={{ marginBottom: 12, rowGap: 8 }}>
        <Form.Item name="modelKey" label={t('flow.model.key')} rules={[{ required: true, message: t('flow.model.keyRequired') }, { pattern: /^[A-Za-z][A-Za-z0-9_-]*$/, message: t('flow.model.keyPattern') }]}>
          <Input style={{ width: 160 }} disabled={Boolean(modelId)} />
        </Form.Item>
        <Form.Item name="name" label={t('flow.model.name')} rules={[{ required: true, message: t('flow.model.nameRequired') }]}>
          <Input style={{ width: 180 }} />
        </Form.Item>
        <Form.Item name="category" label={t('flow.category')}>
          <Select allowClear options={categories} style={{ width: 140 }} />
        </Form.Item>
        <Form.Item name="description" label={t('flow.model.description')}>
          <Input style={{ width: 200 }} />
        </Form.Item>
        <Form.Item>
          <Space>
            <Button type="primary" loading={saving} onClick={() => void save().catch(() => undefined)}>
              {t('flow.model.save')}
            </Button>
            <Button onClick={onClose}>{t('flow.model.back')}</Button>
          </Space>
        </Form.Item>
      </Form>
      {error && <Alert type="error" showIcon message={t('flow.diagramError')} description={error} style={{ marginBottom: 8 }} />}
      <div className="bb-flow-designer">
        <div ref={host} className="bb-flow-designer-canvas" data-testid="flow-modeler" />
        <div className="bb-flow-designer-panel">
          <PropertiesPanel el={el} api={api} />
        </div>
      </div>
    </div>
  );
}
