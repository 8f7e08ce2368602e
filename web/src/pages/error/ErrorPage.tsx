import { Button, Result } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { usePageTitle } from '../../util/title';
import AntProvider from '../../theme/AntProvider';

type Code = '404' | '403' | '500';
const TITLE: Record<Code, string> = { '404': 'route.page404', '403': 'route.page403', '500': 'route.page500' };

function ErrorPageInner({ code }: { code: Code }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  usePageTitle(TITLE[code]);
  return (
    <Result
      status={code}
      title={code}
      subTitle={t(`errorPage.${code}`)}
      extra={
        <Button type="primary" onClick={() => void navigate('/', { replace: true })}>
          {t('errorPage.back')}
        </Button>
      }
    />
  );
}

export default function ErrorPage(props: { code: Code }) {
  return <AntProvider><ErrorPageInner {...props} /></AntProvider>;
}
