import { Select } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { tenantList } from './api';

/** Tenants a process is deployed to (the tenant list; a user who may not read it deploys to their own). */
export function TenantSelect({ value, onChange, id }: { value?: string[]; onChange?: (v: string[]) => void; id?: string }) {
  const { t } = useTranslation();
  const { data, isError } = useQuery({ queryKey: ['flow', 'tenants'], queryFn: tenantList, staleTime: 60_000, retry: false });
  return (
    <Select
      id={id}
      mode="multiple"
      allowClear
      disabled={isError}
      placeholder={isError ? t('flow.ownTenant') : t('flow.chooseTenants')}
      value={value}
      onChange={onChange}
      options={(data ?? []).map((x) => ({ value: x.tenantId, label: `${x.tenantName} (${x.tenantId})` }))}
      optionFilterProp="label"
      style={{ width: '100%' }}
    />
  );
}
