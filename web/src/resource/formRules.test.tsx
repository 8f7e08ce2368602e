import { describe, expect, it } from 'vitest';
import { fireEvent, render, screen } from '@testing-library/react';
import { Form, Input } from 'antd';
import i18n from '../i18n';
import { fieldRules, withConfirmFields } from './fields';
import { field } from './testMeta';
import type { FieldMeta } from './types';

const phone = field({
  name: 'phone',
  label: { zh: '手机号码', en: 'Phone' },
  rules: [
    { pattern: '^.{11}$', message: { zh: '手机号码长度不为11位', en: 'Phone must be 11 digits long' } },
    { pattern: '^1[0-9]{10}$', message: { zh: '手机号码格式不正确', en: 'Phone is not a valid mobile number' } },
  ],
});
const password = field({ name: 'password', type: 'password', label: { zh: '密码', en: 'Password' }, confirm: { name: 'password2', label: { zh: '确认密码', en: 'Confirm password' }, message: { zh: '两次密码输入不一致', en: 'The two passwords do not match' } } });

/** The fields as the crud form draws them: each Form.Item checks its metadata rules on blur. */
function RuleForm({ fields }: { fields: FieldMeta[] }) {
  return (
    <Form validateTrigger="onBlur">
      {withConfirmFields(fields).map((f) => (
        <Form.Item key={f.name} name={f.name} label={f.name} rules={fieldRules(f, i18n.t)} dependencies={f.equals ? [f.equals] : undefined}>
          <Input aria-label={f.name} />
        </Form.Item>
      ))}
    </Form>
  );
}

const blurWith = (name: string, value: string) => {
  const input = screen.getByLabelText(name);
  fireEvent.change(input, { target: { value } });
  fireEvent.blur(input);
};

describe('metadata rules on blur', () => {
  it('shows the first broken format rule of a phone, in the current language', async () => {
    await i18n.changeLanguage('zh');
    render(<RuleForm fields={[phone]} />);
    blurWith('phone', '123');
    expect(await screen.findByText('手机号码长度不为11位')).toBeTruthy();
    expect(screen.queryByText('手机号码格式不正确')).toBeNull();
    blurWith('phone', '23800000000');
    expect(await screen.findByText('手机号码格式不正确')).toBeTruthy();
  });

  it('adds the confirmation copy of a confirm field and refuses a mismatch on blur', async () => {
    await i18n.changeLanguage('zh');
    render(<RuleForm fields={[password]} />);
    blurWith('password', 'abc');
    blurWith('password2', 'abd');
    expect(await screen.findByText('两次密码输入不一致')).toBeTruthy();
  });
});
