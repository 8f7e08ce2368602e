import { useState } from 'react';
import { Button, Card, Col, Row, Tooltip } from 'antd';
import { BgColorsOutlined, CheckCircleFilled } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import DragDialog from '../../components/DragDialog';
import { useCommonStore } from '../../store/common';
import { THEMES } from '../../theme/themes';

/** Theme picker dialog with the 11 named themes. */
export default function ThemeButton() {
  const { t } = useTranslation();
  const themeName = useCommonStore((s) => s.themeName);
  const setTheme = useCommonStore((s) => s.setTheme);
  const [open, setOpen] = useState(false);
  return (
    <>
      <Tooltip title={t('navbar.theme')}>
        <Button type="text" aria-label={t('navbar.theme')} icon={<BgColorsOutlined />} onClick={() => setOpen(true)} style={{ color: 'inherit' }} />
      </Tooltip>
      <DragDialog title={t('theme.title')} open={open} width={760} footer={null} onCancel={() => setOpen(false)}>
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
    </>
  );
}
