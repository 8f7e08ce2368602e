// The bpmn-js viewer with its styles, in a chunk of its own: only pages that show a diagram load it.
import NavigatedViewer from 'bpmn-js/lib/NavigatedViewer';
import 'bpmn-js/dist/assets/diagram-js.css';
import 'bpmn-js/dist/assets/bpmn-js.css';

export default NavigatedViewer;
