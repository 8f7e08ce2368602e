import { useEffect, useState } from 'react';
import { Button, Spin } from 'antd';
import { SettingOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import ResourceCrud, { RowButton } from '../resource/ResourceCrud';
import DragDialog from '../components/DragDialog';
import MenuIcon from '../components/MenuIcon';
import request from '../api/request';
import { toast } from '../util/notify';
import { getData, IconSelect, WithMeta } from './common';
import GrantTree from './GrantTree';
import { keysToSave, leafKeys, type TreeItem } from './tree';

/** Menu grant of top menus: tree from grant-top-tree, keys from top-tree-keys, saved by topmenu/grant. */
export function TopMenuGrantDialog({ ids, onClose }: { ids: string[] | null; onClose: () => void }) {
  const { t } = useTranslation();
  const [tree, setTree] = useState<TreeItem[]>([]);
  const [checked, setChecked] = useState<string[]>([]);
  const [loading, setLoading] = useState(false);
  const [saving, setSaving] = useState(false);

  useEffect(() => {
    if (!ids || ids.length === 0) return;
    let alive = true;
    setLoading(true);
    Promise.all([getData<TreeItem[]>('/blade-system/menu/grant-top-tree'), getData<string[]>('/blade-system/menu/top-tree-keys', { topMenuIds: ids.join(',') })])
      .then(([tr, keys]) => {
        if (!alive) return;
        setTree(tr ?? []);
        setChecked(leafKeys(tr ?? [], (keys ?? []).map(String)));
      })
      .catch(() => undefined)
      .finally(() => alive && setLoading(false));
    return () => {
      alive = false;
    };
  }, [ids]);

  const save = async () => {
    if (!ids) return;
    setSaving(true);
    try {
      await request.post('/blade-system/topmenu/grant', { topMenuIds: ids, menuIds: keysToSave(tree, checked) });
      toast.success(t('sys.grantDone'));
      onClose();
    } catch {
      /* shown by the request wrapper */
    } finally {
      setSaving(false);
    }
  };

  return (
    <DragDialog
      title={t('sys.topMenuGrant')}
      open={ids !== null}
      width={520}
      onCancel={onClose}
      onOk={() => void save()}
      okText={t('crud.submit')}
      cancelText={t('crud.cancel')}
      okButtonProps={{ loading: saving, disabled: loading }}
      destroyOnHidden
    >
      <Spin spinning={loading}>
        <GrantTree tree={tree} checked={checked} onChange={setChecked} />
      </Spin>
    </DragDialog>
  );
}

/** Top menus: CRUD with icons and the menu grant. */
export default function TopMenuPage() {
  const { t } = useTranslation();
  const [grant, setGrant] = useState<string[] | null>(null);
  return (
    <WithMeta code="topmenu">
      {(meta) => (
        <>
          <ResourceCrud
            meta={meta}
           
            addDefaults={() => ({ sort: 1 })}
            cells={{
              source: (v) =>
                v ? (
                  <span title={String(v)} style={{ display: 'block', overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' }}>
                    <MenuIcon name={String(v)} /> <span style={{ color: '#999' }}>{String(v)}</span>
                  </span>
                ) : null,
            }}
            inputs={{ source: ({ disabled }) => <IconSelect disabled={disabled} /> }}
            toolbar={(ctx) =>
              ctx.can('topmenu_grant') && (
                <Button
                  icon={<SettingOutlined />}
                  onClick={() => {
                    if (ctx.selected.length === 0) toast.warning(t('crud.selectOne'));
                    else setGrant(ctx.selected.map((r) => String(r.id)));
                  }}
                >
                  {t('sys.topMenuGrant')}
                </Button>
              )
            }
            rowActions={(row, ctx) =>
              ctx.can('topmenu_grant') && (
                <RowButton onClick={() => setGrant([String(row.id)])}>
                  {t('sys.topMenuGrant')}
                </RowButton>
              )
            }
          />
          <TopMenuGrantDialog ids={grant} onClose={() => setGrant(null)} />
        </>
      )}
    </WithMeta>
  );
}
