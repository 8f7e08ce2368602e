import { cloneElement, useMemo, type ReactElement } from 'react';
import { Button, Form, Input, Table, type FormListFieldData, type TableProps } from 'antd';
import { PlusOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import type { TFunction } from 'i18next';
import { localized } from '../i18n';
import { isDecimalField, sumDecimals } from './decimal';
import { columnAlign, columnWidth, fieldInput, fieldLabel, fieldRules, valueProps } from './fields';
import { copyLine, isPhone, lineCells } from './lines';
import RowButton from './RowButton';
import type { FieldMeta, Lines, Row } from './types';
import './lines.css';

const INDEX_WIDTH = 56;
const ACTION_WIDTH = 130;

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
function LineTotals({ lines, cells, withActions }: { lines: Lines; cells: FieldMeta[]; withActions: boolean }) {
  const { t } = useTranslation();
  const form = Form.useFormInstance();
  const rows = Form.useWatch(lines.field, form) as Row[] | undefined;
  const totals = new Set(lines.totals ?? []);
  return (
    <Table.Summary.Row className="bb-lines-total">
      <Table.Summary.Cell index={0}>{t('crud.lineTotal')}</Table.Summary.Cell>
      {cells.map((f, i) => (
        <Table.Summary.Cell key={f.name} index={i + 1} align={columnAlign(f)}>
          {totals.has(f.name) && isDecimalField(f) ? <span data-total={f.name}>{sumDecimals((rows ?? []).map((r) => r?.[f.name]), f.scale)}</span> : null}
        </Table.Summary.Cell>
      ))}
      {withActions && <Table.Summary.Cell index={cells.length + 1} />}
    </Table.Summary.Row>
  );
}

interface LineGridProps {
  lines: Lines;
  /** View mode: no editing, no add, copy or remove. */
  disabled: boolean;
}

/**
 * The editable lines of a master/detail form (meta.lines): one row per line under the header
 * fields, a control of the field's type in each cell, add / copy / remove, and the totals row. The
 * lines live in the dialog's form under lines.field, so one validation and one submit cover both.
 */
export default function LineGrid({ lines, disabled }: LineGridProps) {
  const { t } = useTranslation();
  const form = Form.useFormInstance();
  const cells = useMemo(() => gridCells(lines), [lines]);
  return (
    <div className="bb-lines">
      <div className="bb-lines-title">{localized(lines.label)}</div>
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
                  rules={disabled ? [] : fieldRules(f, t)}
                  validateTrigger={isDecimalField(f) || f.type === 'string' || f.type === 'text' || f.type === 'int' ? 'onBlur' : 'onChange'}
                  {...valueProps(f)}
                >
                  {cellInput(f, disabled || Boolean(f.readonly), t, form.getFieldValue([lines.field, r.name]) as Row | undefined)}
                </Form.Item>
              ),
            })),
          ];
          if (!disabled) {
            columns.push({
              title: t('crud.action'),
              key: '__action',
              width: ACTION_WIDTH,
              fixed: isPhone() ? undefined : 'right',
              render: (_v, r, i) => (
                <>
                  <span className="bb-row-actions">
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
                summary={lines.totals?.length ? () => <LineTotals lines={lines} cells={cells} withActions={!disabled} /> : undefined}
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
