import { useCallback, useMemo, useState, type ReactNode } from 'react';
import { Button, Card, Col, DatePicker, Form, Input, Modal, Row, Space, Spin, Table, Tooltip, type TableProps } from 'antd';
import { DeleteOutlined, DownloadOutlined, EditOutlined, EyeOutlined, PlusOutlined, ReloadOutlined, SearchOutlined, UndoOutlined } from '@ant-design/icons';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import DragDialog from '../components/DragDialog';
import { useUserStore } from '../store/user';
import { toast } from '../util/notify';
import { website } from '../config';
import { localized } from '../i18n';
import { exportRows, getDetail, listRows, removeRows, submitRow } from './api';
import { fieldInput, fieldLabel, fieldRules, renderCell, valueProps } from './fields';
import { buildFilters, isRangeField, type SearchValues } from './filters';
import type { FieldMeta, ResourceMeta, Row as DataRow } from './types';

export interface ResourceCrudProps {
  meta: ResourceMeta;
  /** Extra toolbar buttons (custom business actions). */
  toolbar?: (ctx: { selected: DataRow[]; reload: () => void }) => ReactNode;
  /** Extra row actions. */
  rowActions?: (row: DataRow, reload: () => void) => ReactNode;
}

type Mode = 'add' | 'edit' | 'view';

/** Whether the permission of an operation is held; an operation without a declared code is open. */
export function allowed(meta: ResourceMeta, op: 'add' | 'edit' | 'delete' | 'view' | 'export', permission: Record<string, boolean>): boolean {
  const code = meta.permissions?.[op];
  return !code || permission[code] === true;
}

function SearchBar({ name, fields, onSearch }: { name: string; fields: FieldMeta[]; onSearch: (v: SearchValues) => void }) {
  const { t } = useTranslation();
  const [form] = Form.useForm<SearchValues>();
  if (fields.length === 0) return null;
  return (
    <Form form={form} name={`search-${name}`} className="bb-search" onFinish={onSearch} layout="inline" style={{ rowGap: 8, marginBottom: 12 }}>
      {fields.map((f) =>
        isRangeField(f) ? (
          <Form.Item key={f.name} name={f.name} label={fieldLabel(f)}>
            <DatePicker.RangePicker placeholder={[t('crud.startDate'), t('crud.endDate')]} />
          </Form.Item>
        ) : (
          <Form.Item key={f.name} name={f.name} label={fieldLabel(f)} {...(f.type === 'bool' ? {} : valueProps(f))}>
            {f.type === 'string' || f.type === 'text' || f.type === 'id' ? (
              <Input allowClear placeholder={t('crud.required', { label: fieldLabel(f) })} style={{ width: 180 }} />
            ) : (
              <span style={{ display: 'inline-block', width: 180 }}>{fieldInput(f, false, t)}</span>
            )}
          </Form.Item>
        ),
      )}
      <Form.Item>
        <Space>
          <Button type="primary" htmlType="submit" icon={<SearchOutlined />}>
            {t('crud.search')}
          </Button>
          <Button
            icon={<UndoOutlined />}
            onClick={() => {
              form.resetFields();
              onSearch({});
            }}
          >
            {t('crud.reset')}
          </Button>
        </Space>
      </Form.Item>
    </Form>
  );
}

