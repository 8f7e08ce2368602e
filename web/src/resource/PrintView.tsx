import { useEffect, useMemo } from 'react';
import { createPortal } from 'react-dom';
import { Button, Space, Spin } from 'antd';
import { CloseOutlined, PrinterOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import dayjs from 'dayjs';
import { localized } from '../i18n';
import { getDetail } from './api';
import { isDecimalField, sumDecimals } from './decimal';
import { DATETIME_FMT, dictShownKey, fieldLabel, isRefField, renderCell, useDictItems } from './fields';
import type { FieldMeta, Lines, ResourceMeta, Row } from './types';
import './print.css';

/**
 * The printable document (metadata `print`): an A4 page of the document's header fields, its lines with their
 * totals and the signature boxes, shown over the screen and printed by the browser (window.print): while it is
 * open, the print stylesheet hides everything else. One view for every document, drawn from its metadata.
 */

const present = (v: unknown): boolean => v !== undefined && v !== null && v !== '' && !(Array.isArray(v) && v.length === 0);

/** The header fields printed: the document's own fields that have a value, not ids nothing names nor secrets. */
export function printedHeader(meta: ResourceMeta, row: Row): FieldMeta[] {
  const skip = new Set([meta.lines?.field, ...(meta.extraLines ?? []).map((l) => l.field)]);
  return meta.fields.filter(
    (f) =>
      !skip.has(f.name) &&
      !f.joined &&
      !f.secret &&
      f.type !== 'password' &&
      f.type !== 'image' &&
      f.type !== 'video' &&
      !(f.type === 'id' && !f.ref) &&
      (f.form !== false || f.list !== false) &&
      present(row[f.name]) &&
      !(isRefField(f) && String(row[f.name]) === '0'),
  );
}

/**
 * The line columns printed: the listed fields, less the parent's id and ids nothing names; a reference whose
 * line keeps a snapshot of it (materialId beside materialCode and materialName) prints the snapshot only.
 */
export function printedLineFields(lines: Lines, parentKey: string): FieldMeta[] {
  const names = new Set(lines.meta.fields.filter((f) => !f.joined && f.list !== false).map((f) => f.name));
  return lines.meta.fields.filter((f) => {
    if (f.list === false || f.joined || f.ref === parentKey || f.type === 'password' || f.type === 'image' || f.type === 'video') return false;
    if (f.type === 'id' && !f.ref) return false;
    if (isRefField(f)) {
      const base = f.name.replace(/Id$/, '');
      if (names.has(`${base}Code`) || names.has(`${base}Name`)) return false;
    }
    return true;
  });
}

function LinesTable({ lines, rows, parentKey }: { lines: Lines; rows: Row[]; parentKey: string }) {
  const { t } = useTranslation();
  // columns empty on every line (a receipt's inspection, an issue's returned quantity) are left off the page
  const fields = printedLineFields(lines, parentKey).filter((f) => rows.some((r) => present(r[f.name]) && !(isRefField(f) && String(r[f.name]) === '0')));
  const own = new Set(lines.meta.fields.filter((f) => !f.joined).map((f) => f.name));
  const totals = new Set(lines.totals ?? []);
  return (
    <table className="bb-print-lines">
      <caption>{localized(lines.label)}</caption>
      <thead>
        <tr>
          <th className="bb-print-index">{t('crud.index')}</th>
          {fields.map((f) => (
            <th key={f.name}>{fieldLabel(f)}</th>
          ))}
        </tr>
      </thead>
      <tbody>
        {rows.map((r, i) => (
          <tr key={String(r.id ?? i)}>
            <td className="bb-print-index">{i + 1}</td>
            {fields.map((f) => (
              <td key={f.name} className={isDecimalField(f) ? 'bb-print-num' : undefined}>
                {renderCell(f, r[f.name], t, r, own)}
              </td>
            ))}
          </tr>
        ))}
      </tbody>
      {totals.size > 0 && (
        <tfoot>
          <tr>
            <td className="bb-print-index">{t('crud.lineTotal')}</td>
            {fields.map((f) => (
              <td key={f.name} className="bb-print-num" data-total={totals.has(f.name) ? f.name : undefined}>
                {totals.has(f.name) && isDecimalField(f) ? sumDecimals(rows.map((r) => r[f.name]), f.scale) : null}
              </td>
            ))}
          </tr>
        </tfoot>
      )}
    </table>
  );
}

/** A header field and its value; a dictionary's 0 that names no item (nothing chosen) is left out, label too. */
function PrintedField({ field: f, row, own }: { field: FieldMeta; row: Row; own: ReadonlySet<string> }) {
  const { t } = useTranslation();
  const items = useDictItems(f);
  if (f.type === 'dict' && (!items || dictShownKey(row[f.name], items) === undefined)) return null;
  return (
    <div className={f.type === 'text' || f.multiline ? 'bb-print-wide' : undefined}>
      <dt>{fieldLabel(f)}</dt>
      <dd>{renderCell(f, row[f.name], t, row, own)}</dd>
    </div>
  );
}

/** The printed page of one document. */
export function PrintPage({ meta, row }: { meta: ResourceMeta; row: Row }) {
  const { t } = useTranslation();
  const own = useMemo(() => new Set(meta.fields.filter((f) => !f.joined).map((f) => f.name)), [meta.fields]);
  const header = printedHeader(meta, row);
  const parentKey = `${meta.service}/${meta.name}`;
  const numberField = meta.number?.field;
  const lineSets = [meta.lines, ...(meta.extraLines ?? [])].filter((l): l is Lines => Boolean(l));
  return (
    <div className="bb-print-page">
      <h1 className="bb-print-title">{localized(meta.label)}</h1>
      {numberField && present(row[numberField]) && <div className="bb-print-no">{String(row[numberField])}</div>}
      <dl className="bb-print-header">
        {header
          .filter((f) => f.name !== numberField)
          .map((f) => (
            <PrintedField key={f.name} field={f} row={row} own={own} />
          ))}
      </dl>
      {lineSets.map((l) => (
        <LinesTable key={l.field} lines={l} rows={(row[l.field] as Row[] | undefined) ?? []} parentKey={parentKey} />
      ))}
      <div className="bb-print-signatures">
        {(meta.print?.signatures ?? []).map((s, i) => (
          <div key={i} className="bb-print-sign">
            <div className="bb-print-sign-label">{localized(s)}</div>
            <div className="bb-print-sign-line" />
            <div className="bb-print-sign-date">{t('doc.signDate')}</div>
          </div>
        ))}
      </div>
      <div className="bb-print-foot">
        {t('doc.printedAt')}: {dayjs().format(DATETIME_FMT)}
      </div>
    </div>
  );
}

/** The print view over the screen: its toolbar prints or closes; Escape closes. */
export default function PrintView({ meta, id, onClose }: { meta: ResourceMeta; id: string; onClose: () => void }) {
  const { t } = useTranslation();
  const { data, isLoading, isError } = useQuery({ queryKey: ['print', meta.path, id], queryFn: () => getDetail(meta, id), staleTime: 0 });
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => e.key === 'Escape' && onClose();
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [onClose]);
  useEffect(() => {
    if (isError) onClose();
  }, [isError, onClose]);
  return createPortal(
    <div className="bb-print-root" role="dialog" aria-label={t('doc.print')}>
      <div className="bb-print-toolbar">
        <Space>
          <Button type="primary" icon={<PrinterOutlined />} disabled={!data} onClick={() => window.print()}>
            {t('doc.printNow')}
          </Button>
          <Button icon={<CloseOutlined />} onClick={onClose}>
            {t('doc.printClose')}
          </Button>
        </Space>
      </div>
      {isLoading || !data ? <Spin style={{ display: 'block', marginTop: 80 }} /> : <PrintPage meta={meta} row={data} />}
    </div>,
    document.body,
  );
}
