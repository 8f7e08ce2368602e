import { useTranslation } from 'react-i18next';
import ResourceCrud, { RowButton } from '../resource/ResourceCrud';
import { WithMeta } from './common';

/** Departments: a tree table (dept/list answers the tree) with add-child. */
export default function DeptPage() {
  const { t } = useTranslation();
  return (
    <WithMeta code="dept">
      {(meta) => (
        <ResourceCrud
          meta={meta}
          listFields={['deptName', 'fullName', 'deptCategory', 'sort']}
          extraColumns={[{ title: t('sys.tenantName'), dataIndex: 'tenantName', key: 'tenantName' }]}
         
          addDefaults={() => ({ sort: 1 })}
          rowActions={(row, ctx) =>
            ctx.can('dept_add') && (
              <RowButton onClick={() => ctx.openAdd({ parentId: String(row.id), sort: 1, deptCategory: row.deptCategory })}>
                {t('sys.addChild')}
              </RowButton>
            )
          }
        />
      )}
    </WithMeta>
  );
}
