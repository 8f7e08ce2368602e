import { useState } from 'react';
import { Button } from 'antd';
import { SafetyOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import ResourceCrud, { RowButton } from '../resource/ResourceCrud';
import { toast } from '../util/notify';
import { WithMeta } from './common';
import RoleGrantDialog from './RoleGrantDialog';

/** Roles: tree table with add-child and the grant dialog (menus, data scope, API scope). */
export default function RolePage() {
  const { t } = useTranslation();
  const [grant, setGrant] = useState<string[] | null>(null);
  return (
    <WithMeta code="role">
      {(meta) => (
        <>
          <ResourceCrud
            meta={meta}
            listFields={['roleName', 'roleAlias', 'sort']}
            extraColumns={[{ title: t('sys.tenantName'), dataIndex: 'tenantName', key: 'tenantName' }]}
           
            addDefaults={() => ({ sort: 1 })}
            toolbar={(ctx) =>
              ctx.can('role_grant') && (
                <Button
                  icon={<SafetyOutlined />}
                  onClick={() => {
                    if (ctx.selected.length === 0) toast.warning(t('crud.selectOne'));
                    else setGrant(ctx.selected.map((r) => String(r.id)));
                  }}
                >
                  {t('sys.roleGrant')}
                </Button>
              )
            }
            rowActions={(row, ctx) => (
              <>
                {ctx.can('role_add') && (
                  <RowButton onClick={() => ctx.openAdd({ parentId: String(row.id), sort: 1 })}>
                    {t('sys.addChild')}
                  </RowButton>
                )}
                {ctx.can('role_grant') && (
                  <RowButton onClick={() => setGrant([String(row.id)])}>
                    {t('sys.grant')}
                  </RowButton>
                )}
              </>
            )}
          />
          <RoleGrantDialog roleIds={grant ?? []} open={grant !== null} onClose={() => setGrant(null)} />
        </>
      )}
    </WithMeta>
  );
}
