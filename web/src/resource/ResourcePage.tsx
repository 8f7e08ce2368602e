import { Empty } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { MenuNode } from '../api/user';
import PageSpin from '../components/PageSpin';
import { getResources } from './api';
import ResourceCrud from './ResourceCrud';

/** All resource metadata, fetched once and shared by every generic page. */
export function useResources() {
  return useQuery({ queryKey: ['meta', 'resources'], queryFn: getResources, staleTime: 10 * 60_000 });
}

function Generic({ code }: { code?: string }) {
  const { t } = useTranslation();
  const { data, isLoading } = useResources();
  if (isLoading) return <PageSpin />;
  const meta = data?.find((r) => r.menuCode === code);
  if (!meta) return <Empty description={t('crud.notFound')} style={{ marginTop: 80 }} />;
  return <ResourceCrud meta={meta} treeTable />;
}

/** The generic page of a given resource menu code. */
export function MetaPage({ code }: { code: string; menu?: MenuNode }) {
  return <Generic code={code} />;
}

/** The generic page of a menu entry: the resource whose menuCode is the menu's code. */
export default function ResourcePage({ menu }: { menu?: MenuNode; routePath: string; query: Record<string, string> }) {
  return <Generic code={menu?.code} />;
}
