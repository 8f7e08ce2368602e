import { useState } from 'react';
import { Form, Select, Spin, type FormInstance } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import ResourceCrud from '../resource/ResourceCrud';
import RowButton from '../resource/RowButton';
import DragDialog from '../components/DragDialog';
import { WithMeta } from '../system/common';
import type { Row } from '../resource/types';
import { getSources, runReport, type Source, type SourceField } from './api';
import ReportView from './ReportView';

const BUCKETS = ['day', 'month', 'year'] as const;
const MEASURES = ['sum', 'avg', 'min', 'max'] as const;

/** The sources a report may summarise, once per language. */
function useSources() {
  const { i18n } = useTranslation();
  return useQuery({ queryKey: ['report-sources', i18n.language], queryFn: getSources, staleTime: 60_000 });
}

/** The fields of the source (and view) the form has chosen. */
function useChosenFields(form: FormInstance<Row>): { source?: Source; fields: SourceField[] } {
  const { data } = useSources();
  const sourceId = Form.useWatch('source', form) as string | undefined;
  const view = Form.useWatch('viewName', form) as string | undefined;
  const source = data?.find((s) => s.id === sourceId);
  const viewFields = source?.views?.find((v) => v.name === view)?.fields ?? [];
  return { source, fields: [...(source?.fields ?? []), ...viewFields.filter((f) => !source?.fields.some((b) => b.name === f.name))] };
}

interface ListInputProps {
  id?: string;
  value?: string;
  onChange?: (v: string) => void;
  disabled?: boolean;
}

/** A comma list as a multiple select. */
function CommaSelect({ id, value, onChange, disabled, options, placeholder }: ListInputProps & { options: { value: string; label: string }[]; placeholder: string }) {
  const chosen = (value ?? '').split(',').filter(Boolean);
  return (
    <Select
      id={id}
      mode="multiple"
      allowClear
      disabled={disabled}
      placeholder={placeholder}
      value={chosen}
      options={options}
      optionFilterProp="label"
      onChange={(v: string[]) => onChange?.(v.join(','))}
    />
  );
}

function SourceSelect({ id, value, onChange, disabled }: ListInputProps) {
  const { t } = useTranslation();
  const { data, isLoading } = useSources();
  return (
    <Select
      id={id}
      showSearch
      disabled={disabled}
      loading={isLoading}
      value={value || undefined}
      placeholder={t('report.chooseSource')}
      optionFilterProp="label"
      options={(data ?? []).map((s) => ({ value: s.id, label: `${s.label} (${s.id})` }))}
      onChange={(v: string) => onChange?.(v)}
    />
  );
}

function ViewSelect(props: ListInputProps & { form: FormInstance<Row> }) {
  const { t } = useTranslation();
  const { source } = useChosenFields(props.form);
  return (
    <Select
      id={props.id}
      allowClear
      disabled={props.disabled || !source?.views?.length}
      value={props.value || undefined}
      placeholder={t('report.baseTable')}
      options={(source?.views ?? []).map((v) => ({ value: v.name, label: v.name }))}
      onChange={(v?: string) => props.onChange?.(v ?? '')}
    />
  );
}

function GroupSelect(props: ListInputProps & { form: FormInstance<Row> }) {
  const { t } = useTranslation();
  const { fields } = useChosenFields(props.form);
  const options = fields
    .filter((f) => f.group)
    .flatMap((f) =>
      f.valueType === 'datetime' ? BUCKETS.map((b) => ({ value: `${f.name}:${b}`, label: `${f.label} (${t(`report.bucket.${b}`)})` })) : [{ value: f.name, label: f.label }],
    );
  return <CommaSelect {...props} options={options} placeholder={t('report.chooseGroups')} />;
}

/** The measure choices of the chosen fields: count, then sum/avg/min/max of each numeric field. */
function measureOptions(fields: SourceField[], t: (k: string) => string) {
  return [
    { value: 'count', label: t('report.fn.count') },
    ...fields.flatMap((f) => MEASURES.filter((m) => f.measures?.includes(m)).map((m) => ({ value: `${m}:${f.name}`, label: `${t(`report.fn.${m}`)} ${f.label}` }))),
  ];
}

function MeasureSelect(props: ListInputProps & { form: FormInstance<Row> }) {
  const { t } = useTranslation();
  const { fields } = useChosenFields(props.form);
  return <CommaSelect {...props} options={measureOptions(fields, t)} placeholder={t('report.chooseMeasures')} />;
}

/** The table's columns: a subset, in order, of the chosen groupings and measures (empty: all). */
function ColumnSelect(props: ListInputProps & { form: FormInstance<Row> }) {
  const { t } = useTranslation();
  const { fields } = useChosenFields(props.form);
  const groups = String(Form.useWatch('groupBy', props.form) ?? '').split(',').filter(Boolean);
  const measures = String(Form.useWatch('measures', props.form) ?? '').split(',').filter(Boolean);
  const labels = new Map(measureOptions(fields, t).map((o) => [o.value, o.label]));
  const options = [
    ...groups.map((g) => g.split(':')[0]).map((name) => ({ value: name, label: fields.find((f) => f.name === name)?.label ?? name })),
    ...measures.map((m) => ({ value: m.replace(':', '_'), label: labels.get(m) ?? m })),
  ];
  return <CommaSelect {...props} options={options} placeholder={t('report.allColumns')} />;
}

function ChartSelect({ id, value, onChange, disabled }: ListInputProps) {
  const { t } = useTranslation();
  return (
    <Select
      id={id}
      disabled={disabled}
      value={value || 'bar'}
      options={(['bar', 'line', 'pie'] as const).map((c) => ({ value: c, label: t(`report.chart.${c}`) }))}
      onChange={(v: string) => onChange?.(v)}
    />
  );
}

/** A saved report run in a dialog: chart, table and export. */
function RunDialog({ row, onClose }: { row: Row | null; onClose: () => void }) {
  const { t } = useTranslation();
  const id = row ? String(row.id) : '';
  const { data, isFetching } = useQuery({ queryKey: ['report-run', id], queryFn: () => runReport(id), enabled: Boolean(row), gcTime: 0 });
  return (
    <DragDialog title={row ? String(row.reportName) : t('report.run')} open={row !== null} width={900} onCancel={onClose} footer={null} destroyOnHidden>
      <Spin spinning={isFetching}>{data ? <ReportView result={data} /> : <div style={{ height: 300 }} />}</Spin>
    </DragDialog>
  );
}

/** /report/reportlist: report definitions (the generic list and form, with pickers for the source's declared fields) and their runs. */
export default function ReportPage() {
  const { t } = useTranslation();
  const [running, setRunning] = useState<Row | null>(null);
  return (
    <WithMeta code="report">
      {(meta) => (
        <>
          <ResourceCrud
            meta={meta}
            dialogWidth={760}
            inputs={{
              source: ({ disabled }) => <SourceSelect disabled={disabled} />,
              viewName: ({ disabled, form }) => <ViewSelect disabled={disabled} form={form} />,
              groupBy: ({ disabled, form }) => <GroupSelect disabled={disabled} form={form} />,
              measures: ({ disabled, form }) => <MeasureSelect disabled={disabled} form={form} />,
              columns: ({ disabled, form }) => <ColumnSelect disabled={disabled} form={form} />,
              chartType: ({ disabled }) => <ChartSelect disabled={disabled} />,
            }}
            rowActions={(row) => <RowButton onClick={() => setRunning(row)}>{t('report.run')}</RowButton>}
          />
          <RunDialog row={running} onClose={() => setRunning(null)} />
        </>
      )}
    </WithMeta>
  );
}
