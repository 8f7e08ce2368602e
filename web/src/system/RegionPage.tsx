import { useEffect, useState } from 'react';
import { App as AntApp, Button, Card, Descriptions, Empty, Form, Input, InputNumber, Space, Tree } from 'antd';
import { DeleteOutlined, EditOutlined, PlusOutlined, ReloadOutlined } from '@ant-design/icons';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import DragDialog from '../components/DragDialog';
import { useUserStore } from '../store/user';
import { toast } from '../util/notify';
import { REGION_ROOT, regionBody, regionDetail, regionLevel, removeRegion, submitRegion, type Region } from './regionApi';
import { setChildren, type TreeItem } from './tree';

type FormValues = { code: string; parentCode?: string; name: string; sort?: number; remark?: string };

/** Regions: the lazy tree of administrative divisions, the chosen region's detail, add child, edit, remove. */
export default function RegionPage() {
  const { t, i18n } = useTranslation();
  const queryClient = useQueryClient();
  // antd's hook-based modal renders inside App's context (theme, locale) and unmounts with the tree.
  const { modal } = AntApp.useApp();
  const permission = useUserStore((s) => s.permission);
  const can = (op: string) => permission[`region_${op}`] === true;
  const [tree, setTree] = useState<TreeItem[] | null>(null);
  const [selected, setSelected] = useState<string>();
  const [expanded, setExpanded] = useState<string[]>([]);
  const [dialog, setDialog] = useState<{ mode: 'add' | 'edit'; parent?: Region } | null>(null);
  const [form] = Form.useForm<FormValues>();

  const roots = useQuery({
    queryKey: ['region', REGION_ROOT, i18n.language],
    queryFn: () => regionLevel(REGION_ROOT),
  });
  useEffect(() => {
    if (roots.data) {
      setTree(roots.data);
      setExpanded([]);
    }
  }, [roots.data]);
  const detail = useQuery({ queryKey: ['region-detail', selected], queryFn: () => regionDetail(selected!), enabled: Boolean(selected) });

  const loadChildren = async (key: string) => {
    const kids = await regionLevel(key);
    setTree((tr) => setChildren(tr ?? [], key, kids));
  };

  const refreshParent = async (parentCode: string) => {
    if (parentCode === REGION_ROOT) await roots.refetch();
    else await loadChildren(parentCode);
  };

  const openAdd = (parent?: Region) => {
    form.resetFields();
    form.setFieldsValue({ parentCode: parent?.code ?? REGION_ROOT, code: parent?.code ?? '', sort: undefined });
    setDialog({ mode: 'add', parent });
  };
  const openEdit = (r: Region) => {
    form.resetFields();
    form.setFieldsValue({ code: r.code, parentCode: r.parentCode, name: r.name, sort: r.sort, remark: r.remark });
    setDialog({ mode: 'edit' });
  };

  const save = async () => {
    const v = await form.validateFields();
    const isNew = dialog?.mode === 'add';
    await submitRegion(regionBody(v, isNew));
    toast.success(isNew ? t('crud.added') : t('crud.updated'));
    setDialog(null);
    await refreshParent(v.parentCode || REGION_ROOT);
    if (isNew && v.parentCode && v.parentCode !== REGION_ROOT) setExpanded((e) => Array.from(new Set([...e, v.parentCode!])));
    if (!isNew) await queryClient.invalidateQueries({ queryKey: ['region-detail', v.code] });
  };

  const remove = (r: Region) =>
    modal.confirm({
      title: t('navbar.tip'),
      content: t('crud.deleteConfirm'),
      okText: t('common.ok'),
      cancelText: t('common.cancel'),
      onOk: async () => {
        await removeRegion(r.code);
        toast.success(t('crud.deleted'));
        setSelected(undefined);
        await refreshParent(r.parentCode || REGION_ROOT);
      },
    });

  const d = detail.data;
  return (
    <div className="bb-split">
      <Card
        size="small"
        className="bb-split-side"
        style={{ flexBasis: 320, maxWidth: 320 }}
        title={t('sys.region')}
        extra={
          <Space size={0}>
            {can('add') && <Button type="link" size="small" icon={<PlusOutlined />} onClick={() => openAdd()} aria-label={t('sys.addProvince')} />}
            <Button type="link" size="small" icon={<ReloadOutlined />} onClick={() => void roots.refetch()} aria-label={t('crud.refresh')} />
          </Space>
        }
        loading={roots.isLoading}
      >
        <Tree<TreeItem>
          blockNode
          treeData={tree ?? []}
          selectedKeys={selected ? [selected] : []}
          expandedKeys={expanded}
          onExpand={(keys) => setExpanded(keys.map(String))}
          loadData={(node) => (node.children ? Promise.resolve() : loadChildren(String(node.key)))}
          onSelect={(keys) => setSelected(keys[0] === undefined ? undefined : String(keys[0]))}
          height={560}
        />
      </Card>
      <Card
        size="small"
        className="bb-split-main"
        title={d ? `${d.name} (${d.code})` : t('sys.regionDetail')}
        loading={detail.isLoading && Boolean(selected)}
        extra={
          d && (
            <Space>
              {can('add') && d.regionLevel < 5 && (
                <Button size="small" type="primary" icon={<PlusOutlined />} onClick={() => openAdd(d)}>
                  {t('sys.addChild')}
                </Button>
              )}
              {can('edit') && (
                <Button size="small" icon={<EditOutlined />} onClick={() => openEdit(d)}>
                  {t('crud.edit')}
                </Button>
              )}
              {can('delete') && (
                <Button size="small" danger icon={<DeleteOutlined />} onClick={() => remove(d)}>
                  {t('crud.delete')}
                </Button>
              )}
            </Space>
          )
        }
      >
        {d ? (
          <Descriptions bordered size="small" column={2}>
            <Descriptions.Item label={t('sys.regionCode')}>{d.code}</Descriptions.Item>
            <Descriptions.Item label={t('sys.regionName')}>{d.name}</Descriptions.Item>
            <Descriptions.Item label={t('sys.parentCode')}>{d.parentCode}</Descriptions.Item>
            <Descriptions.Item label={t('sys.regionLevel')}>{t(`sys.levels.${d.regionLevel}`, { defaultValue: String(d.regionLevel) })}</Descriptions.Item>
            <Descriptions.Item label={t('sys.ancestors')}>{d.ancestors}</Descriptions.Item>
            <Descriptions.Item label={t('sys.sort')}>{d.sort}</Descriptions.Item>
            <Descriptions.Item label={t('sys.remark')} span={2}>
              {d.remark}
            </Descriptions.Item>
          </Descriptions>
        ) : (
          <Empty description={t('sys.chooseRegion')} />
        )}
      </Card>
      <DragDialog
        title={dialog?.mode === 'edit' ? t('crud.editTitle') : t('crud.addTitle')}
        open={dialog !== null}
        width={520}
        onCancel={() => setDialog(null)}
        onOk={() => void save().catch(() => undefined)}
        okText={t('crud.submit')}
        cancelText={t('crud.cancel')}
        destroyOnHidden
      >
        <Form form={form} layout="vertical" name="region" validateTrigger="onBlur">
          <Form.Item name="parentCode" label={t('sys.parentCode')}>
            <Input disabled />
          </Form.Item>
          <Form.Item
            name="code"
            label={t('sys.regionCode')}
            extra={dialog?.mode === 'add' ? t('sys.regionCodeTip') : undefined}
            rules={[
              { required: true, message: t('sys.regionCodeRequired') },
              { pattern: /^\d+$/, message: t('sys.regionCodeDigits') },
            ]}
          >
            <Input disabled={dialog?.mode === 'edit'} maxLength={12} />
          </Form.Item>
          <Form.Item name="name" label={t('sys.regionName')} rules={[{ required: true, whitespace: true, message: t('sys.regionNameRequired') }]}>
            <Input maxLength={64} />
          </Form.Item>
          <Form.Item name="sort" label={t('sys.sort')}>
            <InputNumber precision={0} style={{ width: '100%' }} />
          </Form.Item>
          <Form.Item name="remark" label={t('sys.remark')}>
            <Input.TextArea rows={2} />
          </Form.Item>
        </Form>
      </DragDialog>
    </div>
  );
}
