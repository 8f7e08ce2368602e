import { useMemo, useState, type ReactNode } from 'react';
import { Button, Card, DatePicker, Form, Input, Select, Space, Table, Tag, Tooltip } from 'antd';
import type { TFunction } from 'i18next';
import type { ColumnsType } from 'antd/es/table';
import { ReloadOutlined } from '@ant-design/icons';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { Dayjs } from 'dayjs';
import type { Page } from '../api/types';
import { getDictionary } from '../resource/api';
import SearchActions from '../resource/SearchActions';
import type { Definition, Params } from './api';

/** A search field of a flow list: free text, the process category (dictionary `flow`) or a date range. */
export type FlowFilter = { kind: 'text'; name: string; label: string } | { kind: 'category'; name: string } | { kind: 'dates'; from: string; to: string };

export interface FlowTableProps<T> {
  /** Query key namespace; invalidateFlowList(client, key) reloads it. */
  listKey: string;
  fetch: (params: Params) => Promise<Page<T>>;
  columns: ColumnsType<T>;
  rowKey: (row: T) => string;
  filters?: FlowFilter[];
  toolbar?: ReactNode;
  /** Row buttons in the last column. */
  actions?: (row: T) => ReactNode;
  actionWidth?: number;
  title?: ReactNode;
}

/** The `flow` dictionary (process categories) as select options. */
export function useFlowCategories(enabled = true) {
  const { i18n } = useTranslation();
  const { data } = useQuery({
    queryKey: ['dict', 'flow', false, i18n.language],
    queryFn: () => getDictionary('flow'),
    staleTime: 5 * 60_000,
    enabled,
  });
  return useMemo(() => (data ?? []).map((d) => ({ value: d.dictKey, label: d.dictValue })), [data]);
}

export const flowListKey = (key: string) => ['flow', 'list', key];

/** The columns naming a process definition (start list, definitions). */
export function definitionColumns(t: TFunction): ColumnsType<Definition> {
  return [
    { key: 'name', dataIndex: 'name', title: t('flow.processName'), width: 180 },
    { key: 'key', dataIndex: 'key', title: t('flow.processKey'), width: 140 },
    { key: 'categoryName', dataIndex: 'categoryName', title: t('flow.category'), width: 110 },
    { key: 'version', dataIndex: 'version', title: t('flow.version'), width: 80, render: (v: unknown) => <Tag>v{String(v)}</Tag> },
  ];
}

/**
 * The one table of every flow list page (work lists, models, definitions, instances): a search bar from
 * `filters`, a paged table read from `fetch`, and row actions.
 */
export default function FlowTable<T extends object>(props: FlowTableProps<T>) {
  const { t } = useTranslation();
  const client = useQueryClient();
  const categories = useFlowCategories(Boolean(props.filters?.some((f) => f.kind === 'category')));
  const [form] = Form.useForm();
  const [current, setCurrent] = useState(1);
  const [size, setSize] = useState(10);
  const [filters, setFilters] = useState<Params>({});
  const { data, isFetching } = useQuery({
    queryKey: [...flowListKey(props.listKey), current, size, filters],
    queryFn: () => props.fetch({ current, size, ...filters }),
    placeholderData: keepPreviousData,
  });
  const search = () => {
    const v = form.getFieldsValue() as Record<string, unknown>;
    const out: Params = {};
    for (const f of props.filters ?? []) {
      if (f.kind === 'dates') {
        const range = v[f.from] as [Dayjs, Dayjs] | undefined;
        if (range?.[0]) out[f.from] = range[0].format('YYYY-MM-DD');
        if (range?.[1]) out[f.to] = range[1].format('YYYY-MM-DD');
      } else {
        const x = v[f.name];
        if (x !== undefined && x !== null && x !== '') out[f.name] = String(x);
      }
    }
    setCurrent(1);
    setFilters(out);
  };
  const columns = useMemo<ColumnsType<T>>(() => {
    const cols: ColumnsType<T> = [...props.columns];
    if (props.actions) {
      cols.push({ key: '__action', title: t('crud.action'), fixed: 'right', width: props.actionWidth ?? 160, render: (_: unknown, row: T) => <Space size={0} wrap>{props.actions!(row)}</Space> });
    }
    return cols;
  }, [props, t]);
  // with no toolbar of its own the list's refresh button closes the search bar
  const refresh = (
    <Tooltip title={t('crud.refresh')}>
      <Button icon={<ReloadOutlined />} aria-label={t('crud.refresh')} onClick={() => void client.invalidateQueries({ queryKey: flowListKey(props.listKey) })} />
    </Tooltip>
  );
  return (
    <Card size="small" title={props.title} className="bb-flow-list">
      {props.filters && props.filters.length > 0 && (
        <Form form={form} layout="inline" onFinish={search} style={{ marginBottom: 12, rowGap: 8 }}>
          {props.filters.map((f) =>
            f.kind === 'text' ? (
              <Form.Item key={f.name} name={f.name} label={f.label}>
                <Input allowClear style={{ width: 180 }} />
              </Form.Item>
            ) : f.kind === 'category' ? (
              <Form.Item key={f.name} name={f.name} label={t('flow.category')}>
                <Select allowClear options={categories} style={{ width: 160 }} aria-label={t('flow.category')} />
              </Form.Item>
            ) : (
              <Form.Item key={f.from} name={f.from} label={t('flow.dates')}>
                <DatePicker.RangePicker />
              </Form.Item>
            ),
          )}
          <SearchActions
            onReset={() => {
              form.resetFields();
              search();
            }}
          >
            {!props.toolbar && refresh}
          </SearchActions>
        </Form>
      )}
      {(props.toolbar || !props.filters?.length) && (
        <Space style={{ marginBottom: 12 }} wrap>
          {props.toolbar}
          {refresh}
        </Space>
      )}
      <Table<T>
        size="small"
        rowKey={props.rowKey}
        loading={isFetching}
        columns={columns}
        dataSource={data?.records ?? []}
        scroll={{ x: 'max-content' }}
        pagination={{
          current,
          pageSize: size,
          total: data?.total ?? 0,
          showSizeChanger: true,
          showTotal: (n) => t('crud.total', { total: n }),
          onChange: (c, s) => {
            if (s !== size) {
              setSize(s);
              setCurrent(1);
            } else setCurrent(c);
          },
        }}
      />
    </Card>
  );
}
