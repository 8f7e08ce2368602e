import { Suspense, useMemo } from 'react';
import { useLocation } from 'react-router';
import type { MenuNode } from '../api/user';
import ErrorBoundary from '../components/ErrorBoundary';
import PageSpin from '../components/PageSpin';
import { useTagsStore } from '../store/tags';
import { GenericResourcePage, resolvePage, type Resolved } from '../router/pages';

export interface PageProps {
  /** The route path of this page instance. */
  routePath: string;
  query: Record<string, string>;
  menu?: MenuNode;
}

const split = (value: string): { path: string; query: Record<string, string> } => {
  const [path, search = ''] = value.split('?');
  return { path, query: Object.fromEntries(new URLSearchParams(search)) };
};

/** Whether a resolved page stays mounted while another tab is active (menu pages do by default). */
export function isKeepAlive(r: Resolved): boolean {
  if (r.kind === 'static') return r.def.keepAlive !== false && r.def.keepAlive !== undefined;
  if (r.kind === 'menu') return r.def?.keepAlive ?? r.menu.meta?.keepAlive ?? true;
  return false;
}

function renderPage(r: Resolved, value: string) {
  const { query } = split(value);
  if (r.kind === 'static') {
    const C = r.def.component;
    return <C routePath={r.path} query={query} />;
  }
  if (r.kind === 'menu') {
    const C = r.def?.component ?? GenericResourcePage;
    return <C routePath={r.path} query={query} menu={r.menu} />;
  }
  return null;
}

/**
 * The content area: the active page plus every kept-alive tab page, mounted and hidden (spec §2).
 * "Clear cache"/refresh bumps a tab's epoch and so remounts it.
 */
export default function PageHost({ menuAll }: { menuAll: MenuNode[] }) {
  const location = useLocation();
  const tagList = useTagsStore((s) => s.tagList);
  const epoch = useTagsStore((s) => s.epoch);
  const active = `${location.pathname}${location.search}`;

  const pages = useMemo(() => {
    const values = new Set<string>();
    tagList.forEach((t) => values.add(t.value));
    values.add(active);
    const out: { value: string; r: Resolved }[] = [];
    values.forEach((value) => {
      const r = resolvePage(split(value).path, menuAll);
      if (r.kind === 'unknown' || r.kind === 'forbidden') return;
      if (value === active || isKeepAlive(r)) out.push({ value, r });
    });
    return out;
  }, [tagList, active, menuAll]);

  return (
    <>
      {pages.map(({ value, r }) => (
        <div
          key={`${value}#${epoch[value] ?? 0}`}
          className="bb-page"
          data-page={value}
          style={{ display: value === active ? 'block' : 'none' }}
        >
          <ErrorBoundary>
            <Suspense fallback={<PageSpin />}>{renderPage(r, value)}</Suspense>
          </ErrorBoundary>
        </div>
      ))}
    </>
  );
}
