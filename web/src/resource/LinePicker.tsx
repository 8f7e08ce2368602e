import { useState } from 'react';
import { Button, Input, Modal, Table, Tooltip, type TableProps } from 'antd';
import { useQuery, type QueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { TFunction } from 'i18next';
import type { Rule } from 'antd/es/form';
import request from '../api/request';
import type { Page, R } from '../api/types';
import { compareDecimal, formatDecimal, isDecimalText } from './decimal';
import { localized } from '../i18n';
import { DictCell, fieldLabel } from './fields';
import type { FieldMeta, LinePicker, PickerColumn, Row } from './types';

/**
 * The line pickers of a document's lines (metadata lines.picker):
 * - kind "stock", the FEFO stock picker of an outbound document: the available buckets of the line's material
 *   (and batch, when typed) in the header's warehouse, first expiry first; picking one fills the line's position
 *   and batch. The line shows its bucket's available quantity, read again while it is edited;
 * - kind "lines": the rows a document may take (a return's returnable issue lines), ticked and added as lines
 *   that keep the row's available quantity.
 * Either way a quantity above the available one is refused on the cell before saving. The server still refuses
 * it when the document is saved or submitted: this only spares the user a round trip.
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

/** The list parameters the header gives (the warehouse), or undefined while a required one is missing. */
export function headerParams(picker: LinePicker, header: Row | undefined): Record<string, string> | undefined {
  const out: Record<string, string> = {};
  for (const [param, field] of Object.entries(picker.header)) {
    const v = header?.[field];
    if (!present(v)) return undefined;
    out[param] = String(v);
  }
  for (const [param, field] of Object.entries(picker.optional ?? {})) {
    const v = header?.[field];
    if (present(v)) out[param] = String(v);
  }
  return out;
}

/** The list parameters the line gives: the first match must be set (the material), the others narrow. */
export function lineParams(picker: LinePicker, line: Row | undefined): Record<string, string> | undefined {
  const out: Record<string, string> = {};
  for (const [i, m] of (picker.match ?? []).entries()) {
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

/** A page of the list, also of a list answering all its rows at once (paged here). */
const fetchPage = async (url: string, params: Record<string, string | number | boolean>): Promise<Page<Row>> => {
  const data = (await request.get<R<Page<Row> | Row[]>>(url, { params })).data.data;
  if (!Array.isArray(data)) return data ?? { records: [], total: 0, size: 0, current: 1, pages: 0 };
  const size = Number(params.size) || PICKER_PAGE_SIZE;
  const current = Number(params.current) || 1;
  return { records: data.slice((current - 1) * size, current * size), total: data.length, size, current, pages: Math.ceil(data.length / size) };
};

/** What is known of a line's bucket: its available quantity and unit, or none (no such bucket: nothing there). */
export interface Available {
  qty: string;
  unit?: string;
}

type AvailableKey = readonly unknown[];

/** The query of a line's bucket, or undefined while the warehouse, material or bucket is not chosen. */
export function availableQuery(picker: LinePicker, header: Row | undefined, line: Row | undefined): { key: AvailableKey; fetch: () => Promise<Available> } | undefined {
  if (picker.kind === 'lines') return undefined;
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

/** The name of what a line may not exceed: the picker's column of it (可退数量), else the stock's 可用数量. */
export const availableLabel = (picker: LinePicker, t: TFunction): string =>
  (picker.kind === 'lines' && localized(picker.columns.find((c) => c.fields[0] === picker.availableField)?.label)) || t('doc.available');

/** What a `lines` pick left on the line: the row's available quantity, in the line's unit. */
export function keptAvailable(picker: LinePicker, line: Row | undefined): Available | undefined {
  const v = picker.availableField ? line?.[picker.availableField] : undefined;
  if (v === undefined || v === null || !isDecimalText(String(v))) return undefined;
  const unit = picker.unitField ? line?.[picker.unitField] : undefined;
  return { qty: String(v), unit: present(unit) ? String(unit) : undefined };
}

/** The available quantity shown on a line. */
export function AvailableCell({ picker, header, line, qtyField }: { picker: LinePicker; header: Row | undefined; line: Row | undefined; qtyField?: FieldMeta }) {
  if (picker.kind === 'lines') return <AvailableText picker={picker} line={line} data={keptAvailable(picker, line)} qtyField={qtyField} />;
  return <StockAvailableCell picker={picker} header={header} line={line} qtyField={qtyField} />;
}

function StockAvailableCell({ picker, header, line, qtyField }: { picker: LinePicker; header: Row | undefined; line: Row | undefined; qtyField?: FieldMeta }) {
  const q = availableQuery(picker, header, line);
  const { data, isError } = useQuery({ queryKey: q?.key ?? ['stock-available', 'none'], queryFn: q?.fetch ?? (async (): Promise<Available> => ({ qty: '' })), enabled: Boolean(q), staleTime: AVAILABLE_STALE_MS });
  if (!q || isError) return <span className="bb-lines-available">-</span>;
  if (!data) return <span className="bb-lines-available">…</span>;
  return <AvailableText picker={picker} line={line} data={data} qtyField={qtyField} />;
}

function AvailableText({ picker, line, data, qtyField }: { picker: LinePicker; line: Row | undefined; data: Available | undefined; qtyField?: FieldMeta }) {
  const { t } = useTranslation();
  if (!data) return <span className="bb-lines-available">-</span>;
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
      let avail: Available | undefined;
      if (picker.kind === 'lines') {
        avail = keptAvailable(picker, l);
      } else {
        const q = availableQuery(picker, header(), l);
        if (!q) return;
        try {
          avail = await client.fetchQuery({ queryKey: q.key, queryFn: q.fetch, staleTime: AVAILABLE_STALE_MS });
        } catch {
          return;
        }
      }
      if (overAvailable(picker, l, avail)) {
        const args = { label: fieldLabel(qtyField), available: formatDecimal(avail?.qty, qtyField.scale) };
        throw new Error(picker.kind === 'lines' ? t('doc.overLimit', { ...args, limit: availableLabel(picker, t) }) : t('doc.overAvailable', args));
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
        <PickerDialog
          picker={picker}
          title={t('doc.pickStockTitle')}
          params={{ onlyAvailable: 'true', ...h, ...l }}
          emptyText={t('doc.noStock')}
          onClose={() => setOpen(false)}
          onPick={([row]) => {
            onPick(fillOf(picker, row), row);
            setOpen(false);
          }}
        />
      )}
    </>
  );
}

/** The line's values a picked row gives: its fill fields and, for a `lines` pick, what the line keeps of it. */
export function fillOf(picker: LinePicker, row: Row): Row {
  const values: Row = {};
  for (const [lineField, rowField] of Object.entries(picker.fill)) values[lineField] = row[rowField] ?? '';
  if (picker.kind === 'lines') {
    for (const text of Object.values(picker.shown ?? {})) values[text] = row[text] ?? '';
    if (picker.availableField) values[picker.availableField] = row[picker.availableField] ?? '';
  }
  return values;
}

/** The line field a `lines` pick's key fills. */
export const lineKeyField = (picker: LinePicker): string | undefined => Object.entries(picker.fill).find(([, row]) => row === picker.key)?.[0];

interface PickLinesProps {
  picker: LinePicker;
  header: Row | undefined;
  headerLabel: string;
  /** The keys of the rows the lines already take: not offered again. */
  taken: Set<string>;
  onPick: (rows: Row[]) => void;
}

/** The "select lines" button above a document's lines and its dialog of the rows it may take. */
export function PickLinesButton({ picker, header, headerLabel, taken, onPick }: PickLinesProps) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  const h = headerParams(picker, header);
  const button = (
    <Button size="small" disabled={!h} onClick={() => setOpen(true)}>
      {t('doc.pickLines')}
    </Button>
  );
  return (
    <>
      {h ? button : <Tooltip title={t('doc.pickFirst', { label: headerLabel })}>{button}</Tooltip>}
      {open && h && (
        <PickerDialog
          picker={picker}
          title={t('doc.pickLines')}
          params={h}
          multiple
          taken={taken}
          emptyText={t('doc.pickNone')}
          onClose={() => setOpen(false)}
          onPick={(rows) => {
            onPick(rows);
            setOpen(false);
          }}
        />
      )}
    </>
  );
}

/** A picker column's text: the row's fields joined, a decimal in its scale. */
function columnText(c: PickerColumn, r: Row): string {
  if (c.scale !== undefined) return formatDecimal(r[c.fields[0]], c.scale);
  return c.fields
    .map((f) => r[f])
    .filter((v) => v !== undefined && v !== null && v !== '')
    .join(' ');
}

interface PickerDialogProps {
  picker: LinePicker;
  title: string;
  params: Record<string, string>;
  emptyText: string;
  /** Rows are ticked and added together; else one is picked by its button or a double click. */
  multiple?: boolean;
  taken?: Set<string>;
  onClose: () => void;
  onPick: (rows: Row[]) => void;
}

function PickerDialog({ picker, title, params, emptyText, multiple, taken, onClose, onPick }: PickerDialogProps) {
  const { t } = useTranslation();
  const [current, setCurrent] = useState(1);
  const [keyword, setKeyword] = useState('');
  const [ticked, setTicked] = useState<Row[]>([]);
  const search = picker.search && keyword ? { [picker.search]: keyword } : {};
  const { data, isFetching, error } = useQuery({
    queryKey: ['line-picker', picker.url, params, keyword, current],
    queryFn: () => fetchPage(picker.url, { current, size: PICKER_PAGE_SIZE, ...params, ...search }),
  });
  const rowKey = (r: Row) => String(r[picker.key ?? 'id'] ?? r.id);
  const columns: NonNullable<TableProps<Row>['columns']> = picker.columns.map((c, i) => ({
    title: localized(c.label),
    key: `c${i}`,
    width: c.width,
    align: c.scale !== undefined ? 'right' : undefined,
    ellipsis: true,
    render: (_v: unknown, r: Row) => (
      <>
        {c.dict ? <DictCell field={{ name: c.fields[0], type: 'dict', dict: c.dict, label: c.label }} value={r[c.fields[0]]} /> : columnText(c, r)}
        {c.unit && r[c.unit] ? <DictCellUnit unit={String(r[c.unit])} /> : null}
      </>
    ),
  }));
  if (!multiple) {
    columns.push({
      title: t('crud.action'),
      key: '__pick',
      width: 80,
      render: (_v, r) => (
        <Button size="small" type="link" onClick={() => onPick([r])}>
          {t('doc.pick')}
        </Button>
      ),
    });
  }
  const width = Math.min(1100, 80 + columns.reduce((n, c) => n + (Number(c.width) || 140), 0));
  const failed = error ? ((error as { message?: string }).message ?? emptyText) : undefined;
  return (
    <Modal
      open
      title={title}
      width={width}
      onCancel={onClose}
      destroyOnHidden
      footer={
        multiple
          ? [
              <Button key="cancel" onClick={onClose}>
                {t('common.cancel')}
              </Button>,
              <Button key="add" type="primary" disabled={ticked.length === 0} onClick={() => onPick(ticked)}>
                {t('doc.pickAdd', { count: ticked.length })}
              </Button>,
            ]
          : null
      }
    >
      {picker.search && <Input.Search className="bb-picker-search" allowClear placeholder={t('doc.pickSearch')} onSearch={(v) => (setKeyword(v.trim()), setCurrent(1))} style={{ marginBottom: 8, maxWidth: 320 }} />}
      <Table<Row>
        className="bb-line-picker"
        size="small"
        rowKey={rowKey}
        loading={isFetching}
        dataSource={data?.records ?? []}
        columns={columns}
        tableLayout="fixed"
        locale={{ emptyText: failed ?? emptyText }}
        rowSelection={
          multiple
            ? {
                preserveSelectedRowKeys: true,
                selectedRowKeys: ticked.map(rowKey),
                getCheckboxProps: (r) => ({ disabled: taken?.has(rowKey(r)) }),
                onChange: (_keys, rows) => setTicked(rows.filter(Boolean)),
              }
            : undefined
        }
        onRow={(r) => (multiple ? {} : { onDoubleClick: () => onPick([r]) })}
        pagination={{ current, pageSize: PICKER_PAGE_SIZE, total: data?.total ?? 0, onChange: setCurrent, showSizeChanger: false, size: 'small' }}
      />
    </Modal>
  );
}
