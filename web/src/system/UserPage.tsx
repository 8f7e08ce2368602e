import { useEffect, useMemo, useState } from 'react';
import { App as AntApp, Button, Checkbox, Form, Input, Select, Spin, Switch, Tag, Tree } from 'antd';
import { KeyOutlined, TeamOutlined } from '@ant-design/icons';
import { md5 } from 'js-md5';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import ResourceCrud, { RowButton, type CrudContext } from '../resource/ResourceCrud';
import DragDialog from '../components/DragDialog';
import { useDict } from '../resource/fields';
import type { FieldMeta, Row } from '../resource/types';
import request from '../api/request';
import { toast } from '../util/notify';
import { CommaSelect, CommaTreeSelect, getData, useTree, WithMeta } from './common';
import TreeListLayout from './TreeListLayout';
import { useUserStore } from '../store/user';
import { grantUserRoles, heldRoles, tenantQuery, isEnabled, isPending, resetPasswords, setEnabled, userListParams } from './userApi';

const userTypeField: FieldMeta = { name: 'userType', type: 'dict', dict: 'user_type', label: { zh: '用户平台', en: 'Platform' } };

/** Grant roles to the chosen users. */
function RoleDialog({ userIds, onClose, onDone }: { userIds: string[] | null; onClose: () => void; onDone: () => void }) {
  const { t } = useTranslation();
  const [checked, setChecked] = useState<string[]>([]);
  const [saving, setSaving] = useState(false);
  // The users' current roles come ticked (issue #13, defect 10), among their tenant's roles.
  const held = useQuery({ queryKey: ['user-roles', userIds], queryFn: () => heldRoles(userIds ?? []), enabled: userIds !== null, staleTime: 0, gcTime: 0 });
  const { data: roles, isLoading } = useTree(held.data ? '/blade-system/role/tree' : undefined, tenantQuery(held.data?.tenantId));
  useEffect(() => {
    if (held.data) setChecked(held.data.roles);
  }, [held.data]);
  const save = async () => {
    if (!userIds) return;
    if (checked.length === 0) {
      toast.warning(t('sys.chooseRole'));
      return;
    }
    setSaving(true);
    try {
      await grantUserRoles(userIds, checked);
      toast.success(t('sys.grantDone'));
      onDone();
      onClose();
    } catch {
      /* shown by the request wrapper */
    } finally {
      setSaving(false);
    }
  };
  return (
    <DragDialog
      title={t('sys.userRole')}
      open={userIds !== null}
      width={420}
      onCancel={onClose}
      onOk={() => void save()}
      okText={t('crud.submit')}
      cancelText={t('crud.cancel')}
      okButtonProps={{ loading: saving }}
      afterOpenChange={(o) => o || setChecked([])}
      destroyOnHidden
    >
      <Spin spinning={!roles && (isLoading || held.isLoading)}>
        <Tree checkable checkStrictly defaultExpandAll selectable={false} treeData={roles ?? []} checkedKeys={checked} onCheck={(k) => setChecked((Array.isArray(k) ? k : k.checked).map(String))} />
      </Spin>
    </DragDialog>
  );
}

