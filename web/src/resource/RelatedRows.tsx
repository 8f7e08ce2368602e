import { useMemo, useState } from 'react';
import { Table, type TableProps } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import request from '../api/request';
import type { Page, R } from '../api/types';
import { localized } from '../i18n';
import { getResources } from './api';
import { columnAlign, columnWidth, fieldLabel, renderCell } from './fields';
import type { FieldMeta, FieldStates, RelatedRows, Row } from './types';

/** Rows per page of a related list. */
export const RELATED_PAGE_SIZE = 10;

/** Whether a row's field has one of the values (no condition: always). */
export const inStates = (when: FieldStates | undefined, row: Row | undefined): boolean =>
  !when || when.values.some((v) => String(v) === String(row?.[when.field]));

/** The related lists of a document that has rows in them (its ledger rows once posted). */
export const relatedOf = (related: RelatedRows[] | undefined, row: Row | undefined): RelatedRows[] =>
  row?.id ? (related ?? []).filter((r) => inStates(r.when, row)) : [];

/**
 * The columns of a related list: the listed fields of the related resource and the joined columns of the view it
 * is read from, less those every row shares (the document's id and the fixed parameters).
 */
export function relatedFields(related: RelatedRows, metas: { service: string; name: string; fields: FieldMeta[]; views?: { path: string; fields: FieldMeta[] }[] }[] | undefined): FieldMeta[] {
  const target = metas?.find((m) => `${m.service}/${m.name}` === related.resource);
  if (!target) return [];
  const view = target.views?.find((v) => v.path === related.path);
  const shared = new Set([related.key, ...Object.keys(related.params ?? {})]);
  return [...target.fields, ...(view?.fields ?? [])].filter((f) => f.list !== false && f.type !== 'password' && !shared.has(f.name));
}

/** A related list of a document, read-only, paged: drawn from the related resource's metadata. */
export default function RelatedSection({ related, row }: { related: RelatedRows; row: Row }) {
  const { t, i18n } = useTranslation();
  const [current, setCurrent] = useState(1);
  const { data: metas } = useQuery({ queryKey: ['meta', 'resources'], queryFn: getResources, staleTime: 10 * 60_000 });
  const fields = useMemo(() => relatedFields(related, metas), [related, metas]);
  const params = { ...related.params, [related.key]: String(row.id) };
  const { data, isFetching } = useQuery({
    queryKey: ['related', related.path, params, current],
    queryFn: async () =>
      (await request.get<R<Page<Row>>>(related.path, { params: { current, size: RELATED_PAGE_SIZE, ...params } })).data.data ?? {
        records: [],
        total: 0,
        size: RELATED_PAGE_SIZE,
        current,
        pages: 0,
      },
  });
  const own = useMemo(() => new Set(fields.filter((f) => !f.joined).map((f) => f.name)), [fields]);
  const columns = useMemo<NonNullable<TableProps<Row>['columns']>>(
    () =>
      fields.map((f) => ({
        title: fieldLabel(f),
        dataIndex: f.name,
        key: f.name,
        width: Math.max(columnWidth(f), 110),
        align: columnAlign(f),
        ellipsis: true,
        render: (v: unknown, r: Row) => renderCell(f, v, t, r, own),
      })),
    // i18n.language: labels follow the language
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [fields, own, t, i18n.language],
  );
  const width = columns.reduce((n, c) => n + Number(c.width), 0);
  return (
    <section className="bb-related" data-related={related.resource}>
      <div className="bb-lines-title">{localized(related.label)}</div>
      <Table<Row>
        size="small"
        bordered
        rowKey={(r) => String(r.id)}
        loading={isFetching || !metas}
        dataSource={data?.records ?? []}
        columns={columns}
        tableLayout="fixed"
        scroll={{ x: width }}
        locale={{ emptyText: t('doc.relatedEmpty') }}
        pagination={(data?.total ?? 0) > RELATED_PAGE_SIZE ? { current, pageSize: RELATED_PAGE_SIZE, total: data?.total, onChange: setCurrent, size: 'small', showSizeChanger: false } : false}
      />
    </section>
  );
}
