import { useState } from 'react';
import { Tooltip } from 'antd';
import { useTranslation } from 'react-i18next';
import { useCommonStore } from '../../store/common';
import { website } from '../../config';
import Deferred from './Deferred';

const ColorPanel = Deferred.load(() => import('./ColorPanel'));

/** Theme colour (default #409EFF): a swatch; antd's colour picker loads on the first click. */
export default function ColorButton() {
  const { t } = useTranslation();
  const colorName = useCommonStore((s) => s.colorName);
  const [open, setOpen] = useState(false);
  const [used, setUsed] = useState(false);
  const swatch = (
    <button
      type="button"
      className="bb-color-swatch"
      aria-label={t('navbar.color')}
      onClick={() => {
        setUsed(true);
        setOpen(true);
      }}
    >
      <span style={{ background: colorName || website.defaultColor }} />
    </button>
  );
  return (
    <Tooltip title={t('navbar.color')}>
      <span style={{ display: 'inline-flex', padding: '0 6px' }}>
        {used ? (
          <Deferred when={used}>
            <ColorPanel open={open} onOpenChange={setOpen} />
          </Deferred>
        ) : (
          swatch
        )}
      </span>
    </Tooltip>
  );
}
