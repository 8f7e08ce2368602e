import { useEffect, useState } from 'react';
import { Button, Card, Form, Input, Spin, Tabs } from 'antd';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import request from '../../api/request';
import type { R } from '../../api/types';
import { useUserStore } from '../../store/user';
import { toast } from '../../util/notify';
import ImageInput from '../../resource/ImageInput';
import { avatarError, infoBody, passwordParams, passwordsMatch, phoneMessage } from './infoRules';

interface Profile {
  avatar?: string;
  name?: string;
  realName?: string;
  account?: string;
  phone?: string;
  email?: string;
}

function ProfileForm() {
  const { t } = useTranslation();
  const [form] = Form.useForm<Profile>();
  const [loading, setLoading] = useState(true);
  const [saving, setSaving] = useState(false);

  useEffect(() => {
    request
      .get<R<Profile>>('/blade-user/info')
      .then(({ data }) => form.setFieldsValue(data.data))
      .catch(() => undefined)
      .finally(() => setLoading(false));
  }, [form]);

  const save = async (v: Profile) => {
    setSaving(true);
    try {
      const body = infoBody(v);
      await request.post('/blade-user/update-info', body);
      toast.success(t('crud.updated'));
      useUserStore.setState((s) => ({ userInfo: { ...s.userInfo, avatar: body.avatar, realName: body.realName, nickName: body.name } }));
    } catch {
      /* shown by the wrapper */
    } finally {
      setSaving(false);
    }
  };

  return (
    <Spin spinning={loading}>
      <Form form={form} name="info" layout="horizontal" labelCol={{ span: 4 }} wrapperCol={{ span: 14 }} validateTrigger="onBlur" onFinish={(v) => void save(v)} style={{ maxWidth: 760 }}>
        <Form.Item name="avatar" label={t('info.avatar')}>
          <ImageInput
            avatar={80}
            accept="image/jpeg,image/png"
            check={(file) => {
              const e = avatarError(file);
              return e ? t(e === 'type' ? 'info.avatarType' : 'info.avatarSize') : '';
            }}
            label={t('info.upload')}
            tip={t('info.avatarTip')}
          />
        </Form.Item>
        <Form.Item name="name" label={t('info.name')} rules={[{ required: true, whitespace: true, message: t('info.nameRequired') }]}>
          <Input maxLength={20} />
        </Form.Item>
        <Form.Item name="realName" label={t('info.realName')} rules={[{ required: true, whitespace: true, message: t('info.realNameRequired') }]}>
          <Input maxLength={20} />
        </Form.Item>
        <Form.Item
          name="phone"
          label={t('info.phone')}
          required
          rules={[{ validator: (_r, v: string) => (phoneMessage(v, t) ? Promise.reject(new Error(phoneMessage(v, t))) : Promise.resolve()) }]}
        >
          <Input maxLength={11} inputMode="numeric" />
        </Form.Item>
        <Form.Item name="email" label={t('info.email')} rules={[{ pattern: /^[^@\s]+@[^@\s]+$/, message: t('info.emailFormat') }]}>
          <Input />
        </Form.Item>
        <Form.Item wrapperCol={{ offset: 4 }}>
          <Button type="primary" htmlType="submit" loading={saving}>
            {t('crud.submit')}
          </Button>
        </Form.Item>
      </Form>
    </Spin>
  );
}

interface Passwords {
  oldPassword: string;
  newPassword: string;
  newPassword1: string;
}

function PasswordForm() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [form] = Form.useForm<Passwords>();
  const [saving, setSaving] = useState(false);
  const save = async (v: Passwords) => {
    setSaving(true);
    try {
      await request.post('/blade-user/update-password', null, { params: passwordParams(v) });
      toast.success(t('info.passwordChanged'));
      // The server revoked this user's tokens: sign in again.
      useUserStore.getState().fedLogout();
      void navigate('/login', { replace: true });
    } catch {
      /* shown by the wrapper (原密码不正确, ...) */
    } finally {
      setSaving(false);
    }
  };
  return (
    <Form form={form} name="password" layout="horizontal" labelCol={{ span: 4 }} wrapperCol={{ span: 14 }} validateTrigger="onBlur" onFinish={(v) => void save(v)} style={{ maxWidth: 760 }}>
      <Form.Item name="oldPassword" label={t('info.oldPassword')} rules={[{ required: true, message: t('info.oldPasswordRequired') }]}>
        <Input.Password autoComplete="current-password" />
      </Form.Item>
      <Form.Item name="newPassword" label={t('info.newPassword')} rules={[{ required: true, message: t('info.newPasswordRequired') }]}>
        <Input.Password autoComplete="new-password" />
      </Form.Item>
      <Form.Item
        name="newPassword1"
        label={t('info.newPassword1')}
        dependencies={['newPassword']}
        rules={[
          { required: true, message: t('info.newPassword1Required') },
          ({ getFieldValue }) => ({
            validator: (_r, v: string) => (!v || passwordsMatch(getFieldValue('newPassword') as string, v) ? Promise.resolve() : Promise.reject(new Error(t('register.mismatch')))),
          }),
        ]}
      >
        <Input.Password autoComplete="new-password" />
      </Form.Item>
      <Form.Item wrapperCol={{ offset: 4 }}>
        <Button type="primary" htmlType="submit" loading={saving}>
          {t('crud.submit')}
        </Button>
      </Form.Item>
    </Form>
  );
}

/** /info/index: personal info and change password (spec §2). */
export default function InfoPage() {
  const { t } = useTranslation();
  return (
    <Card size="small">
      <Tabs
        items={[
          { key: 'info', label: t('info.tabInfo'), children: <ProfileForm /> },
          { key: 'password', label: t('info.tabPassword'), children: <PasswordForm /> },
        ]}
      />
    </Card>
  );
}
