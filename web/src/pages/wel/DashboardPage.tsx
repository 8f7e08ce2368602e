import { Card, Col, Empty, Row, Spin, Statistic, Typography } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { EChartsOption } from 'echarts';
import Chart from './Chart';
import { dictCounts, menusPerTopMenu, stockValueByWarehouse, userTotal, usersPerDept, usersPerRole, type Count, type WarehouseValue } from './dashboardData';
import { useUserStore } from '../../store/user';

const barOption = (data: Count[], horizontal = false): EChartsOption => ({
  tooltip: { trigger: 'axis' },
  grid: { left: 16, right: 24, top: 24, bottom: 8, containLabel: true },
  xAxis: horizontal ? { type: 'value', minInterval: 1 } : { type: 'category', data: data.map((d) => d.name), axisLabel: { interval: 0, rotate: data.length > 6 ? 30 : 0 } },
  yAxis: horizontal ? { type: 'category', data: data.map((d) => d.name).reverse() } : { type: 'value', minInterval: 1 },
  series: [{ type: 'bar', data: horizontal ? data.map((d) => d.value).reverse() : data.map((d) => d.value), barMaxWidth: 36, label: { show: true, position: horizontal ? 'right' : 'top' } }],
});

const pieOption = (data: Count[]): EChartsOption => ({
  tooltip: { trigger: 'item', formatter: '{b}: {c} ({d}%)' },
  legend: { bottom: 0, type: 'scroll' },
  series: [{ type: 'pie', radius: ['35%', '65%'], center: ['50%', '45%'], data, label: { formatter: '{b}: {c}' } }],
});

function ChartCard({ title, note, query, option }: { title: string; note: string; query: { data?: Count[]; isLoading: boolean }; option: (d: Count[]) => EChartsOption }) {
  const data = query.data ?? [];
  return (
    <Card size="small" title={title} extra={<Typography.Text type="secondary">{note}</Typography.Text>}>
      <Spin spinning={query.isLoading}>
        {data.length === 0 && !query.isLoading ? <Empty style={{ height: 320, paddingTop: 100 }} /> : <Chart option={option(data)} />}
      </Spin>
    </Card>
  );
}

/** Stock value bars: the exact amounts are the labels and tooltips; the bar lengths are their numbers. */
const valueOption = (data: WarehouseValue[], amountLabel: string): EChartsOption => ({
  tooltip: {
    trigger: 'axis',
    formatter: (p: unknown) => {
      const d = data[(p as { dataIndex: number }[])[0]?.dataIndex ?? 0];
      return d ? `${d.warehouseName}<br/>${amountLabel}: ${d.amount}` : '';
    },
  },
  grid: { left: 16, right: 24, top: 24, bottom: 8, containLabel: true },
  xAxis: { type: 'category', data: data.map((d) => d.warehouseName), axisLabel: { interval: 0, rotate: data.length > 6 ? 30 : 0 } },
  yAxis: { type: 'value' },
  series: [
    {
      type: 'bar',
      data: data.map((d) => Number(d.amount)),
      barMaxWidth: 36,
      label: { show: true, position: 'top', formatter: (p: unknown) => data[(p as { dataIndex: number }).dataIndex]?.amount ?? '' },
    },
  ],
});

/** Material stock value per warehouse, for those who may read material stock (button material_stock_view). */
function StockValueCard() {
  const { t, i18n } = useTranslation();
  const q = useQuery({ queryKey: ['dash', 'stockValue', i18n.language], queryFn: stockValueByWarehouse });
  const data = q.data ?? [];
  return (
    <Card size="small" title={t('stock.valueByWarehouse')} extra={<Typography.Text type="secondary">{t('stock.valueByWarehouseNote')}</Typography.Text>}>
      <Spin spinning={q.isLoading}>
        {data.length === 0 && !q.isLoading ? <Empty style={{ height: 320, paddingTop: 100 }} /> : <Chart option={valueOption(data, t('stock.amount'))} />}
      </Spin>
    </Card>
  );
}

/** /wel/dashboard: charts of the tenant's own data (echarts loads only here). */
export default function DashboardPage() {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  const depts = useQuery({ queryKey: ['dash', 'depts', lang], queryFn: usersPerDept });
  const tops = useQuery({ queryKey: ['dash', 'tops', lang], queryFn: menusPerTopMenu });
  const dicts = useQuery({ queryKey: ['dash', 'dicts', lang], queryFn: dictCounts });
  const roles = useQuery({ queryKey: ['dash', 'roles', lang], queryFn: usersPerRole });
  const users = useQuery({ queryKey: ['dash', 'users'], queryFn: userTotal });
  const mayReadStock = useUserStore((s) => s.permission.material_stock_view === true);
  const sum = (d?: Count[]) => (d ?? []).reduce((n, c) => n + c.value, 0);
  return (
    <div>
      <Row gutter={[12, 12]}>
        <Col xs={12} md={6}>
          <Card size="small">
            <Statistic title={t('dash.users')} value={users.data ?? 0} loading={users.isLoading} />
          </Card>
        </Col>
        <Col xs={12} md={6}>
          <Card size="small">
            <Statistic title={t('dash.menus')} value={sum(tops.data)} loading={tops.isLoading} />
          </Card>
        </Col>
        <Col xs={12} md={6}>
          <Card size="small">
            <Statistic title={t('dash.dicts')} value={(dicts.data ?? []).length} loading={dicts.isLoading} />
          </Card>
        </Col>
        <Col xs={12} md={6}>
          <Card size="small">
            <Statistic title={t('dash.roles')} value={(roles.data ?? []).length} loading={roles.isLoading} />
          </Card>
        </Col>
        <Col xs={24} lg={12}>
          <ChartCard title={t('dash.usersPerDept')} note={t('dash.usersPerDeptNote')} query={depts} option={(d) => barOption(d)} />
        </Col>
        <Col xs={24} lg={12}>
          <ChartCard title={t('dash.menusPerTop')} note={t('dash.menusPerTopNote')} query={tops} option={pieOption} />
        </Col>
        <Col xs={24} lg={12}>
          <ChartCard title={t('dash.dictEntries')} note={t('dash.dictEntriesNote')} query={dicts} option={(d) => barOption(d.slice(0, 12), true)} />
        </Col>
        <Col xs={24} lg={12}>
          <ChartCard title={t('dash.usersPerRole')} note={t('dash.usersPerRoleNote')} query={roles} option={pieOption} />
        </Col>
        {mayReadStock && (
          <Col xs={24} lg={12}>
            <StockValueCard />
          </Col>
        )}
      </Row>
    </div>
  );
}
