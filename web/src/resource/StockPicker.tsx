import { useState } from 'react';
import { Button, Modal, Table, Tooltip, type TableProps } from 'antd';
import { useQuery, type QueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { TFunction } from 'i18next';
import type { Rule } from 'antd/es/form';
import request from '../api/request';
import type { Page, R } from '../api/types';
import { compareDecimal, formatDecimal, isDecimalText } from './decimal';
import { DictCell, fieldLabel } from './fields';
import type { FieldMeta, LinePicker, Row } from './types';

/**
 * The FEFO stock picker of an outbound document's lines (metadata lines.picker, kind "stock"): the available
 * buckets of the line's material (and batch, when typed) in the header's warehouse, first expiry first; picking
 * one fills the line's position and batch. The line shows its bucket's available quantity and a quantity above
 * it is refused on the cell before saving. The server still refuses an over-issue when the document is
 * submitted (stock is locked then, not now): this only spares the user a round trip.
 */

/** Buckets per page of the picker. */
export const PICKER_PAGE_SIZE = 10;
/** How long a bucket's available quantity is taken as known (a line's cell and its validation share it). */
const AVAILABLE_STALE_MS = 15_000;

const present = (v: unknown): boolean => v !== undefined && v !== null && v !== '' && String(v) !== '0';

/** Whether the document (its header values) takes its lines from stock. */
export function pickerApplies(picker: LinePicker | undefined, header: Row | undefined): picker is LinePicker {
  if (!picker) return false;
  if (!picker.when) return true;
  const v = header?.[picker.when.field];
  return picker.when.values.some((s) => String(s) === String(v));
}

/** The list parameters the header gives (the warehouse), or undefined while one is missing. */
export function headerParams(picker: LinePicker, header: Row | undefined): Record<string, string> | undefined {
  const out: Record<string, string> = {};
  for (const [param, field] of Object.entries(picker.header)) {
    const v = header?.[field];
    if (!present(v)) return undefined;
    out[param] = String(v);
  }
  return out;
}

/** The list parameters the line gives: the first match must be set (the material), the others narrow. */
export function lineParams(picker: LinePicker, line: Row | undefined): Record<string, string> | undefined {
  const out: Record<string, string> = {};
  for (const [i, m] of picker.match.entries()) {
    const v = line?.[m.field];
    if (!present(v)) {
      if (i === 0) return undefined;
      continue;
    }
    out[m.param] = String(v);
  }
  return out;
}

/** The line's bucket: every fill field set (a position; the batch may be empty). */
const bucketOf = (picker: LinePicker, line: Row | undefined): Record<string, string> | undefined => {
  const out: Record<string, string> = {};
  for (const [lineField, rowField] of Object.entries(picker.fill)) {
    const v = line?.[lineField];
    if (v === undefined || v === null || String(v) === '0') return undefined;
    out[rowField] = String(v);
  }
  return Object.values(out).some((v) => v !== '') ? out : undefined;
};

const fetchPage = async (url: string, params: Record<string, string | number | boolean>): Promise<Page<Row>> =>
  (await request.get<R<Page<Row>>>(url, { params })).data.data ?? { records: [], total: 0, size: 0, current: 1, pages: 0 };

/** What is known of a line's bucket: its available quantity and unit, or none (no such bucket: nothing there). */
export interface Available {
  qty: string;
  unit?: string;
}

type AvailableKey = readonly unknown[];

/** The query of a line's bucket, or undefined while the warehouse, material or bucket is not chosen. */
export function availableQuery(picker: LinePicker, header: Row | undefined, line: Row | undefined): { key: AvailableKey; fetch: () => Promise<Available> } | undefined {
  const h = headerParams(picker, header);
  const l = lineParams(picker, line);
  const bucket = bucketOf(picker, line);
  if (!h || !l || !bucket) return undefined;
  // The bucket's own fields narrow the list (positionId takes its subtree, batchNo a part): the row is then
  // matched exactly.
  const params: Record<string, string> = { ...h, ...l };
  for (const [k, v] of Object.entries(bucket)) if (v !== '') params[k] = v;
  return {
    key: ['stock-available', picker.url, params, bucket],
    fetch: async () => {
      const page = await fetchPage(picker.url, { current: 1, size: 50, ...params });
      const row = page.records.find((r) => Object.entries(bucket).every(([k, v]) => String(r[k] ?? '') === v));
      const avail = picker.availableField ?? 'availableQty';
      return { qty: row && isDecimalText(String(row[avail] ?? '')) ? String(row[avail]) : '0', unit: row?.unit ? String(row.unit) : undefined };
    },
  };
}

/** The available quantity shown on a line. */
export function AvailableCell({ picker, header, line, qtyField }: { picker: LinePicker; header: Row | undefined; line: Row | undefined; qtyField?: FieldMeta }) {
  const { t } = useTranslation();
  const q = availableQuery(picker, header, line);
  const { data, isError } = useQuery({ queryKey: q?.key ?? ['stock-available', 'none'], queryFn: q?.fetch ?? (async (): Promise<Available> => ({ qty: '' })), enabled: Boolean(q), staleTime: AVAILABLE_STALE_MS });
  if (!q || isError) return <span className="bb-lines-available">-</span>;
  if (!data) return <span className="bb-lines-available">…</span>;
  const over = overAvailable(picker, line, data);
  return (
    <span className={`bb-lines-available${over ? ' bb-lines-available-over' : ''}`} data-available={data.qty}>
      {formatDecimal(data.qty, qtyField?.scale)}
      {data.unit ? <DictCellUnit unit={data.unit} /> : null}
      {data.qty && compareDecimal(data.qty, '0') <= 0 ? ` (${t('doc.noStock')})` : ''}
    </span>
  );
}

const unitField: FieldMeta = { name: 'unit', type: 'dict', dict: 'unit', label: {} };
function DictCellUnit({ unit }: { unit: string }) {
  return (
    <span className="bb-lines-available-unit">
      {' '}
      <DictCell field={unitField} value={unit} />
    </span>
  );
}

/** Whether the line asks for more than its bucket has (only comparable in the bucket's unit). */
export function overAvailable(picker: LinePicker, line: Row | undefined, avail: Available | undefined): boolean {
  if (!avail || !picker.qtyField) return false;
  const qty = String(line?.[picker.qtyField] ?? '');
  if (!isDecimalText(qty) || !isDecimalText(avail.qty)) return false;
  const lineUnit = picker.unitField ? line?.[picker.unitField] : undefined;
  if (present(lineUnit) && avail.unit && String(lineUnit) !== avail.unit) return false;
  return compareDecimal(qty, avail.qty) > 0;
}

/**
 * The quantity cell's rule: more than the bucket's available quantity is refused (the bucket is read, or taken
 * from what the line's cell already read). A bucket that cannot be read leaves the check to the server.
 */
export function availableRule(picker: LinePicker, qtyField: FieldMeta, client: QueryClient, header: () => Row | undefined, line: () => Row | undefined, t: TFunction): Rule {
  return {
    validator: async () => {
      const l = line();
      const q = availableQuery(picker, header(), l);
      if (!q) return;
      let avail: Available | undefined;
      try {
        avail = await client.fetchQuery({ queryKey: q.key, queryFn: q.fetch, staleTime: AVAILABLE_STALE_MS });
      } catch {
        return;
      }
      if (overAvailable(picker, l, avail)) {
        throw new Error(t('doc.overAvailable', { label: fieldLabel(qtyField), available: formatDecimal(avail?.qty, qtyField.scale) }));
      }
    },
  };
}

interface PickerProps {
  picker: LinePicker;
  header: Row | undefined;
  line: Row | undefined;
  /** Labels of the header's and the line's first match field, for "select ... first". */
  headerLabel: string;
  matchLabel: string;
  /** The line's values from the bucket (fill), and the bucket itself. */
  onPick: (values: Row, bucket: Row) => void;
}

/** The line's "pick stock" button and its dialog of buckets. */
export function PickStockButton({ picker, header, line, headerLabel, matchLabel, onPick }: PickerProps) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  const h = headerParams(picker, header);
  const l = lineParams(picker, line);
  const missing = !h ? headerLabel : !l ? matchLabel : undefined;
  const button = (
    <button type="button" className="bb-row-btn" disabled={Boolean(missing)} onClick={() => setOpen(true)}>
      {t('doc.pickStock')}
    </button>
  );
  return (
    <>
      {missing ? <Tooltip title={t('doc.pickFirst', { label: missing })}>{button}</Tooltip> : button}
      {open && h && l && (
        <StockPickerDialog
          picker={picker}
          params={{ ...h, ...l }}
          onClose={() => setOpen(false)}
          onPick={(row) => {
            const values: Row = {};
            for (const [lineField, rowField] of Object.entries(picker.fill)) values[lineField] = row[rowField] ?? '';
            onPick(values, row);
            setOpen(false);
          }}
        />
      )}
    </>
  );
}