/** The generic resource page drawn from the server's resource metadata (spec §2 data screens). */
export default function ResourceCrud({ meta, toolbar, rowActions }: ResourceCrudProps) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const permission = useUserStore((s) => s.permission);
  const [current, setCurrent] = useState(1);
  const [size, setSize] = useState(website.pageSize);
  const [filters, setFilters] = useState<Record<string, string>>({});
  const [sort, setSort] = useState<{ descs?: string; ascs?: string }>({});
  const [selected, setSelected] = useState<DataRow[]>([]);
  const [dialog, setDialog] = useState<{ mode: Mode; row?: DataRow } | null>(null);
  const [saving, setSaving] = useState(false);
  const [form] = Form.useForm<DataRow>();

  const key = ['resource', meta.path, current, size, filters, sort] as const;
  const { data, isFetching, refetch } = useQuery({
    queryKey: key,
    queryFn: () => listRows(meta, current, size, filters, sort),
    placeholderData: keepPreviousData,
  });
  const reload = useCallback(() => void refetch(), [refetch]);

  const searchFields = useMemo(() => meta.fields.filter((f) => f.search), [meta.fields]);
  const listFields = useMemo(() => meta.fields.filter((f) => f.list !== false && f.type !== 'password'), [meta.fields]);
  const formFields = useMemo(() => meta.fields.filter((f) => f.form !== false), [meta.fields]);
  const can = (op: 'add' | 'edit' | 'delete' | 'view' | 'export') => allowed(meta, op, permission);
  const has = (action: string) => meta.actions.includes(action);

  // Search sends only non-empty filters and goes back to page 1.
  const onSearch = (v: SearchValues) => {
    setFilters(buildFilters(v, searchFields));
    setCurrent(1);
  };

  const openDialog = async (mode: Mode, row?: DataRow) => {
    form.resetFields();
    setDialog({ mode, row });
    if (row?.id && has('detail')) {
      try {
        const detail = await getDetail(meta, String(row.id));
        form.setFieldsValue(detail);
        setDialog({ mode, row: detail });
      } catch {
        form.setFieldsValue(row);
      }
    } else if (row) {
      form.setFieldsValue(row);
    }
  };

  const save = async () => {
    const values = await form.validateFields();
    const row = dialog?.row;
    const body: DataRow = { ...values };
    if (dialog?.mode === 'edit' && row?.id) {
      body.id = String(row.id);
      if (row.version !== undefined) body.version = row.version;
    }
    setSaving(true);
    try {
      await submitRow(meta, body);
      toast.success(dialog?.mode === 'edit' ? t('crud.updated') : t('crud.added'));
      setDialog(null);
      await queryClient.invalidateQueries({ queryKey: ['resource', meta.path] });
    } finally {
      setSaving(false);
    }
  };

  const remove = (ids: string[]) =>
    Modal.confirm({
      title: t('navbar.tip'),
      content: t('crud.deleteConfirm'),
      okText: t('common.ok'),
      cancelText: t('common.cancel'),
      onOk: async () => {
        await removeRows(meta, ids);
        toast.success(t('crud.deleted'));
        setSelected([]);
        await queryClient.invalidateQueries({ queryKey: ['resource', meta.path] });
      },
    });

  const bulkDelete = () => {
    if (selected.length === 0) {
      toast.warning(t('crud.selectOne'));
      return;
    }
    remove(selected.map((r) => String(r.id)));
  };

  const doExport = () => void exportRows(meta, filters, localized(meta.label) || meta.name).catch(() => undefined);

  const columns: TableProps<DataRow>['columns'] = [
    {
      title: t('crud.index'),
      key: '__index',
      width: 60,
      align: 'center',
      render: (_v, _r, i) => (current - 1) * size + i + 1,
    },
    ...listFields.map((f) => ({
      title: fieldLabel(f),
      dataIndex: f.name,
      key: f.name,
      ellipsis: f.type === 'text' || f.multiline,
      sorter: f.sortable ? true : undefined,
      render: (v: unknown) => renderCell(f, v, t),
    })),
  ];
  const showRowActions = (has('detail') && can('view')) || (has('submit') && can('edit')) || (has('remove') && can('delete')) || rowActions;
  if (showRowActions) {
    columns.push({
      title: t('crud.action'),
      key: '__action',
      fixed: 'right',
      width: 200,
      render: (_v, row) => (
        <Space size={0}>
          {can('view') && (
            <Button type="link" size="small" icon={<EyeOutlined />} onClick={() => void openDialog('view', row)}>
              {t('crud.view')}
            </Button>
          )}
          {has('submit') && can('edit') && (
            <Button type="link" size="small" icon={<EditOutlined />} onClick={() => void openDialog('edit', row)}>
              {t('crud.edit')}
            </Button>
          )}
          {has('remove') && can('delete') && (
            <Button type="link" size="small" danger icon={<DeleteOutlined />} onClick={() => remove([String(row.id)])}>
              {t('crud.delete')}
            </Button>
          )}
          {rowActions?.(row, reload)}
        </Space>
      ),
    });
  }

  const mode = dialog?.mode;
  const title = mode === 'add' ? t('crud.addTitle') : mode === 'edit' ? t('crud.editTitle') : t('crud.viewTitle');

  return (
    <Card className="bb-resource" size="small">
      <SearchBar name={meta.name} fields={searchFields} onSearch={onSearch} />
      <Space style={{ marginBottom: 12 }} wrap>
        {has('submit') && can('add') && (
          <Button type="primary" icon={<PlusOutlined />} onClick={() => void openDialog('add')}>
            {t('crud.add')}
          </Button>
        )}
        {has('remove') && can('delete') && (
          <Button danger icon={<DeleteOutlined />} onClick={bulkDelete}>
            {t('crud.delete')}
          </Button>
        )}
        {has('export') && can('export') && (
          <Button icon={<DownloadOutlined />} onClick={doExport}>
            {t('crud.export')}
          </Button>
        )}
        {toolbar?.({ selected, reload })}
        <Tooltip title={t('crud.refresh')}>
          <Button icon={<ReloadOutlined />} aria-label={t('crud.refresh')} onClick={reload} />
        </Tooltip>
      </Space>
      <Table<DataRow>
        rowKey={(r) => String(r.id)}
        size="small"
        bordered
        loading={isFetching}
        columns={columns}
        dataSource={data?.records ?? []}
        scroll={{ x: 'max-content' }}
        rowSelection={{
          selectedRowKeys: selected.map((r) => String(r.id)),
          onChange: (_keys, rows) => setSelected(rows),
          preserveSelectedRowKeys: true,
        }}
        onChange={(_p, _f, sorter) => {
          const s = Array.isArray(sorter) ? sorter[0] : sorter;
          const col = s?.order ? String(s.field) : undefined;
          setSort(col ? (s.order === 'descend' ? { descs: col } : { ascs: col }) : {});
        }}
        pagination={{
          current,
          pageSize: size,
          total: data?.total ?? 0,
          showSizeChanger: true,
          pageSizeOptions: website.pageSizes,
          showTotal: (total) => t('crud.total', { total }),
          onChange: (page, pageSize) => {
            if (pageSize !== size) {
              setSize(pageSize);
              setCurrent(1);
            } else setCurrent(page);
          },
        }}
      />
      <DragDialog
        title={title}
        open={dialog !== null}
        width={860}
        onCancel={() => setDialog(null)}
        destroyOnHidden
        footer={
          mode === 'view' ? (
            <Button onClick={() => setDialog(null)}>{t('crud.close')}</Button>
          ) : (
            <Space>
              <Button onClick={() => setDialog(null)}>{t('crud.cancel')}</Button>
              <Button type="primary" loading={saving} onClick={() => void save().catch(() => undefined)}>
                {t('crud.submit')}
              </Button>
            </Space>
          )
        }
      >
        <Spin spinning={false}>
          <Form form={form} name={`crud-${meta.name}`} layout="vertical" validateTrigger="onBlur" disabled={mode === 'view'}>
            <Row gutter={16}>
              {formFields.map((f) => (
                <Col key={f.name} xs={24} md={f.type === 'text' || f.multiline ? 24 : (f.span ?? 12)}>
                  <Form.Item
                    name={f.name}
                    label={fieldLabel(f)}
                    rules={mode === 'view' ? [] : fieldRules(f, t)}
                    validateTrigger={f.type === 'string' || f.type === 'text' || f.type === 'password' || f.type === 'int' || f.type === 'decimal' ? 'onBlur' : 'onChange'}
                    {...valueProps(f)}
                  >
                    {fieldInput(f, mode === 'view' || Boolean(f.readonly && mode === 'edit'), t)}
                  </Form.Item>
                </Col>
              ))}
            </Row>
          </Form>
        </Spin>
      </DragDialog>
    </Card>
  );
}
