import { App as AntApp, Dropdown, Tabs, Button, type MenuProps } from 'antd';
import { DownOutlined } from '@ant-design/icons';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import type { TFunction } from 'i18next';
import type { MenuNode } from '../api/user';
import { useTagsStore } from '../store/tags';
import { useUserStore } from '../store/user';
import { closeTag, type Tag } from '../store/tagRules';
import { findMenuByPath } from '../store/menu';
import { clearCache } from '../api/user';
import { toast } from '../util/notify';
import { queryClient } from '../queryClient';

/** The tab label in the current language: i18n key, else the (localized) menu name, else the stored label. */
export function tagLabel(tag: Tag, menu: MenuNode | undefined, t: TFunction): string {
  if (tag.meta?.i18n) return t(tag.meta.i18n);
  return menu?.name ?? tag.label;
}

/** Tab strip with right-click menu: clear cache, close others, close all (spec §2/§4). */
export default function Tags() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  // antd's hook-based modal renders inside App's context (theme, locale) and unmounts with the tree.
  const { modal } = AntApp.useApp();
  const tagList = useTagsStore((s) => s.tagList);
  const tag = useTagsStore((s) => s.tag);
  const menuAll = useUserStore((s) => s.menuAll);
  const open = (t2: Tag) => void navigate(t2.value);

  const close = (value: string) => {
    const target = tagList.find((x) => x.value === value);
    if (!target) return;
    const { list, open: next } = closeTag(tagList, target, tag);
    useTagsStore.setState({ tagList: list });
    if (next) open(next);
  };

  const closeOthers = () => useTagsStore.getState().closeOthers();
  const closeAll = () => {
    useTagsStore.getState().closeAll();
    open(useTagsStore.getState().tag);
  };
  const clearCacheTags = () =>
    modal.confirm({
      title: t('navbar.tip'),
      content: t('tagsView.clearCacheConfirm'),
      okText: t('common.ok'),
      cancelText: t('common.cancel'),
      onOk: async () => {
        await clearCache();
        queryClient.clear();
        useTagsStore.getState().refresh();
        toast.success(t('tagsView.cleared'));
      },
    });

  const menu: MenuProps = {
    items: [
      { key: 'clearCache', label: t('tagsView.clearCache') },
      { key: 'closeOthers', label: t('tagsView.closeOthers') },
      { key: 'closeAll', label: t('tagsView.closeAll') },
    ],
    onClick: ({ key }) => {
      if (key === 'clearCache') clearCacheTags();
      if (key === 'closeOthers') closeOthers();
      if (key === 'closeAll') closeAll();
    },
  };

  return (
    <div className="bb-tags">
      <Dropdown menu={menu} trigger={['contextMenu']}>
        <div className="bb-tags-strip">
          <Tabs
            type="editable-card"
            hideAdd
            size="small"
            activeKey={tag.value}
            onChange={(key) => {
              const next = tagList.find((x) => x.value === key);
              if (next) open(next);
            }}
            onEdit={(key, action) => {
              if (action === 'remove' && typeof key === 'string') close(key);
            }}
            items={tagList.map((x) => ({
              key: x.value,
              label: tagLabel(x, findMenuByPath(menuAll, x.value.split('?')[0]), t),
              closable: x.close !== false,
            }))}
          />
        </div>
      </Dropdown>
      <Dropdown menu={menu} trigger={['click']}>
        <Button size="small" className="bb-tags-menu">
          {t('tagsView.menu')} <DownOutlined />
        </Button>
      </Dropdown>
    </div>
  );
}