/** Platform details of one user (user type and extension JSON). */
function PlatformDialog({ user, onClose }: { user: Row | null; onClose: () => void }) {
  const { t } = useTranslation();
  const [form] = Form.useForm<{ userType?: string; userExt?: string }>();
  const [loading, setLoading] = useState(false);
  const types = useDict(userTypeField);
  const load = async (id: string) => {
    setLoading(true);
    try {
      const d = await getData<{ userType?: number; userExt?: string; account?: string; realName?: string }>('/blade-user/platform-detail', { id });
      form.setFieldsValue({ userType: d.userType === undefined ? undefined : String(d.userType), userExt: d.userExt ?? '' });
    } finally {
      setLoading(false);
    }
  };
  const save = async () => {
    if (!user) return;
    const v = await form.validateFields();
    await request.post('/blade-user/update-platform', { userId: String(user.id), userType: Number(v.userType), userExt: v.userExt ?? '' });
    toast.success(t('crud.updated'));
    onClose();
  };
  return (
    <DragDialog
      title={`${t('sys.platform')}${user ? ` - ${String(user.account ?? '')}` : ''}`}
      open={user !== null}
      width={520}
      onCancel={onClose}
      onOk={() => void save().catch(() => undefined)}
      okText={t('crud.submit')}
      cancelText={t('crud.cancel')}
      afterOpenChange={(o) => {
        if (o && user) void load(String(user.id)).catch(() => undefined);
      }}
      destroyOnHidden
    >
      <Spin spinning={loading}>
        <Form form={form} layout="vertical" name="platform">
          <Form.Item name="userType" label={t('sys.userType')} rules={[{ required: true, message: t('crud.selectRequired', { label: t('sys.userType') }) }]}>
            <Select options={types.map((d) => ({ value: String(d.dictKey), label: d.dictValue }))} />
          </Form.Item>
          <Form.Item
            name="userExt"
            label={t('sys.userExt')}
            rules={[
              {
                validator: (_r, v: string) => {
                  if (!v) return Promise.resolve();
                  try {
                    JSON.parse(v);
                    return Promise.resolve();
                  } catch {
                    return Promise.reject(new Error(t('sys.jsonInvalid')));
                  }
                },
              },
            ]}
          >
            <Input.TextArea rows={6} placeholder='{"key": "value"}' />
          </Form.Item>
        </Form>
      </Spin>
    </DragDialog>
  );
}

