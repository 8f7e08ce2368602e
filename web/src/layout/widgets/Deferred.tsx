import { Suspense, useState, type ReactNode } from 'react';
import { lazyPage } from '../../util/lazy';

/**
 * Renders its children (a lazily loaded dialog) from the first time `when` is true on, so the shell
 * chunk carries only the buttons and a dialog's code loads when it is first opened.
 */
export default function Deferred({ when, children }: { when: boolean; children: ReactNode }) {
  const [seen, setSeen] = useState(when);
  if (when && !seen) setSeen(true);
  if (!seen && !when) return null;
  return <Suspense fallback={null}>{children}</Suspense>;
}

Deferred.load = lazyPage;
