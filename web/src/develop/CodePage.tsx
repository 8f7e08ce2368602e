import { useState } from 'react';
import { Button, Form, Select, Table, type FormInstance } from 'antd';
import { CodeOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import request from '../api/request';
import type { R } from '../api/types';
import ResourceCrud from '../resource/ResourceCrud';
import RowButton from '../resource/RowButton';
import DragDialog from '../components/DragDialog';
import { saveBlob } from '../resource/api';
import type { Row } from '../resource/types';
import { toast } from '../util/notify';
import { WithMeta } from '../system/common';

const CODE_PATH = '/blade-develop/code';

interface Column {
  name: string;
  type: string;
  length?: number;
  precision?: number;
  scale?: number;
  notNull: boolean;
  comment?: string;
}

const getTables = async (datasourceId?: string): Promise<string[]> =>
  (await request.get<R<string[]>>(`${CODE_PATH}/tables`, { params: { datasourceId: datasourceId || undefined } })).data.data ?? [];

const getColumns = async (datasourceId: string | undefined, tableName: string): Promise<Column[]> =>
  (await request.get<R<Column[]>>(`${CODE_PATH}/columns`, { params: { datasourceId: datasourceId || undefined, tableName } })).data.data ?? [];

/** Downloads the generated code of the definitions as one zip. */
async function generate(ids: string[]): Promise<void> {
  const res = await request.post<Blob>(`${CODE_PATH}/gen-code`, null, { params: { ids: ids.join(','), system: 'bluebird' }, responseType: 'blob' });
  saveBlob(res, 'bluebird-code.zip');
}

/** The tables of the chosen data source (0 or none: the console's own database). */
function TableSelect({ id, value, onChange, disabled, form }: { id?: string; value?: string; onChange?: (v: string) => void; disabled?: boolean; form: FormInstance<Row> }) {
  const { t } = useTranslation();
  const datasourceId = Form.useWatch('datasourceId', form) as string | undefined;
  const ds = datasourceId && datasourceId !== '0' ? datasourceId : undefined;
  const { data, isLoading } = useQuery({ queryKey: ['code-tables', ds], queryFn: () => getTables(ds), staleTime: 30_000 });
  return (
    <Select
      id={id}
      showSearch
      disabled={disabled}
      loading={isLoading}
      value={value || undefined}
      placeholder={t('develop.chooseTable')}
      options={(data ?? []).map((n) => ({ value: n, label: n }))}
      onChange={(v: string) => onChange?.(v)}
    />
  );
}

/** A definition's table columns as the database describes them. */
function ColumnsDialog({ row, onClose }: { row: Row | null; onClose: () => void }) {
  const { t } = useTranslation();
  const ds = row?.datasourceId && row.datasourceId !== '0' ? String(row.datasourceId) : undefined;
  const { data, isFetching } = useQuery({
    queryKey: ['code-columns', ds, row?.tableName],
    queryFn: () => getColumns(ds, String(row!.tableName)),
    enabled: row !== null,
  });
  return (
    <DragDialog title={row ? String(row.tableName) : ''} open={row !== null} width={760} onCancel={onClose} footer={null} destroyOnHidden>
      <Table
        size="small"
        rowKey="name"
        loading={isFetching}
        dataSource={data ?? []}
        pagination={false}
        columns={[
          { key: 'name', dataIndex: 'name', title: t('develop.column') },
          { key: 'type', dataIndex: 'type', title: t('develop.type') },
          { key: 'length', title: t('develop.size'), render: (_, c: Column) => (c.length ? c.length : c.precision ? `${c.precision},${c.scale ?? 0}` : '') },
          { key: 'notNull', title: t('develop.notNull'), render: (_, c: Column) => (c.notNull ? '✓' : '') },
          { key: 'comment', dataIndex: 'comment', title: t('develop.comment') },
        ]}
      />
    </DragDialog>
  );
}

/** /tool/code: code generator definitions (generic list and form, a table picker), their columns and gen-code's zip. */
export default function CodePage() {
  const { t } = useTranslation();
  const [columnsOf, setColumnsOf] = useState<Row | null>(null);
  const run = (ids: string[]) =>
    void generate(ids)
      .then(() => toast.success(t('develop.generated')))
      .catch(() => undefined);
  return (
    <WithMeta code="code">
      {(meta) => (
        <>
          <ResourceCrud
            meta={meta}
            inputs={{ tableName: ({ disabled, form }) => <TableSelect disabled={disabled} form={form} /> }}
            toolbar={(ctx) =>
              ctx.can('code_gen') && (
                <Button
                  icon={<CodeOutlined />}
                  onClick={() => (ctx.selected.length === 0 ? toast.warning(t('crud.selectOne')) : run(ctx.selected.map((r) => String(r.id))))}
                >
                  {t('develop.generate')}
                </Button>
              )
            }
            rowActions={(row, ctx) => (
              <>
                <RowButton onClick={() => setColumnsOf(row)}>{t('develop.columns')}</RowButton>
                {ctx.can('code_gen') && <RowButton onClick={() => run([String(row.id)])}>{t('develop.generate')}</RowButton>}
              </>
            )}
          />
          <ColumnsDialog row={columnsOf} onClose={() => setColumnsOf(null)} />
        </>
      )}
    </WithMeta>
  );
}
