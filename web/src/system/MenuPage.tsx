import { Space } from 'antd';
import { useTranslation } from 'react-i18next';
import ResourceCrud, { RowButton } from '../resource/ResourceCrud';
import MenuIcon from '../components/MenuIcon';
import { IconSelect, WithMeta } from './common';

/** Menus: tree table with the buttons under each menu, add-child, icons shown and picked. */
export default function MenuPage() {
  const { t } = useTranslation();
  return (
    <WithMeta code="menu">
      {(meta) => (
        <ResourceCrud
          meta={meta}
         
          listFields={['name', 'code', 'path', 'source', 'sort', 'category', 'action', 'isOpen']}
          addDefaults={() => ({ category: 1, action: 0, isOpen: 1, sort: 1 })}
          cells={{
            source: (v) =>
              v ? (
                <Space size={4}>
                  <MenuIcon name={String(v)} />
                  <span style={{ color: '#999' }}>{String(v)}</span>
                </Space>
              ) : null,
          }}
          inputs={{ source: ({ disabled }) => <IconSelect disabled={disabled} /> }}
          rowActions={(row, ctx) =>
            ctx.can('menu_add') &&
            Number(row.category) === 1 && (
              <RowButton
                onClick={() => ctx.openAdd({ parentId: String(row.id), category: 1, action: 0, isOpen: 1, sort: 1, path: row.path ? `${String(row.path)}/` : '' })}
              >
                {t('sys.addChild')}
              </RowButton>
            )
          }
        />
      )}
    </WithMeta>
  );
}
