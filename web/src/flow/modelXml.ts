/** The diagram a new model starts with: a start event, for the user to draw from. */
export function blankXml(key: string, name: string): string {
  const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');
  return `<?xml version="1.0" encoding="UTF-8"?>
<bpmn:definitions xmlns:bpmn="http://www.omg.org/spec/BPMN/20100524/MODEL" xmlns:bpmndi="http://www.omg.org/spec/BPMN/20100524/DI" xmlns:dc="http://www.omg.org/spec/DD/20100524/DC" xmlns:camunda="http://camunda.org/schema/1.0/bpmn" id="Definitions_${esc(key)}" targetNamespace="http://bpmn.io/schema/bpmn">
  <bpmn:process id="${esc(key)}" name="${esc(name)}" isExecutable="true">
    <bpmn:startEvent id="StartEvent_1" name="开始" />
  </bpmn:process>
  <bpmndi:BPMNDiagram id="BPMNDiagram_1">
    <bpmndi:BPMNPlane id="BPMNPlane_1" bpmnElement="${esc(key)}">
      <bpmndi:BPMNShape id="StartEvent_1_di" bpmnElement="StartEvent_1">
        <dc:Bounds x="180" y="160" width="36" height="36" />
      </bpmndi:BPMNShape>
    </bpmndi:BPMNPlane>
  </bpmndi:BPMNDiagram>
</bpmn:definitions>`;
}

/** Countersign kinds of a multi-instance user task. */
export type MultiKind = 'none' | 'all' | 'any';

/** The completion condition of "any one approves"; "all" has none (every instance completes). */
export const ANY_COMPLETION = '${nrOfCompletedInstances >= 1}';
/** The loop variable each instance's assignee is read from. */
export const MULTI_VAR = 'assignee';

/** The collection of a countersign over users: their ids as a comma list, one instance each (the engine reads literals so). */
export const collectionOf = (ids: string[]): string => ids.join(',');

/** The user ids of a countersign's collection; an expression (${...}) names none. */
export function idsOfCollection(c: string | undefined): string[] {
  const v = c?.trim() ?? '';
  return /^[$#]\{.*\}$/s.test(v) ? [] : splitList(v);
}

/** A condition as written in the panel (expr-lang, without ${ }) and as stored (${...}). */
export const wrapExpr = (s: string): string => (s.trim() === '' ? '' : /^[$#]\{.*\}$/s.test(s.trim()) ? s.trim() : `\${${s.trim()}}`);
export const unwrapExpr = (s: string | undefined): string => {
  const v = (s ?? '').trim();
  return /^[$#]\{.*\}$/s.test(v) ? v.slice(2, -1).trim() : v;
};

/** Splits a comma list attribute (candidateUsers, candidateGroups). */
export const splitList = (s: string | undefined): string[] =>
  (s ?? '')
    .split(',')
    .map((x) => x.trim())
    .filter(Boolean);
