import { Spin } from 'antd';
import ResourceCrud from '../resource/ResourceCrud';
import { useTree, WithMeta } from './common';
import GrantTree from './GrantTree';
import { keysToSave, leafKeys, splitIds } from './tree';

/** The menus of a package as a checkable tree over a comma-separated id string. */
export function MenuTreeInput({ value, onChange, disabled }: { value?: string; onChange?: (v: string) => void; disabled?: boolean }) {
  const { data: tree, isLoading } = useTree('/blade-system/menu/tree');
  const all = tree ?? [];
  return (
    <Spin spinning={isLoading}>
      <GrantTree tree={all} height={300} disabled={disabled} checked={leafKeys(all, splitIds(value))} onChange={(keys) => onChange?.(keysToSave(all, keys).join(','))} />
    </Spin>
  );
}

/** Tenant packages: the menus a tenant may use, picked in a tree. */
export default function TenantPackagePage() {
  return (
    <WithMeta code="tenant_package">
      {(meta) => (
        <ResourceCrud
          meta={meta}
          formFields={(fields) => fields.map((f) => (f.name === 'menuId' ? { ...f, span: 24 } : f))}
          inputs={{ menuId: ({ disabled }) => <MenuTreeInput disabled={disabled} /> }}
        />
      )}
    </WithMeta>
  );
}
