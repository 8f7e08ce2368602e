import { Card, Col, Row, Statistic, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useUserStore } from '../../store/user';
import { leafMenus } from '../../store/menu';

export default function WelPage() {
  const { t } = useTranslation();
  const user = useUserStore((s) => s.userInfo);
  const menuAll = useUserStore((s) => s.menuAll);
  const roles = useUserStore((s) => s.roles);
  return (
    <div className="bb-wel">
      <Card>
        <Typography.Title level={3}>{t('wel.welcome')}</Typography.Title>
        <Typography.Text>{t('wel.hello', { name: user.realName || user.nickName || user.account || '' })}</Typography.Text>
      </Card>
      <Row gutter={16} style={{ marginTop: 16 }}>
        <Col xs={24} md={8}>
          <Card><Statistic title={t('wel.tenant')} value={user.tenantId ?? ''} formatter={(v) => String(v)} /* an id, not a number: no 000,000 */ /></Card>
        </Col>
        <Col xs={24} md={8}>
          <Card><Statistic title={t('wel.menus')} value={leafMenus(menuAll).length} /></Card>
        </Col>
        <Col xs={24} md={8}>
          <Card><Statistic title={t('wel.roles')} value={roles.join(', ') || '-'} /></Card>
        </Col>
      </Row>
    </div>
  );
}
