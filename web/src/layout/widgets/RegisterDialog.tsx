import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import DragDialog from '../../components/DragDialog';
import RegisterForm from '../../components/register/RegisterForm';
import { useUserStore } from '../../store/user';

import { needsRegistration } from './needsRegistration';

export default function RegisterDialog() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const user = useUserStore((s) => s.userInfo);
  const fedLogout = useUserStore((s) => s.fedLogout);
  const open = needsRegistration(user.userId, user.oauthId);
  return (
    <DragDialog title={t('register.title')} open={open} closable={false} maskClosable={false} keyboard={false} footer={null} width={480}>
      <RegisterForm
        oauthId={user.oauthId}
        onSubmitted={() => {
          fedLogout();
          void navigate('/login', { replace: true });
        }}
      />
    </DragDialog>
  );
}
