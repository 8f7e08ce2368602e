import { useEffect, useRef, useState } from 'react';
import { Alert, Empty, Space, Spin, Tag } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { loadChunk } from '../util/lazy';
import { definitionXml, processDiagram, type DiagramData, type InstanceRef } from './api';
import { diagramMarkers } from './highlight';
import './flow.css';

/** The viewer's chunk (bpmn-js and its styles), loaded on the first diagram shown. */
export const loadViewer = () => loadChunk(() => import('./bpmnViewer')).then((m) => m.default);

interface CanvasApi {
  zoom(level: string | number): void;
  addMarker(id: string, marker: string): void;
}
interface RegistryApi {
  get(id: string): unknown;
}

/**
 * A BPMN diagram drawn read-only by the bpmn-js NavigatedViewer (pan and zoom), its activities and flows
 * highlighted by state when `state` is given. The bpmn.io watermark stays as the library draws it.
 */
export function FlowDiagram({ xml, state, height = 420 }: { xml: string; state?: Pick<DiagramData, 'activities' | 'flows'>; height?: number }) {
  const { t } = useTranslation();
  const host = useRef<HTMLDivElement>(null);
  const [error, setError] = useState<string>();
  const [loading, setLoading] = useState(true);
  useEffect(() => {
    let viewer: { destroy(): void; importXML(x: string): Promise<unknown>; get(n: string): unknown } | undefined;
    let dead = false;
    setLoading(true);
    setError(undefined);
    void loadViewer()
      .then(async (Viewer) => {
        if (dead || !host.current) return;
        viewer = new Viewer({ container: host.current }) as unknown as typeof viewer;
        await viewer!.importXML(xml);
        if (dead) return;
        const canvas = viewer!.get('canvas') as CanvasApi;
        const registry = viewer!.get('elementRegistry') as RegistryApi;
        canvas.zoom('fit-viewport');
        if (state) diagramMarkers(state, (id) => Boolean(registry.get(id))).forEach((m) => canvas.addMarker(m.id, m.marker));
      })
      .catch((e: unknown) => !dead && setError(e instanceof Error ? e.message : String(e)))
      .finally(() => !dead && setLoading(false));
    return () => {
      dead = true;
      viewer?.destroy();
    };
  }, [xml, state]);
  return (
    <div className="bb-flow-diagram-wrap">
      {error && <Alert type="error" showIcon message={t('flow.diagramError')} description={error} />}
      <Spin spinning={loading}>
        <div ref={host} className="bb-flow-diagram" style={{ height }} data-testid="flow-diagram" />
      </Spin>
      {state && (
        <Space size={4} className="bb-flow-legend">
          <Tag color="green">{t('flow.legendDone')}</Tag>
          <Tag color="blue">{t('flow.legendActive')}</Tag>
          <Tag color="red">{t('flow.legendRejected')}</Tag>
        </Space>
      )}
    </div>
  );
}

const RESULT_COLOR: Record<string, string> = { running: 'blue', approved: 'green', rejected: 'red', deleted: 'default' };

/** An instance's highlighted diagram: by instance id, or the latest instance of a business key. */
export function InstanceDiagram({ instance, height }: { instance: InstanceRef; height?: number }) {
  const { t } = useTranslation();
  const { data, isLoading } = useQuery({ queryKey: ['flow', 'diagram', instance], queryFn: () => processDiagram(instance) });
  if (isLoading) return <Spin />;
  if (!data?.xml) return <Empty description={t('flow.noDiagram')} />;
  return (
    <>
      {data.result && (
        <Tag color={RESULT_COLOR[data.result]} style={{ marginBottom: 8 }}>
          {t(`flow.result.${data.result}`)}
        </Tag>
      )}
      <FlowDiagram xml={data.xml} state={data} height={height} />
    </>
  );
}

/** A deployed definition's diagram (manager/definition-xml). */
export function DefinitionDiagram({ processId, height }: { processId: string; height?: number }) {
  const { t } = useTranslation();
  const { data, isLoading } = useQuery({ queryKey: ['flow', 'definition-xml', processId], queryFn: () => definitionXml(processId) });
  if (isLoading) return <Spin />;
  if (!data?.xml) return <Empty description={t('flow.noDiagram')} />;
  return <FlowDiagram xml={data.xml} height={height} />;
}
