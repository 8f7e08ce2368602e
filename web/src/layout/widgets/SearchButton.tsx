import { useState } from 'react';
import { Button, Tooltip } from 'antd';
import { SearchOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import Deferred from './Deferred';

const SearchDialog = Deferred.load(() => import('./SearchDialog'));

/** Menu search button; the dialog (autocomplete on leaf menus) loads on first open. */
export default function SearchButton() {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  return (
    <>
      <Tooltip title={t('navbar.search')}>
        <Button type="text" aria-label={t('navbar.search')} icon={<SearchOutlined />} onClick={() => setOpen(true)} style={{ color: 'inherit' }} />
      </Tooltip>
      <Deferred when={open}>
        <SearchDialog open={open} onClose={() => setOpen(false)} />
      </Deferred>
    </>
  );
}
