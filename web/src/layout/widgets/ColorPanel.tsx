import { ColorPicker } from 'antd';
import { useTranslation } from 'react-i18next';
import { useCommonStore } from '../../store/common';
import { website } from '../../config';

export const PRESET_COLORS = ['#409EFF', '#1890FF', '#304156', '#212121', '#11A983', '#13C2C2', '#6959CD', '#F5222D'];

/** antd's colour picker (loaded on first use), opened at once. */
export default function ColorPanel({ open, onOpenChange }: { open: boolean; onOpenChange: (o: boolean) => void }) {
  const { t } = useTranslation();
  const colorName = useCommonStore((s) => s.colorName);
  const setColor = useCommonStore((s) => s.setColor);
  return (
    <ColorPicker
      size="small"
      disabledAlpha
      open={open}
      onOpenChange={onOpenChange}
      value={colorName || website.defaultColor}
      presets={[{ label: t('theme.colorTitle'), colors: PRESET_COLORS }]}
      onChangeComplete={(c) => setColor(c.toHexString().toUpperCase())}
    />
  );
}
