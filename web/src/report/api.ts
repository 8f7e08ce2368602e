import request from '../api/request';
import type { R } from '../api/types';
import { saveBlob } from '../resource/api';
import type { I18nText, Row, ValueType } from '../resource/types';

/** Where blade-report's routes sit. */
export const REPORT_PATH = '/blade-report/report/rest';

/** A field of a source: groups (group) and/or aggregates (measures: sum, avg, min, max). */
export interface SourceField {
  name: string;
  label: string;
  valueType: ValueType;
  group: boolean;
  measures?: string[];
}

/** A resource a report may summarise (GET sources). */
export interface Source {
  id: string;
  label: string;
  fields: SourceField[];
  views?: { name: string; fields: SourceField[] }[];
}

/** One column of a run: a grouping field or a measure. */
export interface ReportColumn {
  key: string;
  label: I18nText;
  measure: boolean;
  valueType: ValueType;
  ref?: string;
  dict?: string;
  bucket?: string;
  scale?: number;
  aggregate?: string;
}

/** A run: the summary's columns and rows, and the definition's chart. */
export interface ReportResult {
  id?: string;
  reportName: string;
  chartType: 'bar' | 'line' | 'pie';
  columns: ReportColumn[];
  rows: Row[];
  truncated?: boolean;
}

export const getSources = async (): Promise<Source[]> => (await request.get<R<Source[]>>(`${REPORT_PATH}/sources`)).data.data ?? [];

export const runReport = async (id: string): Promise<ReportResult> =>
  (await request.get<R<ReportResult>>(`${REPORT_PATH}/run`, { params: { id } })).data.data;

/** Runs an unsaved definition (the builder's preview). */
export const previewReport = async (def: Row): Promise<ReportResult> =>
  (await request.post<R<ReportResult>>(`${REPORT_PATH}/preview`, def)).data.data;

/** Saves a saved report's table as xlsx. */
export async function exportReport(id: string, name: string): Promise<void> {
  const res = await request.get<Blob>(`${REPORT_PATH}/run-export`, { params: { id }, responseType: 'blob' });
  saveBlob(res, `${name}.xlsx`);
}

/** The shown value of a cell: a reference's or dictionary entry's name where the run gives one. */
export function cellText(row: Row, key: string): string {
  const label = row[`${key}Label`];
  const v = label !== undefined && label !== '' ? label : row[key];
  return v === null || v === undefined ? '' : String(v);
}

/** The chart's data: categories from the first grouping column, one series per measure (a pie: the first). */
export function chartSeries(res: ReportResult, measureLabel: (c: ReportColumn) => string) {
  const group = res.columns.find((c) => !c.measure);
  const measures = res.columns.filter((c) => c.measure);
  const categories = res.rows.map((r) => (group ? cellText(r, group.key) || '-' : res.reportName));
  const series = measures.map((m) => ({ name: measureLabel(m), data: res.rows.map((r) => Number(r[m.key] ?? 0)) }));
  return { categories, series };
}
