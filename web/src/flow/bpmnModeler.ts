// The bpmn-js Modeler with the camunda moddle (assignee, candidates, multi-instance collection) and its
// styles and palette font, in a chunk of its own: only the designer loads it.
import Modeler from 'bpmn-js/lib/Modeler';
import camunda from 'camunda-bpmn-moddle/resources/camunda.json';
import 'bpmn-js/dist/assets/diagram-js.css';
import 'bpmn-js/dist/assets/bpmn-js.css';
import 'bpmn-js/dist/assets/bpmn-font/css/bpmn-embedded.css';

export function createModeler(container: HTMLElement): Modeler {
  return new Modeler({ container, moddleExtensions: { camunda } });
}
