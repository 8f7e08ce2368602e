import { useState } from 'react';
import { Button, DatePicker, Form, InputNumber, Select } from 'antd';
import { SettingOutlined } from '@ant-design/icons';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { Dayjs } from 'dayjs';
import ResourceCrud, { RowButton } from '../resource/ResourceCrud';
import DragDialog from '../components/DragDialog';
import type { Page } from '../api/types';
import type { Row } from '../resource/types';
import { toast } from '../util/notify';
import { getData, postQuery, WithMeta } from './common';

/** Settings of several tenants: account quota and expiry (POST tenant/setting). */
export function settingParams(ids: string[], v: { accountNumber?: number | null; expireTime?: Dayjs | null }) {
  const out: Record<string, string> = { ids: ids.join(',') };
  if (v.accountNumber !== undefined && v.accountNumber !== null) out.accountNumber = String(v.accountNumber);
  if (v.expireTime) out.expireTime = v.expireTime.format('YYYY-MM-DD HH:mm:ss');
  return out;
}

function SettingDialog({ ids, onClose, onDone }: { ids: string[] | null; onClose: () => void; onDone: () => void }) {
  const { t } = useTranslation();
  const [form] = Form.useForm<{ accountNumber?: number; expireTime?: Dayjs }>();
  const save = async () => {
    if (!ids) return;
    const v = await form.validateFields();
    if ((v.accountNumber === undefined || v.accountNumber === null) && !v.expireTime) {
      toast.warning(t('sys.settingRequired'));
      return;
    }
    await postQuery('/blade-system/tenant/setting', settingParams(ids, v));
    toast.success(t('sys.saved'));
    onDone();
    onClose();
  };
  return (
    <DragDialog title={t('sys.tenantSetting')} open={ids !== null} width={460} onCancel={onClose} onOk={() => void save().catch(() => undefined)} okText={t('crud.submit')} cancelText={t('crud.cancel')} destroyOnHidden>
      <Form form={form} layout="vertical" name="tenantSetting">
        <Form.Item name="accountNumber" label={t('sys.accountNumber')} extra={t('sys.accountNumberTip')}>
          <InputNumber min={-1} precision={0} style={{ width: '100%' }} />
        </Form.Item>
        <Form.Item name="expireTime" label={t('sys.expireTime')}>
          <DatePicker showTime style={{ width: '100%' }} format="YYYY-MM-DD HH:mm:ss" />
        </Form.Item>
      </Form>
    </DragDialog>
  );
}

/** Binds a tenant to a data source (POST tenant/datasource?tenantId=&datasourceId=). */
function DatasourceDialog({ tenant, onClose, onDone }: { tenant: Row | null; onClose: () => void; onDone: () => void }) {
  const { t } = useTranslation();
  const [value, setValue] = useState<string>();
  const { data } = useQuery({
    queryKey: ['options', 'datasource'],
    queryFn: async () => (await getData<Page<Row>>('/blade-develop/datasource/list', { current: 1, size: 200 })).records ?? [],
    enabled: tenant !== null,
  });
  const save = async () => {
    if (!tenant) return;
    if (!value) {
      toast.warning(t('sys.chooseDatasource'));
      return;
    }
    await postQuery('/blade-system/tenant/datasource', { tenantId: String(tenant.tenantId), datasourceId: value });
    toast.success(t('sys.saved'));
    onDone();
    onClose();
  };
  return (
    <DragDialog
      title={`${t('sys.tenantDatasource')}${tenant ? ` - ${String(tenant.tenantName ?? '')}` : ''}`}
      open={tenant !== null}
      width={460}
      onCancel={onClose}
      onOk={() => void save().catch(() => undefined)}
      okText={t('crud.submit')}
      cancelText={t('crud.cancel')}
      afterOpenChange={(o) => setValue(o && tenant?.datasourceId && tenant.datasourceId !== '0' ? String(tenant.datasourceId) : undefined)}
      destroyOnHidden
    >
      <Form layout="vertical">
        <Form.Item label={t('sys.datasource')} required>
          <Select
            aria-label={t('sys.datasource')}
            value={value}
            onChange={setValue}
            placeholder={t('sys.chooseDatasource')}
            options={(data ?? []).map((d) => ({ value: String(d.id), label: `${String(d.name ?? '')} (${String(d.url ?? '')})` }))}
          />
        </Form.Item>
      </Form>
    </DragDialog>
  );
}

/** Tenants: paged list (the package is a select field of the metadata), data source binding and settings. */
export default function TenantPage() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [setting, setSetting] = useState<string[] | null>(null);
  const [ds, setDs] = useState<Row | null>(null);
  return (
    <WithMeta code="tenant">
      {(meta) => {
        const reload = () => void queryClient.invalidateQueries({ queryKey: ['resource', meta.path] });
        return (
          <>
            <ResourceCrud
              meta={meta}
              listEndpoint="page"
              listFields={['tenantId', 'tenantName', 'linkman', 'contactNumber', 'domainUrl', 'accountNumber', 'expireTime', 'packageId']}
              // the quota, expiry and package before the contact and domain when the width leaves some out
              columnPriority={{ tenantId: 0, tenantName: 1, accountNumber: 2, expireTime: 3, packageId: 4 }}
              cells={{ accountNumber: (v) => (Number(v) === -1 ? t('sys.unlimited') : String(v ?? '')) }}
              addDefaults={() => ({ accountNumber: -1 })}
              toolbar={(ctx) =>
                ctx.can('tenant_setting') && (
                  <Button
                    icon={<SettingOutlined />}
                    onClick={() => {
                      if (ctx.selected.length === 0) toast.warning(t('crud.selectOne'));
                      else setSetting(ctx.selected.map((r) => String(r.id)));
                    }}
                  >
                    {t('sys.tenantSetting')}
                  </Button>
                )
              }
              rowActions={(row, ctx) =>
                ctx.can('tenant_datasource') && (
                  <RowButton onClick={() => setDs(row)}>
                    {t('sys.tenantDatasource')}
                  </RowButton>
                )
              }
            />
            <SettingDialog ids={setting} onClose={() => setSetting(null)} onDone={reload} />
            <DatasourceDialog tenant={ds} onClose={() => setDs(null)} onDone={reload} />
          </>
        );
      }}
    </WithMeta>
  );
}
