import { useState } from 'react';
import { DatePicker, Form, Input, InputNumber } from 'antd';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { Dayjs } from 'dayjs';
import DragDialog from '../components/DragDialog';
import { perform } from './perform';
import { startLeave } from './api';
import { UserSelect } from './UserSelect';
import { announceTasksChanged } from './events';

interface LeaveValues {
  range: [Dayjs, Dayjs];
  days: number;
  reason: string;
  taskUser: string;
}

const FMT = 'YYYY-MM-DD HH:mm:ss';

/** Whole days a leave covers, counting both ends (1 for a leave within a day). */
export const leaveDays = (from: Dayjs, to: Dayjs): number => Math.max(1, to.startOf('day').diff(from.startOf('day'), 'day') + 1);

/** The leave form that starts the leave process (blade-desk/process/leave/start-process). */
export function LeaveForm({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const client = useQueryClient();
  const [form] = Form.useForm<LeaveValues>();
  const [saving, setSaving] = useState(false);
  const submit = async () => {
    const v = await form.validateFields();
    setSaving(true);
    await perform(
      () => startLeave({ startTime: v.range[0].format(FMT), endTime: v.range[1].format(FMT), days: String(v.days), reason: v.reason, taskUser: v.taskUser }),
      () => {
        announceTasksChanged();
        onClose();
        return client.invalidateQueries({ queryKey: ['flow', 'list'] });
      },
    );
    setSaving(false);
  };
  return (
    <DragDialog title={t('flow.leave.title')} open={open} onCancel={onClose} onOk={() => void submit().catch(() => undefined)} okText={t('flow.startProcess')} confirmLoading={saving} width={640} destroyOnHidden>
      <Form
        form={form}
        layout="vertical"
        name="leave"
        onValuesChange={(changed: Partial<LeaveValues>) => {
          if (changed.range?.[0] && changed.range[1]) form.setFieldValue('days', leaveDays(changed.range[0], changed.range[1]));
        }}
      >
        <Form.Item name="range" label={t('flow.leave.period')} rules={[{ required: true, message: t('flow.leave.periodRequired') }]}>
          <DatePicker.RangePicker showTime={{ format: 'HH:mm' }} format="YYYY-MM-DD HH:mm" style={{ width: '100%' }} />
        </Form.Item>
        <Form.Item name="days" label={t('flow.leave.days')} rules={[{ required: true, message: t('flow.leave.daysRequired') }]}>
          <InputNumber min={0.5} max={365} step={0.5} style={{ width: 160 }} />
        </Form.Item>
        <Form.Item name="taskUser" label={t('flow.leave.taskUser')} rules={[{ required: true, message: t('flow.leave.taskUserRequired') }]}>
          <UserSelect />
        </Form.Item>
        <Form.Item name="reason" label={t('flow.leave.reason')} rules={[{ required: true, message: t('flow.leave.reasonRequired') }]}>
          <Input.TextArea rows={3} maxLength={500} showCount />
        </Form.Item>
      </Form>
    </DragDialog>
  );
}
