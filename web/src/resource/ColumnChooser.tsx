import { useCallback, useEffect, useRef, useState, type ReactNode } from 'react';
import { Badge, Button, Checkbox, Popover, Tooltip } from 'antd';
import { ColumnWidthOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { EMPTY_CHOICE, loadChoice, saveChoice, toggleChoice, type ColumnChoice } from './columnFit';

/** A column the chooser lists. */
export interface ChooserColumn {
  key: string;
  title: ReactNode;
}

/**
 * The column chooser of a list: every column that may be left out, ticked when shown. Unticking hides a column
 * whatever the width, ticking shows it (the table then scrolls sideways if it must); "default" goes back to
 * the columns that fit.
 */
export function ColumnChooser({ columns, shown, choice, onChange }: { columns: ChooserColumn[]; shown: Set<string>; choice: ColumnChoice; onChange: (c: ColumnChoice) => void }) {
  const { t } = useTranslation();
  const hidden = columns.filter((c) => !shown.has(c.key)).length;
  const content = (
    <div className="bb-column-chooser" data-testid="column-chooser">
      {columns.map((c) => (
        <div key={c.key}>
          <Checkbox checked={shown.has(c.key)} onChange={(e) => onChange(toggleChoice(choice, c.key, e.target.checked))}>
            {c.title}
          </Checkbox>
        </div>
      ))}
      <Button type="link" size="small" style={{ paddingInline: 0 }} disabled={choice.shown.length + choice.hidden.length === 0} onClick={() => onChange(EMPTY_CHOICE)}>
        {t('crud.columnsReset')}
      </Button>
    </div>
  );
  return (
    <Popover content={content} trigger="click" placement="bottomRight">
      {/* a hint only: it must never sit between the mouse and the search buttons it can cover */}
      <Tooltip title={hidden > 0 ? t('crud.columnsHidden', { count: hidden }) : t('crud.columns')} styles={{ root: { pointerEvents: 'none' } }}>
        <Badge count={hidden} size="small" offset={[-4, 4]}>
          <Button icon={<ColumnWidthOutlined />} aria-label={t('crud.columns')} />
        </Badge>
      </Tooltip>
    </Popover>
  );
}

/** The user's column choice of a table, kept in local storage per user and per table. */
export function useColumnChoice(userId: string, table: string): [ColumnChoice, (c: ColumnChoice) => void] {
  const [choice, setChoice] = useState<ColumnChoice>(() => loadChoice(userId, table));
  useEffect(() => setChoice(loadChoice(userId, table)), [userId, table]);
  const set = useCallback(
    (c: ColumnChoice) => {
      setChoice(c);
      saveChoice(userId, table, c);
    },
    [userId, table],
  );
  return [choice, set];
}

/**
 * The width an element's content box has, followed as it changes (a window resized, the side menu collapsed);
 * Infinity until measured and where the browser cannot measure (tests without layout).
 */
export function useAvailableWidth<T extends HTMLElement>(): [React.RefObject<T | null>, number] {
  const ref = useRef<T>(null);
  const [width, setWidth] = useState(Infinity);
  useEffect(() => {
    const el = ref.current;
    if (!el || typeof ResizeObserver === 'undefined') return undefined;
    const measure = () => {
      const w = el.clientWidth;
      if (w > 0) setWidth(w);
    };
    measure();
    const ro = new ResizeObserver(measure);
    ro.observe(el);
    return () => ro.disconnect();
  }, []);
  return [ref, width];
}
