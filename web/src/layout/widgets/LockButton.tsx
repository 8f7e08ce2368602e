import { useState } from 'react';
import { Button, Form, Input, Tooltip } from 'antd';
import { LockOutlined } from '@ant-design/icons';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import DragDialog from '../../components/DragDialog';
import { useCommonStore } from '../../store/common';
import { lockScreen } from './lock';

/** Lock button and its set-password dialog (锁屏密码不能为空). */
export default function LockButton() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const setLockPasswd = useCommonStore((s) => s.setLockPasswd);
  const [open, setOpen] = useState(false);
  const [form] = Form.useForm<{ passwd: string }>();
  const go = (to: string) => void navigate(to);

  const onLock = () => {
    if (lockScreen(go) === 'dialog') setOpen(true);
  };

  const submit = async () => {
    const { passwd } = await form.validateFields();
    setLockPasswd(passwd);
    setOpen(false);
    form.resetFields();
    lockScreen(go);
  };

  return (
    <>
      <Tooltip title={t('navbar.lock')}>
        <Button type="text" aria-label={t('navbar.lock')} icon={<LockOutlined />} onClick={onLock} style={{ color: 'inherit' }} />
      </Tooltip>
      <DragDialog
        title={t('lock.setTitle')}
        open={open}
        width={420}
        onCancel={() => setOpen(false)}
        onOk={() => void submit().catch(() => undefined)}
        okText={t('common.ok')}
        cancelText={t('common.cancel')}
        destroyOnHidden
      >
        <Form form={form} layout="vertical" onFinish={() => void submit()}>
          <Form.Item name="passwd" label={t('lock.password')} rules={[{ required: true, message: t('lock.required') }]}>
            <Input.Password placeholder={t('lock.placeholder')} autoFocus />
          </Form.Item>
        </Form>
      </DragDialog>
    </>
  );
}
