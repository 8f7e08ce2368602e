import { describe, expect, it } from 'vitest';
import { render } from '@testing-library/react';
import { Form } from 'antd';
import i18n from '../i18n';
import { fieldInput } from './fields';
import { field } from './testMeta';

// A field of each kind that asks for input with a placeholder.
const fields = [
  field({ name: 'title', label: { zh: '标题', en: 'Title' } }),
  field({ name: 'remark', type: 'text', label: { zh: '备注', en: 'Remark' } }),
  field({ name: 'day', type: 'date', label: { zh: '日期', en: 'Day' } }),
  field({ name: 'at', type: 'datetime', label: { zh: '时间', en: 'Time' } }),
];

/** The placeholders a form of those fields shows (inputs, and what a select draws in their place). */
function placeholders(readOnly: boolean): string[] {
  const { container, unmount } = render(
    <Form disabled={readOnly}>
      {fields.map((f) => (
        <Form.Item key={f.name} name={f.name} label={f.name}>
          {fieldInput(f, readOnly, i18n.t)}
        </Form.Item>
      ))}
    </Form>,
  );
  const found = [
    ...[...container.querySelectorAll('[placeholder]')].map((e) => e.getAttribute('placeholder') ?? ''),
    ...[...container.querySelectorAll('.ant-select-placeholder, .ant-select-selection-placeholder')].map((e) => e.textContent ?? ''),
  ].filter(Boolean);
  unmount();
  return found;
}

describe('placeholders', () => {
  it('ask for input in a form that can be filled in', async () => {
    await i18n.changeLanguage('zh');
    // (the date pickers' own, in antd's locale: none is provided here)
    expect(placeholders(false)).toEqual(['请输入标题', '请输入备注', 'Select date', 'Select date']);
  });

  it('are left out of read-only controls (a view dialog)', async () => {
    await i18n.changeLanguage('zh');
    expect(placeholders(true)).toEqual([]);
  });
});
