import type { ActivityState, DiagramData } from './api';

/** The CSS marker (flow.css) of each activity state: done green, active blue, rejected red. */
export const STATE_MARKER: Record<ActivityState, string> = {
  done: 'bb-flow-done',
  active: 'bb-flow-active',
  rejected: 'bb-flow-rejected',
};

/** The marker of a sequence flow the instance took. */
export const FLOW_MARKER = 'bb-flow-taken';

export interface Marker {
  id: string;
  marker: string;
}

/**
 * The canvas markers that highlight an instance's diagram: one per activity by its state, one per taken
 * flow. An element both done and active (a loop back, a countersign with open instances) shows active,
 * and rejected wins over both; ids the diagram does not have are dropped (exists tells which it has).
 */
export function diagramMarkers(d: Pick<DiagramData, 'activities' | 'flows'>, exists: (id: string) => boolean = () => true): Marker[] {
  const rank: Record<ActivityState, number> = { done: 0, active: 1, rejected: 2 };
  const best = new Map<string, ActivityState>();
  for (const a of d.activities ?? []) {
    if (!a?.activityId || !(a.state in rank)) continue;
    const prev = best.get(a.activityId);
    if (prev === undefined || rank[a.state] > rank[prev]) best.set(a.activityId, a.state);
  }
  const out: Marker[] = [];
  best.forEach((state, id) => {
    if (exists(id)) out.push({ id, marker: STATE_MARKER[state] });
  });
  for (const id of new Set(d.flows ?? [])) {
    if (id && exists(id)) out.push({ id, marker: FLOW_MARKER });
  }
  return out;
}
