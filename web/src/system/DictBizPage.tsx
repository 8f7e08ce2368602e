import { DictScreen } from './DictPage';

export default function DictBizPage() {
  return <DictScreen code="dictbiz" layout="dialog" />;
}
