import { Card, Empty } from 'antd';
import { useTranslation } from 'react-i18next';

/** Console with charts of the tenant's data: a later slice (echarts is loaded only here). */
export default function DashboardPage() {
  const { t } = useTranslation();
  return (
    <Card title={t('route.dashboard')}>
      <Empty />
    </Card>
  );
}
