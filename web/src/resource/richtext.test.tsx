import { describe, expect, it } from 'vitest';
import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { Button, Form } from 'antd';
import i18n from '../i18n';
import { fieldInput, fieldRules, renderCell } from './fields';
import { field } from './testMeta';

const content = field({ name: 'content', type: 'html', required: true, label: { zh: '内容', en: 'Content' } });

/** One html field as the crud form draws it, with a submit that reports the form's values. */
function HtmlForm({ onFinish }: { onFinish: (values: Record<string, unknown>) => void }) {
  return (
    <Form onFinish={onFinish}>
      <Form.Item name="content" label="内容" rules={fieldRules(content, i18n.t)}>
        {fieldInput(content, false, i18n.t)}
      </Form.Item>
      <Button htmlType="submit">save</Button>
    </Form>
  );
}

describe('html fields', () => {
  it('edit in the rich-text editor and submit its HTML; an emptied editor is refused as required', async () => {
    await i18n.changeLanguage('zh');
    const submitted: Record<string, unknown>[] = [];
    render(<HtmlForm onFinish={(v) => submitted.push(v)} />);
    const area = screen.getByRole('textbox', { name: '内容' });
    expect(screen.getByRole('button', { name: '加粗' })).toBeTruthy();

    area.innerHTML = '<p><br></p>'; // what an editor emptied by its user holds
    fireEvent.input(area);
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'save' })));
    await waitFor(() => expect(screen.getByText('请输入内容')).toBeTruthy());
    expect(submitted).toHaveLength(0);

    area.innerHTML = '<p>Hello <b>all</b></p>';
    fireEvent.input(area);
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'save' })));
    await waitFor(() => expect(submitted).toEqual([{ content: '<p>Hello <b>all</b></p>' }]));
  });

  it('a table cell shows the text of rich text, not its markup', () => {
    expect(renderCell(content, '<p>Hello <b>all</b></p><p>again</p>', i18n.t)).toBe('Hello all again');
  });
});
