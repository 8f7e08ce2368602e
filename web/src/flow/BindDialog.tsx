import { useEffect, useState } from 'react';
import { Alert, Checkbox, Space, Spin, Tag } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import DragDialog from '../components/DragDialog';
import { bindRoutes, routeBindings, type Definition } from './api';
import { perform } from './perform';

/** 绑定单据: which document types of the caller's tenant go through a deployed process. */
export default function BindDialog({ definition, onClose }: { definition: Definition | null; onClose: () => void }) {
  const { t } = useTranslation();
  const id = definition?.id ?? '';
  const { data, isLoading } = useQuery({ queryKey: ['flow', 'routes', id], queryFn: () => routeBindings(id), enabled: id !== '', gcTime: 0 });
  const [checked, setChecked] = useState<string[]>([]);
  const [saving, setSaving] = useState(false);
  useEffect(() => setChecked((data ?? []).filter((b) => b.bound).map((b) => b.route)), [data]);
  const save = async () => {
    setSaving(true);
    try {
      await perform(() => bindRoutes(id, checked), onClose);
    } finally {
      setSaving(false);
    }
  };
  return (
    <DragDialog
      title={definition ? t('flow.bindTitle', { name: definition.name }) : ''}
      open={definition !== null}
      onCancel={onClose}
      onOk={() => void save()}
      confirmLoading={saving}
      width={560}
      destroyOnHidden
    >
      <Alert type="info" showIcon message={t('flow.bindHint')} style={{ marginBottom: 12 }} />
      {isLoading ? (
        <Spin />
      ) : (
        <Checkbox.Group value={checked} onChange={(v) => setChecked(v as string[])} style={{ width: '100%' }}>
          <Space direction="vertical">
            {(data ?? []).map((b) => (
              <Checkbox key={b.route} value={b.route}>
                {b.label}
                {b.processKey !== '' && !b.bound && (
                  <Tag style={{ marginInlineStart: 8 }}>{t('flow.boundTo', { key: b.processKey })}</Tag>
                )}
              </Checkbox>
            ))}
          </Space>
        </Checkbox.Group>
      )}
    </DragDialog>
  );
}
