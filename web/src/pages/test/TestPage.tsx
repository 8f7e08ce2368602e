import { Card } from 'antd';
import { useTranslation } from 'react-i18next';

export default function TestPage() {
  const { t } = useTranslation();
  return <Card title={t('route.test')}>{t('route.test')}</Card>;
}
