import { useCallback, useEffect, useRef, useState, type CSSProperties, type ReactNode, type MouseEvent as RMouseEvent } from 'react';
import { Modal, Button, Tooltip, type ModalProps } from 'antd';
import { FullscreenExitOutlined, FullscreenOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import './dialog.css';

export const MIN_WIDTH = 400;
export const MIN_HEIGHT = 300;

export interface DragDialogProps extends Omit<ModalProps, 'width' | 'modalRender'> {
  width?: number;
  height?: number;
  /** Start maximised (full screen). */
  fullscreen?: boolean;
  children?: ReactNode;
}

/** Clamps a size to the dialog minimum (spec §9: 400×300). */
export const clampSize = (w: number, h: number): { width: number; height: number } => ({
  width: Math.max(MIN_WIDTH, Math.round(w)),
  height: Math.max(MIN_HEIGHT, Math.round(h)),
});

/**
 * The dialog body's style. The body scrolls (a resized dialog, a long form), so whatever overflows its padding
 * box becomes scrollable: a form Row's gutter (antd's Row takes -gutter/2 margins on both sides) stuck out 8 px
 * on each side, and a wheel or a focus scrolled the form 8 px left of the title and footer. The body reaches
 * 8 px into the dialog's padding on each side and pads itself back by as much: its content stays in line with
 * the title and footer, and a gutter's margin stays inside what the body shows.
 */
export const GUTTER_ROOM = 8;
/** What a dialog 60 px from the top needs besides its body: padding, title and footer, and a margin under it. */
export const CHROME_HEIGHT = 200;
export const bodyStyle = (max: boolean, height?: number): CSSProperties => ({
  // Until resized, a long form scrolls inside the dialog: its footer (save) stays on the screen. A resized (or
  // maximised) dialog has a height: its body takes what the title and footer leave (dialog.css).
  ...(max || height ? {} : { maxHeight: `calc(100vh - ${CHROME_HEIGHT}px)` }),
  overflow: 'auto',
  paddingInline: GUTTER_ROOM,
  marginInline: -GUTTER_ROOM,
});

const OPEN_TOOLTIP = '.ant-tooltip:not(.ant-tooltip-hidden)';

/** Whether a dialog's box is in the newest open dialog (dialogs open in document order, each in its own wrap). */
export function isTopDialog(box: HTMLElement | null): boolean {
  const wrap = box?.closest('.ant-modal-wrap');
  if (!wrap) return false;
  const open = [...document.querySelectorAll<HTMLElement>('.ant-modal-wrap')].filter((w) => w.style.display !== 'none');
  return open[open.length - 1] === wrap;
}

/**
 * A modal that can be dragged by its header, maximised and resized from its lower-right corner
 * (minimum 400×300). Every dialog of the console uses it.
 */
export default function DragDialog({ width = 720, height, fullscreen = false, title, children, open, styles, ...rest }: DragDialogProps) {
  const { t } = useTranslation();
  const [offset, setOffset] = useState({ x: 0, y: 0 });
  const [size, setSize] = useState<{ width: number; height?: number }>({ width: Math.max(MIN_WIDTH, width), height });
  const [max, setMax] = useState(fullscreen);
  const drag = useRef<{ sx: number; sy: number; ox: number; oy: number } | null>(null);
  const resize = useRef<{ sx: number; sy: number; w: number; h: number } | null>(null);
  const boxRef = useRef<HTMLDivElement>(null);

  useEffect(() => {
    if (open) {
      setOffset({ x: 0, y: 0 });
      setMax(fullscreen);
    }
  }, [open, fullscreen]);

  const onMove = useCallback((e: MouseEvent) => {
    if (drag.current) {
      const d = drag.current;
      setOffset({ x: d.ox + e.clientX - d.sx, y: d.oy + e.clientY - d.sy });
    } else if (resize.current) {
      const r = resize.current;
      setSize(clampSize(r.w + e.clientX - r.sx, r.h + e.clientY - r.sy));
    }
  }, []);

  const onUp = useCallback(() => {
    drag.current = null;
    resize.current = null;
    window.removeEventListener('mousemove', onMove);
    window.removeEventListener('mouseup', onUp);
  }, [onMove]);

  const listen = () => {
    window.addEventListener('mousemove', onMove);
    window.addEventListener('mouseup', onUp);
  };

  const startDrag = (e: RMouseEvent) => {
    if (max || (e.target as HTMLElement).closest('button')) return;
    drag.current = { sx: e.clientX, sy: e.clientY, ox: offset.x, oy: offset.y };
    listen();
  };

  const startResize = (e: RMouseEvent) => {
    // no text selection under the pointer, and no drag of the dialog
    e.preventDefault();
    e.stopPropagation();
    const rect = boxRef.current?.getBoundingClientRect();
    resize.current = { sx: e.clientX, sy: e.clientY, w: rect?.width ?? size.width, h: rect?.height ?? size.height ?? MIN_HEIGHT };
    listen();
  };

  useEffect(() => onUp, [onUp]);

  // Esc closes the dialog even when a tooltip opened after it (the top bar button's, still hovered): antd
  // gives Esc to the newest popup only, the tooltip, and the dialog stayed open.
  const { onCancel, keyboard = true } = rest;
  const cancelRef = useRef(onCancel);
  cancelRef.current = onCancel;
  useEffect(() => {
    if (!open || !keyboard) return undefined;
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== 'Escape' || !isTopDialog(boxRef.current) || !document.querySelector(OPEN_TOOLTIP)) return;
      cancelRef.current?.(e as unknown as RMouseEvent<HTMLButtonElement>);
    };
    window.addEventListener('keydown', onKey, true);
    return () => window.removeEventListener('keydown', onKey, true);
  }, [open, keyboard]);

  const header = (
    <div className="bb-dialog-title" onMouseDown={startDrag}>
      <span>{title}</span>
      <Tooltip title={max ? t('dialog.restore') : t('dialog.maximize')}>
        <Button
          type="text"
          size="small"
          className="bb-dialog-max"
          aria-label={max ? t('dialog.restore') : t('dialog.maximize')}
          icon={max ? <FullscreenExitOutlined /> : <FullscreenOutlined />}
          onClick={() => setMax((m) => !m)}
        />
      </Tooltip>
    </div>
  );

  return (
    <Modal
      {...rest}
      open={open}
      title={header}
      width={max ? '100vw' : size.width}
      centered={false}
      className={`bb-dialog${max ? ' bb-dialog-maximized' : size.height ? ' bb-dialog-sized' : ''}`}
      style={max ? { top: 0, maxWidth: '100vw', paddingBottom: 0 } : { top: 60 }}
      styles={{
        ...styles,
        body: bodyStyle(max, size.height),
      }}
      modalRender={(node) => (
        <div
          ref={boxRef}
          className="bb-dialog-box"
          style={max ? undefined : { transform: `translate(${offset.x}px, ${offset.y}px)`, minWidth: MIN_WIDTH, minHeight: MIN_HEIGHT, height: size.height }}
        >
          {node}
          {!max && <div className="bb-dialog-resize" data-testid="dialog-resize" onMouseDown={startResize} />}
        </div>
      )}
    >
      {children}
    </Modal>
  );
}
