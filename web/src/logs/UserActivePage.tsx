import { useMemo, useState } from 'react';
import { Button, Card, DatePicker, Input, Space, Table, Typography } from 'antd';
import { useQuery } from '@tanstack/react-query';
import dayjs, { type Dayjs } from 'dayjs';
import { useTranslation } from 'react-i18next';
import type { EChartsOption } from 'echarts';
import request from '../api/request';
import Chart from '../pages/wel/Chart';

interface ActiveRow {
  id: string;
  day: string;
  account: string;
  tenantId: string;
  onlineSeconds: number;
  sessions: number;
}
interface ActiveReport {
  startDay: string;
  endDay: string;
  records: ActiveRow[];
  days: { day: string; onlineSeconds: number; users: number }[];
}

/** 1 h 05 min, 12 min, 40 s. */
export function duration(seconds: number): string {
  const h = Math.floor(seconds / 3600);
  const m = Math.floor((seconds % 3600) / 60);
  if (h > 0) return `${h} h ${String(m).padStart(2, '0')} min`;
  if (m > 0) return `${m} min`;
  return `${seconds} s`;
}

/** Online-duration statistics (/system/user/log): per user and day, a table and a chart of the days. */
export default function UserActivePage() {
  const { t } = useTranslation();
  const [range, setRange] = useState<[Dayjs, Dayjs]>([dayjs().subtract(6, 'day'), dayjs()]);
  const [account, setAccount] = useState('');
  const [asked, setAsked] = useState({ range, account });
  const params = {
    startDay: asked.range[0].format('YYYY-MM-DD'),
    endDay: asked.range[1].format('YYYY-MM-DD'),
    account: asked.account.trim() || undefined,
  };
  const { data, isFetching } = useQuery({
    queryKey: ['log-service', 'active', params],
    queryFn: async () =>
      (await request.get<{ data: ActiveReport }>('/log-service/active/getUserActive', { params })).data.data,
  });
  const option = useMemo<EChartsOption>(() => {
    const days = data?.days ?? [];
    return {
      tooltip: { trigger: 'axis' },
      legend: { data: [t('userActive.onlineHours'), t('userActive.users')] },
      grid: { left: 48, right: 48, top: 40, bottom: 32 },
      xAxis: { type: 'category', data: days.map((d) => d.day) },
      yAxis: [{ type: 'value', name: 'h' }, { type: 'value', minInterval: 1 }],
      series: [
        { name: t('userActive.onlineHours'), type: 'bar', data: days.map((d) => Math.round((d.onlineSeconds / 3600) * 100) / 100) },
        { name: t('userActive.users'), type: 'bar', yAxisIndex: 1, data: days.map((d) => d.users) },
      ],
    };
  }, [data, t]);
  // The super user sees every tenant's rows, and each tenant has its own "admin": then the tenant tells them apart.
  const manyTenants = new Set((data?.records ?? []).map((r) => r.tenantId)).size > 1;
  return (
    <Space direction="vertical" style={{ width: '100%' }} size="middle">
      <Space wrap>
        <DatePicker.RangePicker
          value={range}
          allowClear={false}
          onChange={(v) => v?.[0] && v[1] && setRange([v[0], v[1]])}
        />
        <Input
          placeholder={t('userActive.account')}
          value={account}
          onChange={(e) => setAccount(e.target.value)}
          onPressEnter={() => setAsked({ range, account })}
          style={{ width: 180 }}
          allowClear
        />
        <Button type="primary" onClick={() => setAsked({ range, account })}>
          {t('crud.search')}
        </Button>
      </Space>
      <Typography.Text type="secondary">{t('userActive.note')}</Typography.Text>
      <Card size="small" data-testid="user-active-chart">
        <Chart option={option} height={280} />
      </Card>
      <Table<ActiveRow>
        rowKey="id"
        size="small"
        loading={isFetching}
        dataSource={data?.records ?? []}
        pagination={{ pageSize: 20, hideOnSinglePage: true }}
        columns={[
          { title: t('userActive.day'), dataIndex: 'day', width: 140 },
          ...(manyTenants ? [{ title: t('userActive.tenant'), dataIndex: 'tenantId', width: 120 }] : []),
          { title: t('userActive.account'), dataIndex: 'account' },
          { title: t('userActive.online'), dataIndex: 'onlineSeconds', render: (s: number) => duration(s), width: 160 },
          { title: t('userActive.sessions'), dataIndex: 'sessions', width: 100 },
        ]}
      />
    </Space>
  );
}
