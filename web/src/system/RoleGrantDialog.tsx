import { useEffect, useState } from 'react';
import { Spin, Tabs } from 'antd';
import { useTranslation } from 'react-i18next';
import DragDialog from '../components/DragDialog';
import { toast } from '../util/notify';
import { getData } from './common';
import request from '../api/request';
import GrantTree from './GrantTree';
import { keysToSave, leafKeys, type TreeItem } from './tree';

export interface GrantTrees {
  menu: TreeItem[];
  dataScope: TreeItem[];
  apiScope: TreeItem[];
}
export type GrantKeys = { menu: string[]; dataScope: string[]; apiScope: string[] };

/** The checked keys the dialog opens with: the leaves among the keys the roles hold. */
export function initialGrantKeys(trees: GrantTrees, held: Partial<GrantKeys>): GrantKeys {
  return {
    menu: leafKeys(trees.menu, held.menu ?? []),
    dataScope: leafKeys(trees.dataScope, held.dataScope ?? []),
    apiScope: leafKeys(trees.apiScope, held.apiScope ?? []),
  };
}

/** The body of POST role/grant. */
export function grantBody(roleIds: string[], trees: GrantTrees, checked: GrantKeys) {
  return {
    roleIds,
    menuIds: keysToSave(trees.menu, checked.menu),
    dataScopeIds: keysToSave(trees.dataScope, checked.dataScope),
    apiScopeIds: keysToSave(trees.apiScope, checked.apiScope),
  };
}

/** Role grant: menus, data scope and API scope in three tabs (spec §6). */
export default function RoleGrantDialog({ roleIds, open, onClose }: { roleIds: string[]; open: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const [trees, setTrees] = useState<GrantTrees>({ menu: [], dataScope: [], apiScope: [] });
  const [checked, setChecked] = useState<GrantKeys>({ menu: [], dataScope: [], apiScope: [] });
  const [loading, setLoading] = useState(false);
  const [saving, setSaving] = useState(false);

  useEffect(() => {
    if (!open || roleIds.length === 0) return;
    let alive = true;
    setLoading(true);
    Promise.all([
      getData<GrantTrees>('/blade-system/menu/grant-tree'),
      getData<Partial<GrantKeys>>('/blade-system/menu/role-tree-keys', { roleIds: roleIds.join(',') }),
    ])
      .then(([tr, keys]) => {
        if (!alive) return;
        const full = { menu: tr.menu ?? [], dataScope: tr.dataScope ?? [], apiScope: tr.apiScope ?? [] };
        setTrees(full);
        setChecked(initialGrantKeys(full, keys ?? {}));
      })
      .catch(() => undefined)
      .finally(() => alive && setLoading(false));
    return () => {
      alive = false;
    };
  }, [open, roleIds]);

  const save = async () => {
    setSaving(true);
    try {
      await request.post('/blade-system/role/grant', grantBody(roleIds, trees, checked));
      toast.success(t('sys.grantDone'));
      onClose();
    } catch {
      /* the request wrapper showed the message */
    } finally {
      setSaving(false);
    }
  };

  const tab = (key: keyof GrantKeys, label: string) => ({
    key,
    label,
    children: <GrantTree tree={trees[key]} checked={checked[key]} onChange={(keys) => setChecked((c) => ({ ...c, [key]: keys }))} />,
  });

  return (
    <DragDialog
      title={t('sys.roleGrant')}
      open={open}
      width={560}
      onCancel={onClose}
      onOk={() => void save()}
      okText={t('crud.submit')}
      cancelText={t('crud.cancel')}
      okButtonProps={{ loading: saving, disabled: loading }}
      destroyOnHidden
    >
      <Spin spinning={loading}>
        <Tabs items={[tab('menu', t('sys.menuGrant')), tab('dataScope', t('sys.dataScopeGrant')), tab('apiScope', t('sys.apiScopeGrant'))]} />
      </Spin>
    </DragDialog>
  );
}
