import { useMemo, type ReactNode } from 'react';
import { Card, Empty, Input, Select, Tree, TreeSelect } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import request from '../api/request';
import type { R } from '../api/types';
import PageSpin from '../components/PageSpin';
import MenuIcon from '../components/MenuIcon';
import { MENU_ICON_NAMES } from '../components/menuIconSet';
import { useResources } from '../resource/ResourcePage';
import type { ResourceMeta } from '../resource/types';
import { splitIds, type TreeItem } from './tree';

/** GET an envelope's data. */
export async function getData<T>(url: string, params?: Record<string, unknown>): Promise<T> {
  return (await request.get<R<T>>(url, { params })).data.data;
}

/** POST with query parameters (BladeX actions: grant, reset-password, enabledStatus, ...). */
export async function postQuery(url: string, params: Record<string, unknown>, body: unknown = null): Promise<R<unknown>> {
  return (await request.post<R<unknown>>(url, body, { params })).data;
}

/** A select tree (`{id, title, value, key, children}`) fetched once per URL and language. */
export function useTree(url: string | undefined, params?: Record<string, string>) {
  const { i18n } = useTranslation();
  return useQuery({
    queryKey: ['tree', url, params, i18n.language],
    queryFn: () => getData<TreeItem[]>(url!, params),
    enabled: Boolean(url),
    staleTime: 30_000,
  });
}

/** The resource metadata of a menu code; renders its children once it is there. */
export function WithMeta({ code, children }: { code: string; children: (meta: ResourceMeta) => ReactNode }) {
  const { t } = useTranslation();
  const { data, isLoading } = useResources();
  if (isLoading) return <PageSpin />;
  const meta = data?.find((r) => r.menuCode === code || r.name === code);
  if (!meta) return <Empty description={t('crud.notFound')} style={{ marginTop: 80 }} />;
  return <>{children(meta)}</>;
}

interface CommaProps {
  /** Set by Form.Item so that its label points at the control. */
  id?: string;
  value?: string;
  onChange?: (v: string) => void;
  disabled?: boolean;
  placeholder?: string;
}

/** Multi-select tree over a comma-separated id string (roleId, deptId, menuId of a package). */
export function CommaTreeSelect({ id, url, params, value, onChange, disabled, placeholder, checkable }: CommaProps & { url: string; params?: Record<string, string>; checkable?: boolean }) {
  const { data } = useTree(url, params);
  return (
    <TreeSelect
      id={id}
      multiple
      allowClear
      treeCheckable={checkable}
      showCheckedStrategy={checkable ? TreeSelect.SHOW_ALL : undefined}
      treeCheckStrictly={checkable}
      treeDefaultExpandAll={!checkable}
      maxTagCount={checkable ? 'responsive' : undefined}
      disabled={disabled}
      placeholder={disabled ? undefined : placeholder}
      treeNodeFilterProp="title"
      treeData={data ?? []}
      value={splitIds(value)}
      onChange={(v: unknown) => {
        const list = (v as (string | { value: string })[]).map((x) => (typeof x === 'string' ? x : x.value));
        onChange?.(list.join(','));
      }}
      style={{ width: '100%' }}
    />
  );
}

/** Multi-select over a comma-separated id string, options from a list URL. */
export function CommaSelect({ id, url, params, labelKey, value, onChange, disabled, placeholder }: CommaProps & { url: string; params?: Record<string, string>; labelKey: string }) {
  const { i18n } = useTranslation();
  const { data } = useQuery({
    queryKey: ['options', url, params, i18n.language],
    queryFn: () => getData<Record<string, unknown>[]>(url, params),
    staleTime: 30_000,
  });
  const options = useMemo(() => (data ?? []).map((r) => ({ value: String(r.id), label: String(r[labelKey] ?? r.id) })), [data, labelKey]);
  return (
    <Select
      id={id}
      mode="multiple"
      allowClear
      disabled={disabled}
      placeholder={disabled ? undefined : placeholder}
      optionFilterProp="label"
      options={options}
      value={splitIds(value)}
      onChange={(v: string[]) => onChange?.(v.join(','))}
      style={{ width: '100%' }}
    />
  );
}

/** Icon picker over the bundled menu icons. */
export function IconSelect({ id, value, onChange, disabled }: CommaProps) {
  const { t } = useTranslation();
  return (
    <Select
      id={id}
      showSearch
      allowClear
      disabled={disabled}
      value={value || undefined}
      placeholder={t('sys.chooseIcon')}
      onChange={(v: string | undefined) => onChange?.(v ?? '')}
      options={MENU_ICON_NAMES.map((n) => ({
        value: n,
        label: (
          <span className="bb-icon-option">
            <MenuIcon name={n} /> {n}
          </span>
        ),
      }))}
      filterOption={(input, opt) => String(opt?.value ?? '').toLowerCase().includes(input.toLowerCase())}
      style={{ width: '100%' }}
    />
  );
}

/** A card with a searchable tree beside a table; clicking the chosen node again clears the choice. */
export function TreePanel({
  title,
  data,
  loading,
  selected,
  onSelect,
  loadData,
  titleRender,
  search,
  onSearch,
}: {
  title: ReactNode;
  data: TreeItem[];
  loading?: boolean;
  selected?: string;
  onSelect: (key: string | undefined, node?: TreeItem) => void;
  loadData?: (node: TreeItem) => Promise<void>;
  titleRender?: (node: TreeItem) => ReactNode;
  /** A filter box above the tree. */
  search?: string;
  onSearch?: (v: string) => void;
}) {
  const { t } = useTranslation();
  return (
    <Card size="small" title={title} className="bb-split-side" loading={loading}>
      {onSearch && <TreeSearch value={search ?? ''} onChange={onSearch} />}
      {data.length === 0 && !loading ? (
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} />
      ) : (
        <Tree<TreeItem>
          blockNode
          defaultExpandAll={!loadData}
          treeData={data}
          fieldNames={{ key: 'key', title: 'title', children: 'children' }}
          selectedKeys={selected ? [selected] : []}
          loadData={loadData}
          titleRender={titleRender}
          onSelect={(keys, info) => {
            const k = keys[0] === undefined ? undefined : String(keys[0]);
            onSelect(k, k ? (info.node as unknown as TreeItem) : undefined);
          }}
          aria-label={t('sys.tree')}
        />
      )}
    </Card>
  );
}

/** A plain search box for side trees. */
export function TreeSearch({ value, onChange }: { value: string; onChange: (v: string) => void }) {
  const { t } = useTranslation();
  return <Input.Search allowClear size="small" value={value} onChange={(e) => onChange(e.target.value)} placeholder={t('sys.filter')} style={{ marginBottom: 8 }} />;
}
