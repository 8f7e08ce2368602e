import { Tabs } from 'antd';
import { useTranslation } from 'react-i18next';
import DragDialog from '../components/DragDialog';
import type { InstanceRef } from './api';
import { HistoryTimeline } from './HistoryTimeline';
import { InstanceDiagram } from './FlowDiagram';

/** An instance's history and highlighted diagram, side by side in tabs. */
export function ProcessProgress({ instance }: { instance: InstanceRef }) {
  const { t } = useTranslation();
  return (
    <Tabs
      destroyOnHidden
      items={[
        { key: 'history', label: t('flow.history'), children: <HistoryTimeline instance={instance} /> },
        { key: 'diagram', label: t('flow.diagram'), children: <InstanceDiagram instance={instance} height={460} /> },
      ]}
    />
  );
}

/** The approval progress of an instance in a dialog (follow list, sent list, a document's action). */
export function ProgressDialog({ instance, onClose }: { instance: InstanceRef | null; onClose: () => void }) {
  const { t } = useTranslation();
  return (
    <DragDialog title={t('flow.progress')} open={instance !== null} onCancel={onClose} footer={null} width={1000} destroyOnHidden>
      {instance && <ProcessProgress instance={instance} />}
    </DragDialog>
  );
}
