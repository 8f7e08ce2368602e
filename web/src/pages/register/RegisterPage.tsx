import { Card, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import RegisterForm from '../../components/register/RegisterForm';
import { usePageTitle } from '../../util/title';
import { useUserStore } from '../../store/user';
import '../login/login.css';
import AntProvider from '../../theme/AntProvider';

function RegisterPageInner() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const fedLogout = useUserStore((s) => s.fedLogout);
  usePageTitle('route.register');
  return (
    <div className="login-container">
      <Card style={{ width: 420, maxWidth: '100%' }}>
        <Typography.Title level={3}>{t('register.title')}</Typography.Title>
        <RegisterForm
          onSubmitted={() => {
            fedLogout();
            void navigate('/login', { replace: true });
          }}
        />
        <div className="login-links">
          <Link to="/login">{t('register.back')}</Link>
        </div>
      </Card>
    </div>
  );
}

export default function RegisterPage() {
  return <AntProvider><RegisterPageInner /></AntProvider>;
}
