import { useEffect, useMemo, useState } from 'react';
import { Select } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { searchUsers, type UserRow } from './api';

const userLabel = (u: UserRow) => `${u.realName || u.name || u.account || u.id}${u.account ? ` (${u.account})` : ''}`;

/**
 * Users picked by remote search (/api/blade-user/page?realName=), by id. Ids already chosen keep a label
 * once they were seen in a search; others show as their id (a designer model read back).
 */
export function UserSelect({ value, onChange, multiple, id, placeholder }: { value?: string | string[]; onChange?: (v: string | string[] | undefined) => void; multiple?: boolean; id?: string; placeholder?: string }) {
  const { t } = useTranslation();
  const [text, setText] = useState('');
  const [debounced, setDebounced] = useState('');
  const [seen, setSeen] = useState<Record<string, string>>({});
  useEffect(() => {
    const h = setTimeout(() => setDebounced(text), 250);
    return () => clearTimeout(h);
  }, [text]);
  const { data, isFetching } = useQuery({ queryKey: ['flow', 'users', debounced], queryFn: () => searchUsers(debounced), staleTime: 30_000 });
  useEffect(() => {
    if (!data?.records?.length) return;
    setSeen((s) => ({ ...s, ...Object.fromEntries(data.records.map((u) => [String(u.id), userLabel(u)])) }));
  }, [data]);
  const options = useMemo(() => {
    const ids = new Set<string>();
    const out: { value: string; label: string }[] = [];
    for (const u of data?.records ?? []) {
      ids.add(String(u.id));
      out.push({ value: String(u.id), label: userLabel(u) });
    }
    for (const v of Array.isArray(value) ? value : value ? [value] : []) if (!ids.has(v)) out.push({ value: v, label: seen[v] ?? v });
    return out;
  }, [data, value, seen]);
  return (
    <Select
      id={id}
      mode={multiple ? 'multiple' : undefined}
      showSearch={{ filterOption: false, onSearch: setText }}
      allowClear
      loading={isFetching}
      placeholder={placeholder ?? t('flow.searchUser')}
      value={value}
      onChange={(v) => onChange?.(v)}
      options={options}
      style={{ width: '100%' }}
    />
  );
}
