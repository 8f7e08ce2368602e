import { cloneElement, useMemo, type ReactElement } from 'react';
import { Button, Form, Input, Table, type FormInstance, type FormListFieldData, type TableProps } from 'antd';
import { useQueryClient } from '@tanstack/react-query';
import { PlusOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import type { TFunction } from 'i18next';
import { localized } from '../i18n';
import { isDecimalField, sumDecimals } from './decimal';
import { columnAlign, columnWidth, fieldInput, fieldLabel, fieldRules, valueProps } from './fields';
import { copyLine, isPhone, lineCells } from './lines';
import RowButton from './RowButton';
import { primeRefRow } from './RemoteSelect';
import { AvailableCell, availableLabel, availableRule, fillOf, lineKeyField, PickLinesButton, PickStockButton, pickerApplies } from './LinePicker';
import type { FieldMeta, LinePicker, Lines, ResourceMeta, Row } from './types';
import './lines.css';

const INDEX_WIDTH = 56;
const ACTION_WIDTH = 130;
/** The action column of lines with a stock picker: also "pick stock". */
const PICKER_ACTION_WIDTH = 190;
const AVAILABLE_WIDTH = 150;

/** The header fields a line picker reads (its `when` field and the list parameters'). */
const pickerHeaderFields = (picker: LinePicker): string[] => [...Object.values(picker.header), ...Object.values(picker.optional ?? {}), ...(picker.when ? [picker.when.field] : [])];

/**
 * The header values the picker reads, watched as one text so that only their changes re-render the grid (a
 * selector answering a new object would re-render it on every keystroke anywhere in the form).
 */
function usePickerHeader(form: FormInstance, picker: LinePicker | undefined): Row | undefined {
  const fields = picker ? pickerHeaderFields(picker) : [];
  const text = Form.useWatch((values: Row | undefined) => JSON.stringify(fields.map((f) => values?.[f] ?? null)), form) as string | undefined;
  return useMemo(() => {
    if (!picker || !text) return undefined;
    const values = JSON.parse(text) as unknown[];
    return Object.fromEntries(fields.map((f, i) => [f, values[i]]));
    // fields follow picker
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [picker, text]);
}

/** A line's available quantity: watches the line itself, so typing in it re-renders only this cell. */
function LineAvailable({ lines, picker, header, name, qtyField }: { lines: Lines; picker: LinePicker; header: Row | undefined; name: number; qtyField?: FieldMeta }) {
  const form = Form.useFormInstance();
  const line = Form.useWatch([lines.field, name], form) as Row | undefined;
  return <AvailableCell picker={picker} header={header} line={line} qtyField={qtyField} />;
}

/** A line's "pick stock" button: fills the line's bucket fields (and the labels of those that are references). */
function LinePick({ lines, picker, header, name, headerLabel, matchLabel }: { lines: Lines; picker: LinePicker; header: Row | undefined; name: number; headerLabel: string; matchLabel: string }) {
  const form = Form.useFormInstance();
  const queryClient = useQueryClient();
  const line = Form.useWatch([lines.field, name], form) as Row | undefined;
  const onPick = (values: Row, bucket: Row) => {
    const next: Row = { ...(form.getFieldValue([lines.field, name]) as Row | undefined), ...values };
    primeFilledRefs(queryClient, lines, picker, values, bucket);
    form.setFieldValue([lines.field, name], next);
    if (picker.qtyField && next[picker.qtyField]) void form.validateFields([[lines.field, name, picker.qtyField]]).catch(() => undefined);
  };
  return <PickStockButton picker={picker} header={header} line={line} headerLabel={headerLabel} matchLabel={matchLabel} onPick={onPick} />;
}

/** A filled reference shows the label the picked row carries for it (positionKey, positionName), not its id. */
function primeFilledRefs(queryClient: ReturnType<typeof useQueryClient>, lines: Lines, picker: LinePicker, values: Row, row: Row) {
  for (const [lineField, rowField] of Object.entries(picker.fill)) {
    const f = lines.meta.fields.find((x) => x.name === lineField);
    const id = values[lineField];
    if (!f?.remote || id === undefined || id === null || id === '') continue;
    const base = rowField.replace(/Id$/, '');
    primeRefRow(queryClient, f, String(id), row[`${base}Key`] ?? row[`${base}Code`], row[`${base}Name`]);
  }
}

/** The "select lines" button of a `lines` picker: each row ticked becomes a line (a first empty line is replaced). */
function LinesPick({ lines, picker, header, headerLabel }: { lines: Lines; picker: LinePicker; header: Row | undefined; headerLabel: string }) {
  const form = Form.useFormInstance();
  const queryClient = useQueryClient();
  const current = (Form.useWatch(lines.field, form) as Row[] | undefined) ?? [];
  const keyField = lineKeyField(picker);
  const taken = new Set(current.map((l) => (keyField ? String(l?.[keyField] ?? '') : '')).filter((k) => k !== '' && k !== '0'));
  const onPick = (rows: Row[]) => {
    const added = rows.map((row) => {
      const values = fillOf(picker, row);
      primeFilledRefs(queryClient, lines, picker, values, row);
      return values;
    });
    const kept = current.filter((l) => l && Object.values(l).some((v) => v !== undefined && v !== null && v !== ''));
    form.setFieldValue(lines.field, [...kept, ...added]);
  };
  return <PickLinesButton picker={picker} header={header} headerLabel={headerLabel} taken={taken} onPick={onPick} />;
}

/** A line field only the picker fills: the text of the line's field naming it (its issue's number), not a control. */
function ShownCell({ lines, name, text }: { lines: Lines; name: number; text: string; value?: unknown }) {
  const form = Form.useFormInstance();
  const shown = Form.useWatch([lines.field, name, text], form) as unknown;
  return <span className="bb-lines-shown">{shown === undefined || shown === null || shown === '' ? '-' : String(shown)}</span>;
}

/**
 * The line fields drawn as cells: not a read-only id that nothing picks (the line's parent id, filled by the
 * server, like a supplier price line's supplierId: its cell showed the raw 18-digit id, greyed out).
 */
export const gridCells = (lines: Lines): FieldMeta[] =>
  lineCells(lines).filter((f) => !(f.type === 'id' && f.readonly && !f.remote && !f.selectUrl && !f.treeUrl));

/**
 * A cell's control, without the form's placeholder (the column header names the cell; "Please enter Fixed
 * text" only showed cut off). A text field is one line that grows as it is typed in: a three-row box made
 * every line of the grid three rows high.
 */
export function cellInput(f: FieldMeta, disabled: boolean, t: TFunction, row: Row | undefined): ReactElement {
  if (f.type === 'text' || f.multiline) return <Input.TextArea autoSize={{ minRows: 1, maxRows: 4 }} maxLength={f.max} disabled={disabled} />;
  return cloneElement(fieldInput(f, disabled, t, row) as ReactElement<{ placeholder?: string }>, { placeholder: undefined });
}

/** A cell needs room for its control, more than the plain value of a table column; a select also for its arrow. */
export const cellWidth = (f: FieldMeta): number => (f.remote ? 240 : Math.max(f.type === 'dict' || f.type === 'select' ? 160 : 140, columnWidth(f) + 20));

/**
 * Holds the line's own errors (those of a field without a cell, or of the whole line): a form field
 * named after the line, so the server's `details[3]` errors can be set on it and show under it.
 */
function LineErrorAnchor(_: { value?: unknown; onChange?: unknown; id?: string }) {
  return null;
}

/** The sums of the totals columns under the lines; watches the lines itself so typing re-renders only it. */
function LineTotals({ lines, cells, withActions, available }: { lines: Lines; cells: FieldMeta[]; withActions: boolean; available?: string }) {
  const { t } = useTranslation();
  const form = Form.useFormInstance();
  const rows = Form.useWatch(lines.field, form) as Row[] | undefined;
  const totals = new Set(lines.totals ?? []);
  return (
    <Table.Summary.Row className="bb-lines-total">
      <Table.Summary.Cell index={0}>{t('crud.lineTotal')}</Table.Summary.Cell>
      {cells.flatMap((f, i) => {
        const cell = (
          <Table.Summary.Cell key={f.name} index={i + 1} align={columnAlign(f)}>
            {totals.has(f.name) && isDecimalField(f) ? <span data-total={f.name}>{sumDecimals((rows ?? []).map((r) => r?.[f.name]), f.scale)}</span> : null}
          </Table.Summary.Cell>
        );
        // the available column after the quantity has no total (buckets of different lines do not add up)
        return f.name === available ? [cell, <Table.Summary.Cell key="__available" index={cells.length + 2} />] : [cell];
      })}
      {withActions && <Table.Summary.Cell index={cells.length + 1} />}
    </Table.Summary.Row>
  );
}

interface LineGridProps {
  lines: Lines;
  /** View mode: no editing, no add, copy or remove. */
  disabled: boolean;
  /** The document whose lines these are: names the header fields a line picker reads. */
  parent?: ResourceMeta;
}

/**
 * The editable lines of a master/detail form (meta.lines): one row per line under the header
 * fields, a control of the field's type in each cell, add / copy / remove, and the totals row. The
 * lines live in the dialog's form under lines.field, so one validation and one submit cover both.
 */
export default function LineGrid({ lines, disabled, parent }: LineGridProps) {
  const { t } = useTranslation();
  const form = Form.useFormInstance();
  const queryClient = useQueryClient();
  const cells = useMemo(() => gridCells(lines), [lines]);
  const header = usePickerHeader(form, lines.picker);
  // The stock picker is an editor's: a document being viewed shows what it holds, not what stock is left.
  const picker = !disabled && pickerApplies(lines.picker, header) ? lines.picker : undefined;
  const qtyField = picker?.qtyField ? cells.find((f) => f.name === picker.qtyField) : undefined;
  const labelOf = (fields: FieldMeta[] | undefined, name: string | undefined) => {
    const f = fields?.find((x) => x.name === name);
    return f ? fieldLabel(f) : (name ?? '');
  };
  const headerLabel = picker ? labelOf(parent?.fields, Object.values(picker.header)[0]) : '';
  const matchLabel = picker ? labelOf(lines.meta.fields, picker.match?.[0]?.field) : '';
  // the picker's own fields are text also on a viewed document (the number, not a bare id)
  const shown = (pickerApplies(lines.picker, header) ? lines.picker.shown : undefined) ?? {};
  const perLine = picker?.kind === 'stock';
  // a line a `lines` pick made keeps what it took (the issue line's material and batch); its quantity and unit stay editable
  const keyField = picker?.kind === 'lines' ? lineKeyField(picker) : undefined;
  const pickedCell = (name: number, field: string): boolean => {
    if (!picker || !keyField || !(field in picker.fill) || field === picker.qtyField || field === picker.unitField) return false;
    const key = form.getFieldValue([lines.field, name, keyField]) as unknown;
    return key !== undefined && key !== null && key !== '' && String(key) !== '0';
  };
  const availableTitle = picker ? availableLabel(picker, t) : '';
  return (
    <div className="bb-lines">
      <div className="bb-lines-title">
        {localized(lines.label)}
        {picker?.kind === 'lines' && <LinesPick lines={lines} picker={picker} header={header} headerLabel={headerLabel} />}
      </div>
      <Form.List name={lines.field}>
        {(rows, { add, remove }, { errors }) => {
          const columns: NonNullable<TableProps<FormListFieldData>['columns']> = [
            { title: t('crud.index'), key: '__index', width: INDEX_WIDTH, align: 'center', render: (_v, _r, i) => i + 1 },
            ...cells.map((f) => ({
              title: <span className={f.required ? 'bb-lines-required' : undefined}>{fieldLabel(f)}</span>,
              key: f.name,
              width: cellWidth(f),
              align: columnAlign(f),
              render: (_v: unknown, r: FormListFieldData) => (
                <Form.Item
                  name={[r.name, f.name]}
                  rules={
                    disabled
                      ? []
                      : picker && f === qtyField
                        ? [
                            ...fieldRules(f, t),
                            availableRule(picker, f, queryClient, () => header, () => form.getFieldValue([lines.field, r.name]) as Row | undefined, t),
                          ]
                        : fieldRules(f, t)
                  }
                  validateTrigger={isDecimalField(f) || f.type === 'string' || f.type === 'text' || f.type === 'int' ? 'onBlur' : 'onChange'}
                  {...valueProps(f)}
                >
                  {shown[f.name] ? (
                    <ShownCell lines={lines} name={r.name} text={shown[f.name]} />
                  ) : (
                    cellInput(f, disabled || Boolean(f.readonly) || pickedCell(r.name, f.name), t, form.getFieldValue([lines.field, r.name]) as Row | undefined)
                  )}
                </Form.Item>
              ),
            })),
          ];
          if (picker) {
            // the available quantity beside the quantity it bounds
            const at = columns.findIndex((c) => c.key === picker.qtyField);
            columns.splice(at < 0 ? columns.length : at + 1, 0, {
              title: availableTitle,
              key: '__available',
              width: AVAILABLE_WIDTH,
              align: 'right',
              render: (_v: unknown, r: FormListFieldData) => <LineAvailable lines={lines} picker={picker} header={header} name={r.name} qtyField={qtyField} />,
            });
          }
          if (!disabled) {
            columns.push({
              title: t('crud.action'),
              key: '__action',
              width: perLine ? PICKER_ACTION_WIDTH : ACTION_WIDTH,
              fixed: isPhone() ? undefined : 'right',
              render: (_v, r, i) => (
                <>
                  <span className="bb-row-actions">
                    {perLine && picker && <LinePick lines={lines} picker={picker} header={header} name={r.name} headerLabel={headerLabel} matchLabel={matchLabel} />}
                    <RowButton onClick={() => add(copyLine(form.getFieldValue([lines.field, r.name]) as Row | undefined), i + 1)}>{t('crud.lineCopy')}</RowButton>
                    <RowButton danger onClick={() => remove(r.name)}>
                      {t('crud.lineRemove')}
                    </RowButton>
                  </span>
                  <Form.Item name={[r.name]} className="bb-lines-line-error">
                    <LineErrorAnchor />
                  </Form.Item>
                </>
              ),
            });
          }
          const width = columns.reduce((n, c) => n + Number(c.width), 0);
          return (
            <>
              <Table<FormListFieldData>
                className="bb-lines-table"
                size="small"
                bordered
                rowKey="key"
                dataSource={rows}
                columns={columns}
                pagination={false}
                tableLayout="fixed"
                scroll={{ x: width }}
                locale={{ emptyText: t('crud.lineEmpty') }}
                summary={lines.totals?.length ? () => <LineTotals lines={lines} cells={cells} withActions={!disabled} available={picker?.qtyField} /> : undefined}
              />
              <Form.ErrorList errors={errors} />
              {!disabled && (
                <Button type="dashed" block icon={<PlusOutlined />} onClick={() => add({})} style={{ marginTop: 8 }}>
                  {t('crud.lineAdd')}
                </Button>
              )}
            </>
          );
        }}
      </Form.List>
    </div>
  );
}
