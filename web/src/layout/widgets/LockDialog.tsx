import { Form, Input } from 'antd';
import { useTranslation } from 'react-i18next';
import DragDialog from '../../components/DragDialog';
import { useCommonStore } from '../../store/common';

/** The set-lock-password dialog (锁屏密码不能为空); locks once the password is set. */
export default function LockDialog({ open, onClose, onLock }: { open: boolean; onClose: () => void; onLock: () => void }) {
  const { t } = useTranslation();
  const setLockPasswd = useCommonStore((s) => s.setLockPasswd);
  const [form] = Form.useForm<{ passwd: string }>();

  const submit = async () => {
    const { passwd } = await form.validateFields();
    setLockPasswd(passwd);
    onClose();
    form.resetFields();
    onLock();
  };

  return (
    <DragDialog
      title={t('lock.setTitle')}
      open={open}
      width={420}
      onCancel={onClose}
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
  );
}
