import { describe, expect, it } from 'vitest';
import { diagramMarkers, FLOW_MARKER, STATE_MARKER } from './highlight';
import { collectionOf, idsOfCollection, unwrapExpr, wrapExpr } from './modelXml';

describe('diagramMarkers', () => {
  it('marks done green, active blue, rejected red and the taken flows', () => {
    const m = diagramMarkers({
      activities: [
        { activityId: 'start', state: 'done' },
        { activityId: 'approve', state: 'active' },
        { activityId: 'review', state: 'rejected' },
      ],
      flows: ['f1', 'f2'],
    });
    expect(m).toEqual([
      { id: 'start', marker: 'bb-flow-done' },
      { id: 'approve', marker: 'bb-flow-active' },
      { id: 'review', marker: 'bb-flow-rejected' },
      { id: 'f1', marker: FLOW_MARKER },
      { id: 'f2', marker: FLOW_MARKER },
    ]);
    expect(STATE_MARKER).toEqual({ done: 'bb-flow-done', active: 'bb-flow-active', rejected: 'bb-flow-rejected' });
  });

  it('gives an element one marker: rejected over active over done, whatever the order', () => {
    const m = diagramMarkers({
      activities: [
        { activityId: 'sign', state: 'active' },
        { activityId: 'sign', state: 'done' },
        { activityId: 'loop', state: 'done' },
        { activityId: 'loop', state: 'active' },
        { activityId: 'par', state: 'rejected' },
        { activityId: 'par', state: 'done' },
      ],
      flows: ['f1', 'f1'],
    });
    expect(m).toEqual([
      { id: 'sign', marker: 'bb-flow-active' },
      { id: 'loop', marker: 'bb-flow-active' },
      { id: 'par', marker: 'bb-flow-rejected' },
      { id: 'f1', marker: FLOW_MARKER },
    ]);
  });

  it('drops ids the diagram does not have and unknown states', () => {
    const m = diagramMarkers(
      { activities: [{ activityId: 'a', state: 'done' }, { activityId: 'gone', state: 'done' }, { activityId: 'b', state: 'weird' as never }], flows: ['f', 'gone-flow'] },
      (id) => !id.startsWith('gone'),
    );
    expect(m).toEqual([
      { id: 'a', marker: 'bb-flow-done' },
      { id: 'f', marker: FLOW_MARKER },
    ]);
    expect(diagramMarkers({ activities: undefined as never, flows: undefined as never })).toEqual([]);
  });
});

describe('designer expressions', () => {
  it('writes a countersign collection of user ids and reads it back', () => {
    expect(collectionOf(['1', '22'])).toBe('1,22');
    expect(idsOfCollection(collectionOf(['1', '22']))).toEqual(['1', '22']);
    expect(idsOfCollection(' 1 , 22 ,')).toEqual(['1', '22']);
    expect(idsOfCollection('${approvers}')).toEqual([]);
    expect(idsOfCollection(undefined)).toEqual([]);
  });

  it('wraps a condition in ${ } once', () => {
    expect(wrapExpr('days > 3')).toBe('${days > 3}');
    expect(wrapExpr('${days > 3}')).toBe('${days > 3}');
    expect(wrapExpr('  ')).toBe('');
    expect(unwrapExpr('${days > 3}')).toBe('days > 3');
    expect(unwrapExpr('days')).toBe('days');
  });
});
