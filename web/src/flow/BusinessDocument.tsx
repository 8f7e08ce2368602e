import { Descriptions, Empty, Spin } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import request from '../api/request';
import type { R } from '../api/types';
import { getDetail } from '../resource/api';
import { PrintPage } from '../resource/PrintView';
import { useResources } from '../resource/ResourcePage';
import type { ResourceMeta, Row } from '../resource/types';

export interface DocumentRef {
  businessTable?: string;
  businessId?: string;
  resource?: { service: string; name: string; menuPath?: string };
}

/** The resource a task's document is a row of: named by the task detail, else by its table. */
export function findDocumentMeta(all: ResourceMeta[] | undefined, ref: DocumentRef): ResourceMeta | undefined {
  if (!all) return undefined;
  if (ref.resource) return all.find((m) => m.service === ref.resource!.service && m.name === ref.resource!.name);
  if (ref.businessTable) return all.find((m) => (m as ResourceMeta & { table?: string }).table === ref.businessTable);
  return undefined;
}

function ResourceDocument({ meta, id }: { meta: ResourceMeta; id: string }) {
  const { data, isLoading } = useQuery({ queryKey: ['flow', 'document', meta.path, id], queryFn: () => getDetail(meta, id) });
  if (isLoading) return <Spin />;
  if (!data) return <Empty />;
  return (
    <div className="bb-flow-doc">
      <PrintPage meta={meta} row={data} />
    </div>
  );
}

const LEAVE_FIELDS = ['startTime', 'endTime', 'days', 'reason', 'taskUserName', 'applyTime'] as const;

/** The leave form of the reference process (blade-desk/process/leave/detail?businessId=). */
function LeaveDocument({ id }: { id: string }) {
  const { t } = useTranslation();
  const { data, isLoading } = useQuery({
    queryKey: ['flow', 'leave', id],
    queryFn: async () => (await request.get<R<Row>>('/api/blade-desk/process/leave/detail', { params: { businessId: id } })).data.data,
  });
  if (isLoading) return <Spin />;
  if (!data) return <Empty />;
  return (
    <Descriptions
      bordered
      size="small"
      column={2}
      title={t('flow.leave.title')}
      items={LEAVE_FIELDS.filter((k) => data[k] !== undefined && data[k] !== null).map((k) => ({ key: k, label: t(`flow.leave.${k}`), children: String(data[k]) }))}
    />
  );
}

/** A task's business document, read-only: a resource row drawn from its metadata, or the leave form. */
export function BusinessDocument({ doc }: { doc: DocumentRef }) {
  const { t } = useTranslation();
  const { data: all, isLoading } = useResources();
  if (!doc.businessId) return <Empty description={t('flow.noDocument')} />;
  if (isLoading) return <Spin />;
  const meta = findDocumentMeta(all, doc);
  if (meta) return <ResourceDocument meta={meta} id={doc.businessId} />;
  if (doc.businessTable && /leave/i.test(doc.businessTable)) return <LeaveDocument id={doc.businessId} />;
  return <Empty description={t('flow.noDocument')} />;
}
