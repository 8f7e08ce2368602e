import { useState } from 'react';
import { Button, Card, Result, Typography } from 'antd';
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
  // After submitting, the page says the account waits for approval (spec §4) until the visitor goes back to sign in.
  const [submitted, setSubmitted] = useState(false);
  usePageTitle('route.register');
  return (
    <div className="login-container">
      <Card style={{ width: 420, maxWidth: '100%' }}>
        {submitted ? (
          <Result
            status="success"
            title={t('register.submitted')}
            subTitle={t('register.pendingHint')}
            extra={
              <Button type="primary" onClick={() => void navigate('/login', { replace: true })}>
                {t('register.back')}
              </Button>
            }
          />
        ) : (
          <>
            <Typography.Title level={3}>{t('register.title')}</Typography.Title>
            <RegisterForm
              onSubmitted={() => {
                fedLogout();
                setSubmitted(true);
              }}
            />
            <div className="login-links">
              <Link to="/login">{t('register.back')}</Link>
            </div>
          </>
        )}
      </Card>
    </div>
  );
}

export default function RegisterPage() {
  return <AntProvider><RegisterPageInner /></AntProvider>;
}
