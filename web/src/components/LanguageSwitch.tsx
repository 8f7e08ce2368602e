import { Dropdown, Button } from 'antd';
import { TranslationOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { setLanguage, type Language } from '../i18n';

/** zh / en switch; the choice is stored and everything language-aware follows it. */
export default function LanguageSwitch({ onChange }: { onChange?: (l: Language) => void }) {
  const { i18n, t } = useTranslation();
  return (
    <Dropdown
      trigger={['click']}
      menu={{
        selectedKeys: [i18n.language],
        items: [
          { key: 'zh', label: '中文' },
          { key: 'en', label: 'English' },
        ],
        onClick: ({ key }) => {
          const l = key as Language;
          void setLanguage(l).then(() => onChange?.(l));
        },
      }}
    >
      <Button type="text" icon={<TranslationOutlined />} aria-label={t('navbar.language')} />
    </Dropdown>
  );
}