function StockPickerDialog({ picker, params, onClose, onPick }: { picker: LinePicker; params: Record<string, string>; onClose: () => void; onPick: (row: Row) => void }) {
  const { t } = useTranslation();
  const [current, setCurrent] = useState(1);
  const { data, isFetching } = useQuery({
    queryKey: ['stock-picker', picker.url, params, current],
    queryFn: () => fetchPage(picker.url, { current, size: PICKER_PAGE_SIZE, onlyAvailable: true, ...params }),
  });
  const avail = picker.availableField ?? 'availableQty';
  const columns: NonNullable<TableProps<Row>['columns']> = [
    {
      title: t('doc.position'),
      key: 'position',
      width: 200,
      render: (_v, r) => [r.positionKey, r.positionName].filter(Boolean).join(' ') || String(r.positionId ?? ''),
    },
    { title: t('doc.batch'), dataIndex: 'batchNo', width: 140 },
    { title: t('doc.productionDate'), dataIndex: 'productionDate', width: 120 },
    { title: t('doc.expiryDate'), dataIndex: 'expiryDate', width: 120 },
    {
      title: t('doc.available'),
      key: 'available',
      width: 150,
      align: 'right',
      render: (_v, r) => (
        <>
          {formatDecimal(r[avail], 6)}
          {r.unit ? <DictCellUnit unit={String(r.unit)} /> : null}
        </>
      ),
    },
    {
      title: t('crud.action'),
      key: '__pick',
      width: 80,
      render: (_v, r) => (
        <Button size="small" type="link" onClick={() => onPick(r)}>
          {t('doc.pick')}
        </Button>
      ),
    },
  ];
  return (
    <Modal open title={t('doc.pickStockTitle')} width={860} footer={null} onCancel={onClose} destroyOnHidden>
      <Table<Row>
        className="bb-stock-picker"
        size="small"
        rowKey={(r) => String(r.id)}
        loading={isFetching}
        dataSource={data?.records ?? []}
        columns={columns}
        tableLayout="fixed"
        locale={{ emptyText: t('doc.noStock') }}
        onRow={(r) => ({ onDoubleClick: () => onPick(r) })}
        pagination={{ current, pageSize: PICKER_PAGE_SIZE, total: data?.total ?? 0, onChange: setCurrent, showSizeChanger: false, size: 'small' }}
      />
    </Modal>
  );
}
