import { ScopeScreen } from './ScopePage';

export default function DataScopePage() {
  return <ScopeScreen code="data_scope" kind="data" />;
}
