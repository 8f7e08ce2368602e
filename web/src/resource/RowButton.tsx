import type { ReactNode } from 'react';

/**
 * A text button of a table row. Plain elements rather than antd Buttons with icons: a 200-row page has
 * 600+ of them, and each antd Button and icon costs a few milliseconds to mount.
 */
export default function RowButton({ children, onClick, danger, disabled }: { children: ReactNode; onClick: () => void; danger?: boolean; disabled?: boolean }) {
  return (
    <button type="button" className={`bb-row-btn${danger ? ' bb-row-btn-danger' : ''}`} onClick={onClick} disabled={disabled}>
      {children}
    </button>
  );
}
