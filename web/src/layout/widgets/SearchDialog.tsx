import { useMemo, useState } from 'react';
import { AutoComplete, Input } from 'antd';
import { SearchOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import DragDialog from '../../components/DragDialog';
import MenuIcon from '../../components/MenuIcon';
import { useUserStore } from '../../store/user';
import { searchMenus } from '../../store/menu';
import { useOpenMenu } from '../useOpenMenu';

/** Menu search dialog: leaf entries by name prefix, case-insensitive; Esc closes. */
export default function SearchDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const menuAll = useUserStore((s) => s.menuAll);
  const openMenu = useOpenMenu();
  const [text, setText] = useState('');
  const found = useMemo(() => searchMenus(menuAll, text), [menuAll, text]);

  const close = () => {
    onClose();
    setText('');
  };

  return (
    <>
      <DragDialog title={t('search.title')} open={open} width={520} footer={null} onCancel={close} keyboard destroyOnHidden>
        <AutoComplete
          style={{ width: '100%' }}
          value={text}
          autoFocus
          defaultActiveFirstOption
          open={open && text.length > 0}
          notFoundContent={t('search.empty')}
          onChange={setText}
          onKeyDown={(e) => {
            if (e.key === 'Escape') close();
          }}
          options={found.map((m) => ({
            value: m.id,
            label: (
              <span>
                <MenuIcon name={m.source} /> {m.name} <span style={{ color: '#999' }}>{m.path}</span>
              </span>
            ),
          }))}
          onSelect={(id: string) => {
            const m = found.find((x) => x.id === id);
            close();
            if (m) openMenu(m);
          }}
        >
          <Input prefix={<SearchOutlined />} placeholder={t('search.placeholder')} allowClear />
        </AutoComplete>
      </DragDialog>
    </>
  );
}