function UserScreen({ meta }: { meta: Parameters<typeof ResourceCrud>[0]['meta'] }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  // antd's hook-based modal renders inside App's context (theme, locale) and unmounts with the tree.
  const { modal } = AntApp.useApp();
  const [deptId, setDeptId] = useState<string>();
  const [roleUsers, setRoleUsers] = useState<string[] | null>(null);
  const [platformUser, setPlatformUser] = useState<Row | null>(null);
  // Registrations waiting for approval: the 待审核 filter lists only them; 审核通过/审核拒绝 (metadata commands) act on the selection.
  const [pendingOnly, setPendingOnly] = useState(false);
  const { data: depts, isLoading } = useTree('/blade-system/dept/tree');
  const params = useMemo(() => userListParams(deptId, pendingOnly), [deptId, pendingOnly]);
  const reloadUsers = () => void queryClient.invalidateQueries({ queryKey: ['resource', meta.path] });

  const needSelection = (ctx: CrudContext): string[] | null => {
    if (ctx.selected.length === 0) {
      toast.warning(t('crud.selectOne'));
      return null;
    }
    return ctx.selected.map((r) => String(r.id));
  };

  const reset = (ctx: CrudContext) => {
    const ids = needSelection(ctx);
    if (!ids) return;
    modal.confirm({
      title: t('navbar.tip'),
      content: t('sys.resetConfirm'),
      okText: t('common.ok'),
      cancelText: t('common.cancel'),
      onOk: async () => {
        await resetPasswords(ids);
        toast.success(t('sys.resetDone'));
      },
    });
  };

  const toggle = async (row: Row, on: boolean) => {
    try {
      await setEnabled([String(row.id)], on);
      toast.success(on ? t('sys.enabled') : t('sys.disabled'));
    } finally {
      reloadUsers();
    }
  };

  return (
    <>
      <TreeListLayout title={t('sys.dept')} tree={depts} loading={isLoading} selected={deptId} onSelect={setDeptId}>
        <ResourceCrud
          meta={meta}
          params={params}
          listFields={['account', 'realName', 'phone']}
          extraColumns={[
            // what a user is read by after the account and name: enabled or not, roles and department; the
            // phone and tenant come next (the chooser shows them when the width leaves them out)
            { title: t('sys.tenantName'), dataIndex: 'tenantName', key: 'tenantName', width: 110, ellipsis: true },
            { title: t('sys.roleName'), dataIndex: 'roleName', key: 'roleName', width: 130, ellipsis: true, priority: 2 },
            { title: t('sys.deptName'), dataIndex: 'deptName', key: 'deptName', width: 130, ellipsis: true, priority: 3 },
            {
              title: t('sys.enabledStatus'),
              dataIndex: 'status',
              key: 'status',
              priority: 1,
              width: 80,
              align: 'center',
              render: (v: unknown, row: Row) =>
                isPending(v) ? (
                  <Tag color="orange">{t('sys.pending')}</Tag>
                ) : (
                  <Switch
                    size="small"
                    aria-label={t('sys.enabledStatus')}
                    checked={isEnabled(v)}
                    disabled={!permissionOf('user_enabled')}
                    onChange={(on) => void toggle(row, on).catch(() => undefined)}
                  />
                ),
            },
          ]}
          addDefaults={() => ({ deptId: deptId ?? '', userType: 1, sex: 1 })}
          formFields={(fields, mode) => {
            const out = fields.filter((f) => !(mode !== 'add' && f.name === 'password'));
            // A new user's password is required; its confirmation copy (password2) comes from the metadata's confirm.
            return mode === 'add' ? out.map((f) => (f.name === 'password' ? { ...f, required: true, messages: { required: { zh: '请输入密码', en: 'Please enter the password' } } } : f)) : out;
          }}
          inputs={{
            // a user of another tenant (the super user's list) shows and picks that tenant's roles, departments and posts
            roleId: ({ disabled, row }) => <CommaTreeSelect url="/blade-system/role/tree" params={tenantQuery(row?.tenantId)} disabled={disabled} placeholder={t('sys.chooseRole')} />,
            deptId: ({ disabled, row }) => <CommaTreeSelect url="/blade-system/dept/tree" params={tenantQuery(row?.tenantId)} disabled={disabled} placeholder={t('sys.chooseDept')} />,
            postId: ({ disabled, row }) => (
              <CommaSelect url="/blade-system/post/select" params={tenantQuery(row?.tenantId)} labelKey="postName" disabled={disabled} placeholder={t('sys.choosePost')} />
            ),
          }}
          toBody={(v, mode) => {
            const body = { ...v };
            if (mode === 'add') {
              // both copies go hashed: the server compares them (metadata confirm) and keeps the first
              body.password = md5(String(body.password));
              if (body.password2) body.password2 = md5(String(body.password2));
            } else delete body.password2;
            return body;
          }}
          toolbar={(ctx) => (
            <>
              <Checkbox checked={pendingOnly} onChange={(e) => setPendingOnly(e.target.checked)}>
                {t('sys.pendingOnly')}
              </Checkbox>
              {ctx.can('user_role') && (
                <Button icon={<TeamOutlined />} onClick={() => setRoleUsers(needSelection(ctx))}>
                  {t('sys.userRole')}
                </Button>
              )}
              {ctx.can('user_reset') && (
                <Button icon={<KeyOutlined />} onClick={() => reset(ctx)}>
                  {t('sys.resetPassword')}
                </Button>
              )}
            </>
          )}
          rowActions={(row, ctx) =>
            ctx.can('user_platform') && (
              <RowButton onClick={() => setPlatformUser(row)}>
                {t('sys.platform')}
              </RowButton>
            )
          }
        />
      </TreeListLayout>
      {roleUsers && <RoleDialog userIds={roleUsers} onClose={() => setRoleUsers(null)} onDone={reloadUsers} />}
      {platformUser && <PlatformDialog user={platformUser} onClose={() => setPlatformUser(null)} />}
    </>
  );
}

// The Switch column reads the permission map directly (columns are built outside the crud context).
const permissionOf = (code: string): boolean => useUserStore.getState().permission[code] === true;

/** Users: department tree on the left filtering the list; roles, password reset, enable toggle, platform. */
export default function UserPage() {
  return <WithMeta code="user">{(meta) => <UserScreen meta={meta} />}</WithMeta>;
}
