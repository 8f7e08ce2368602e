import { WithMeta } from './common';
import DictManager, { type DictLayout } from './DictManager';

/** System (dict) or business (dict-biz) dictionaries. */
export function DictScreen({ code, layout }: { code: 'dict' | 'dictbiz'; layout: DictLayout }) {
  return <WithMeta code={code}>{(meta) => <DictManager meta={meta} layout={layout} />}</WithMeta>;
}

export default function DictPage() {
  return <DictScreen code="dict" layout="dialog" />;
}
