import { useState } from 'react';
import { Button, Form, Input } from 'antd';
import { useTranslation } from 'react-i18next';
import { website } from '../../config';
import { registerGuest, type RegisterGuestForm } from '../../api/user';
import { RequestError } from '../../api/request';
import { toast } from '../../util/notify';

interface Values extends RegisterGuestForm {
  password2: string;
}

/** Registration form (spec §3/§5); used by /register and by the third-party registration dialog. */
export default function RegisterForm({ oauthId, onSubmitted }: { oauthId?: string; onSubmitted: () => void }) {
  const { t } = useTranslation();
  const [form] = Form.useForm<Values>();
  const [loading, setLoading] = useState(false);

  const submit = async (v: Values) => {
    setLoading(true);
    try {
      await registerGuest({ tenantId: v.tenantId, name: v.name, account: v.account, password: v.password }, oauthId);
      toast.success(t('register.submitted'));
      onSubmitted();
    } catch (e) {
      // The wrapper already showed the server's msg; only a failure without one falls back here.
      if (!(e instanceof RequestError) || e.code === undefined) toast.error(t('register.failed'));
    } finally {
      setLoading(false);
    }
  };

  return (
    <Form<Values> form={form} layout="vertical" initialValues={{ tenantId: website.tenantId }} onFinish={submit} validateTrigger="onBlur">
      <Form.Item name="tenantId" label={t('register.tenantId')} rules={[{ required: true, message: t('register.tenantRequired') }]}>
        <Input />
      </Form.Item>
      <Form.Item name="name" label={t('register.name')}>
        <Input />
      </Form.Item>
      <Form.Item name="account" label={t('register.account')} rules={[{ required: true, message: t('register.accountRequired') }]}>
        <Input autoComplete="username" />
      </Form.Item>
      <Form.Item name="password" label={t('register.password')} rules={[{ required: true, message: t('register.passwordRequired') }]}>
        <Input.Password autoComplete="new-password" />
      </Form.Item>
      <Form.Item
        name="password2"
        label={t('register.password2')}
        dependencies={['password']}
        rules={[
          { required: true, message: t('register.passwordRequired') },
          ({ getFieldValue }) => ({
            validator: (_r, value: string) =>
              !value || getFieldValue('password') === value ? Promise.resolve() : Promise.reject(new Error(t('register.mismatch'))),
          }),
        ]}
      >
        <Input.Password autoComplete="new-password" />
      </Form.Item>
      <Button type="primary" htmlType="submit" block loading={loading}>
        {t('register.submit')}
      </Button>
    </Form>
  );
}
