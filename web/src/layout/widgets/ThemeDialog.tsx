import { Card, Col, Row } from 'antd';
import { CheckCircleFilled } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import DragDialog from '../../components/DragDialog';
import { useCommonStore } from '../../store/common';
import { THEMES } from '../../theme/themes';

/** Theme picker dialog with the 11 named themes. */
export default function ThemeDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const themeName = useCommonStore((s) => s.themeName);
  const setTheme = useCommonStore((s) => s.setTheme);
  return (
    <DragDialog title={t('theme.title')} open={open} width={760} footer={null} onCancel={onClose}>
      <Row gutter={[12, 12]}>
        {THEMES.map((th) => (
          <Col key={th.name} xs={12} sm={8} md={6}>
            <Card
              hoverable
              size="small"
              data-theme={th.name}
              onClick={() => setTheme(th.name)}
              styles={{ body: { padding: 8 } }}
              style={{ borderColor: th.name === themeName ? 'var(--bb-primary, #409EFF)' : undefined }}
            >
              <div className="bb-theme-preview">
                <div style={{ background: th.siderBg }} />
                <div>
                  <div style={{ background: th.headerBg, height: 12, borderBottom: '1px solid #eee' }} />
                  <div style={{ background: th.contentBg, height: 36 }} />
                </div>
              </div>
              <div style={{ marginTop: 6, display: 'flex', justifyContent: 'space-between' }}>
                <span>{t(`theme.names.${th.name}`)}</span>
                {th.name === themeName && <CheckCircleFilled style={{ color: 'var(--bb-primary, #409EFF)' }} />}
              </div>
            </Card>
          </Col>
        ))}
      </Row>
    </DragDialog>
  );
}
