import { useState } from 'react';
import { Button, Card, Form, Progress, Select, Upload, type UploadFile } from 'antd';
import { InboxOutlined } from '@ant-design/icons';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { toast } from '../util/notify';
import { deployUpload } from './api';
import { useFlowCategories } from './FlowTable';
import { TenantSelect } from './TenantSelect';
import { useCan } from './perm';

const ACCEPT = '.bpmn,.xml';

/** /flow/deploy: upload BPMN files with a category and tenants (manager/deploy-upload, multipart), with progress. */
export default function DeployPage() {
  const { t } = useTranslation();
  const client = useQueryClient();
  const can = useCan();
  const categories = useFlowCategories();
  const [form] = Form.useForm<{ category: string; tenantIds?: string[] }>();
  const [files, setFiles] = useState<UploadFile[]>([]);
  const [percent, setPercent] = useState<number | null>(null);
  const deploy = async () => {
    const v = await form.validateFields();
    if (files.length === 0) {
      toast.error(t('flow.filesRequired'));
      return;
    }
    setPercent(0);
    try {
      const r = await deployUpload(
        files.map((f) => (f.originFileObj ?? f) as unknown as File),
        v.category,
        v.tenantIds ?? [],
        (p) => setPercent(p),
      );
      setPercent(100);
      toast.success(r.msg || t('flow.deployed'));
      setFiles([]);
      await client.invalidateQueries({ queryKey: ['flow', 'list'] });
    } catch {
      setPercent(null);
    }
  };
  return (
    <Card size="small" title={t('flow.deployTitle')} style={{ maxWidth: 760 }}>
      <Form form={form} layout="vertical" name="flow-deploy">
        <Form.Item name="category" label={t('flow.category')} rules={[{ required: true, message: t('flow.categoryRequired') }]}>
          <Select options={categories} placeholder={t('flow.category')} />
        </Form.Item>
        <Form.Item name="tenantIds" label={t('flow.tenants')}>
          <TenantSelect />
        </Form.Item>
        <Form.Item label={t('flow.files')} required>
          <Upload.Dragger
            accept={ACCEPT}
            multiple
            fileList={files}
            beforeUpload={(f) => {
              if (!/\.(bpmn|xml)$/i.test(f.name)) {
                toast.error(t('flow.fileType', { name: f.name }));
                return Upload.LIST_IGNORE;
              }
              return false;
            }}
            onChange={({ fileList }) => {
              setFiles(fileList);
              setPercent(null);
            }}
          >
            <p className="ant-upload-drag-icon">
              <InboxOutlined />
            </p>
            <p className="ant-upload-text">{t('flow.dropFiles')}</p>
            <p className="ant-upload-hint">{t('flow.dropHint')}</p>
          </Upload.Dragger>
        </Form.Item>
        {percent !== null && <Progress percent={percent} status={percent === 100 ? 'success' : 'active'} aria-label={t('flow.uploadProgress')} />}
        <Button type="primary" disabled={!can('flow_deploy_upload')} onClick={() => void deploy().catch(() => undefined)} loading={percent !== null && percent < 100}>
          {t('flow.deploy')}
        </Button>
      </Form>
    </Card>
  );
}
