import { ColorPicker, Tooltip } from 'antd';
import { useTranslation } from 'react-i18next';
import { useCommonStore } from '../../store/common';
import { website } from '../../config';

export const PRESET_COLORS = ['#409EFF', '#1890FF', '#304156', '#212121', '#11A983', '#13C2C2', '#6959CD', '#F5222D'];

/** Theme colour picker (default #409EFF). */
export default function ColorButton() {
  const { t } = useTranslation();
  const colorName = useCommonStore((s) => s.colorName);
  const setColor = useCommonStore((s) => s.setColor);
  return (
    <Tooltip title={t('navbar.color')}>
      <span style={{ display: 'inline-flex', padding: '0 6px' }}>
        <ColorPicker
          size="small"
          disabledAlpha
          value={colorName || website.defaultColor}
          presets={[{ label: t('theme.colorTitle'), colors: PRESET_COLORS }]}
          onChangeComplete={(c) => setColor(c.toHexString().toUpperCase())}
        />
      </span>
    </Tooltip>
  );
}
