import { useMemo, useState } from 'react';
import { Empty, Card, TreeSelect } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import ResourceCrud, { RowButton } from '../resource/ResourceCrud';
import DragDialog from '../components/DragDialog';
import type { FieldMeta, ResourceMeta, Row } from '../resource/types';
import type { Page } from '../api/types';
import { getData } from './common';

export type DictLayout = 'dialog' | 'horizontal' | 'vertical';

/** Fields of the parent form: no parentId and no dictKey (a root row has parentId 0 and dictKey -1). */
export const parentFormFields = (fields: FieldMeta[]): FieldMeta[] => fields.filter((f) => f.name !== 'parentId' && f.name !== 'dictKey');

/** Parent rows are saved with parentId 0 and dictKey -1 (api-contract §5). */
export const parentBody = (v: Row): Row => ({ ...v, parentId: '0', dictKey: '-1' });

/** Defaults of a new child: under the parent, with its code. */
export const childDefaults = (parent: Row): Row => ({ parentId: String(parent.id), code: parent.code, sort: 1, isSealed: 0 });

/** Child form fields: every field, the code fixed to the parent's. */
export const childFormFields = (fields: FieldMeta[]): FieldMeta[] =>
  fields.map((f) => (f.name === 'code' ? { ...f, readonly: true } : f.name === 'parentId' ? { ...f, required: false } : f));

interface TreeOpt {
  title: string;
  value: string;
  children?: TreeOpt[];
}

/** The optional parent of a child: the dictionary itself or one of its entries. */
function ChildParentSelect({ id, meta, parent, value, onChange, disabled }: { id?: string; meta: ResourceMeta; parent: Row; value?: string; onChange?: (v: string) => void; disabled?: boolean }) {
  const { i18n } = useTranslation();
  const { data } = useQuery({
    queryKey: ['resource', `${meta.path}#child`, 'options', String(parent.id), i18n.language],
    queryFn: async () => (await getData<Page<Row> | Row[]>(`${meta.path}/child-list`, { parentId: String(parent.id), current: 1, size: 500 })),
  });
  const rows = Array.isArray(data) ? data : (data?.records ?? []);
  const toOpt = (r: Row): TreeOpt => ({
    title: `${String(r.dictValue ?? '')} (${String(r.dictKey ?? '')})`,
    value: String(r.id),
    children: Array.isArray(r.children) && r.children.length > 0 ? (r.children as Row[]).map(toOpt) : undefined,
  });
  const tree: TreeOpt[] = [{ title: `${String(parent.dictValue ?? '')} (${String(parent.code ?? '')})`, value: String(parent.id), children: rows.map(toOpt) }];
  return <TreeSelect id={id} treeDefaultExpandAll allowClear disabled={disabled} treeData={tree} value={value ? String(value) : undefined} onChange={(v?: string) => onChange?.(v ?? String(parent.id))} />;
}

function ChildList({ meta, parent, compact }: { meta: ResourceMeta; parent: Row; compact?: boolean }) {
  const { t } = useTranslation();
  const params = useMemo(() => ({ parentId: String(parent.id) }), [parent.id]);
  return (
    <ResourceCrud
      meta={meta}
      title={`${t('sys.dictChildren')}: ${String(parent.dictValue ?? '')} (${String(parent.code ?? '')})`}
      queryKey={`${meta.path}#child`}
      listEndpoint="child-list"
      params={params}
      listFields={compact ? ['dictKey', 'dictValue', 'sort', 'isSealed'] : ['code', 'dictKey', 'dictValue', 'sort', 'isSealed', 'remark']}
      hide={compact ? ['view', 'export'] : undefined}
      addDefaults={() => childDefaults(parent)}
      formFields={childFormFields}
      inputs={{ parentId: ({ disabled }) => <ChildParentSelect meta={meta} parent={parent} disabled={disabled} /> }}
      toBody={(v, mode, row) => ({ ...v, code: mode === 'edit' ? (row?.code ?? v.code) : parent.code })}
    />
  );
}

/**
 * Parent dictionaries and the children of the chosen one (spec §3: parent code, dictValue, sort, isSealed,
 * remark; child adds parentId and dictKey). Layouts: a dialog per parent (system screens), side by side,
 * or stacked.
 */
export default function DictManager({ meta, layout }: { meta: ResourceMeta; layout: DictLayout }) {
  const { t } = useTranslation();
  const [parent, setParent] = useState<Row | null>(null);
  const parents = (
    <ResourceCrud
      meta={meta}
      title={layout === 'dialog' ? undefined : t('sys.dictParents')}
      queryKey={`${meta.path}#parent`}
      listEndpoint="parent-list"
      listFields={layout === 'horizontal' ? ['code', 'dictValue', 'sort'] : ['code', 'dictValue', 'sort', 'isSealed', 'remark']}
      hide={layout === 'horizontal' ? ['view', 'export'] : undefined}
      formFields={parentFormFields}
      addDefaults={() => ({ sort: 1, isSealed: 0 })}
      toBody={parentBody}

      onRowClick={layout === 'dialog' ? undefined : setParent}
      activeRowId={parent ? String(parent.id) : undefined}
      rowActions={(row) =>
        layout === 'dialog' && (
          <RowButton onClick={() => setParent(row)}>
            {t('sys.dictConfig')}
          </RowButton>
        )
      }
    />
  );
  const children = parent ? (
    <ChildList key={String(parent.id)} meta={meta} parent={parent} compact={layout === 'horizontal'} />
  ) : (
    <Card size="small" title={t('sys.dictChildren')}>
      <Empty description={t('sys.chooseDict')} />
    </Card>
  );
  if (layout === 'horizontal') {
    return (
      <div className="bb-split">
        <div className="bb-split-half">{parents}</div>
        <div className="bb-split-half">{children}</div>
      </div>
    );
  }
  if (layout === 'vertical') {
    return (
      <div className="bb-stacked">
        {parents}
        {children}
      </div>
    );
  }
  return (
    <>
      {parents}
      <DragDialog title={t('sys.dictConfig')} open={parent !== null} width={1000} footer={null} onCancel={() => setParent(null)} destroyOnHidden>
        {parent && <ChildList meta={meta} parent={parent} />}
      </DragDialog>
    </>
  );
}
