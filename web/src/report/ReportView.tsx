import { Alert, Button, Empty, Table } from 'antd';
import { DownloadOutlined } from '@ant-design/icons';
import type { EChartsOption } from 'echarts';
import { useTranslation } from 'react-i18next';
import Chart from '../pages/wel/Chart';
import { localized } from '../i18n';
import { cellText, chartSeries, exportReport, type ReportResult } from './api';

/** The echarts option of a run: bars or lines over the first grouping, or a pie of the first measure. */
export function reportOption(res: ReportResult): EChartsOption {
  const { categories, series } = chartSeries(res, (c) => localized(c.label));
  if (res.chartType === 'pie') {
    const first = series[0] ?? { name: '', data: [] };
    return {
      tooltip: { trigger: 'item' },
      legend: { bottom: 0, type: 'scroll' },
      series: [{ type: 'pie', name: first.name, radius: ['30%', '65%'], data: categories.map((name, i) => ({ name, value: first.data[i] })) }],
    };
  }
  return {
    tooltip: { trigger: 'axis' },
    legend: { top: 0 },
    grid: { left: 48, right: 24, top: 40, bottom: 48, containLabel: true },
    xAxis: { type: 'category', data: categories, axisLabel: { interval: 0, rotate: categories.length > 8 ? 30 : 0 } },
    yAxis: { type: 'value' },
    series: series.map((s) => ({ type: res.chartType, name: s.name, data: s.data, smooth: res.chartType === 'line' })),
  };
}

/** A report's chart and table, with its Excel export (a saved report only). */
export default function ReportView({ result }: { result: ReportResult }) {
  const { t } = useTranslation();
  const columns = result.columns.map((c) => ({
    key: c.key,
    dataIndex: c.key,
    title: localized(c.label),
    align: c.measure ? ('right' as const) : undefined,
    render: (_: unknown, row: Record<string, unknown>) => cellText(row, c.key),
  }));
  return (
    <div className="bb-report-view" data-testid="report-view">
      {result.truncated && <Alert type="warning" showIcon message={t('report.truncated')} style={{ marginBottom: 8 }} />}
      {result.rows.length === 0 ? (
        <Empty description={t('report.empty')} style={{ padding: 40 }} />
      ) : (
        <Chart option={reportOption(result)} height={300} />
      )}
      <div style={{ display: 'flex', justifyContent: 'flex-end', margin: '8px 0' }}>
        {result.id && (
          <Button icon={<DownloadOutlined />} onClick={() => void exportReport(result.id!, result.reportName).catch(() => undefined)}>
            {t('report.export')}
          </Button>
        )}
      </div>
      <Table
        size="small"
        rowKey={(_, i) => String(i)}
        columns={columns}
        dataSource={result.rows}
        pagination={result.rows.length > 20 ? { pageSize: 20, showSizeChanger: false } : false}
      />
    </div>
  );
}
