import { DictScreen } from '../../system/DictPage';

/** /dict-horizontal/index: parent and child dictionaries side by side. */
export function DictHorizontalPage() {
  return <DictScreen code="dict" layout="horizontal" />;
}

/** /dict-vertical/index: parent and child dictionaries stacked. */
export default function DictVerticalPage() {
  return <DictScreen code="dict" layout="vertical" />;
}
