import { useEffect, useRef, type ReactNode } from 'react';
import { Button, Space, Tooltip } from 'antd';
import {
  BoldOutlined,
  ClearOutlined,
  ItalicOutlined,
  LinkOutlined,
  OrderedListOutlined,
  UnderlineOutlined,
  UnorderedListOutlined,
} from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import './richtext.css';

interface Props {
  /** The field's label, the editable area's accessible name. */
  label?: string;
  value?: string;
  onChange?: (html: string) => void;
  onBlur?: () => void;
  disabled?: boolean;
}

interface Tool {
  key: string;
  icon: ReactNode;
  run: () => void;
}

/**
 * A light rich-text editor: an editable area and a toolbar of the browser's own editing commands (bold,
 * italic, underline, heading, lists, link, clear formatting). No editor package is in the web app's
 * dependencies, and notices and website content need no more (fields of type html, fields.tsx). What it makes is HTML the server sanitises before storing.
 * Read-only (a view dialog), it shows the HTML as a reader sees it.
 */
export default function RichTextEditor({ label, value, onChange, onBlur, disabled }: Props) {
  const { t } = useTranslation();
  const area = useRef<HTMLDivElement>(null);

  // The form sets the value (a row to edit, a reset); typing must not rewrite the area under the caret.
  useEffect(() => {
    const el = area.current;
    if (el && el.innerHTML !== (value ?? '')) el.innerHTML = value ?? '';
  }, [value]);

  const emit = () => {
    const html = area.current?.innerHTML ?? '';
    // an emptied area leaves a <br>: that is no content, so the required rule still speaks
    onChange?.(area.current?.textContent?.trim() || html.includes('<img') ? html : '');
  };
  const exec = (command: string, arg?: string) => {
    area.current?.focus();
    document.execCommand(command, false, arg);
    emit();
  };
  const tools: Tool[] = [
    { key: 'bold', icon: <BoldOutlined />, run: () => exec('bold') },
    { key: 'italic', icon: <ItalicOutlined />, run: () => exec('italic') },
    { key: 'underline', icon: <UnderlineOutlined />, run: () => exec('underline') },
    { key: 'heading', icon: <span className="bb-rte-h">H</span>, run: () => exec('formatBlock', 'h3') },
    { key: 'orderedList', icon: <OrderedListOutlined />, run: () => exec('insertOrderedList') },
    { key: 'bulletList', icon: <UnorderedListOutlined />, run: () => exec('insertUnorderedList') },
    {
      key: 'link',
      icon: <LinkOutlined />,
      run: () => {
        const url = window.prompt(t('crud.editor.linkPrompt'), 'https://');
        if (url && /^(https?:|mailto:)/i.test(url.trim())) exec('createLink', url.trim());
      },
    },
    { key: 'clear', icon: <ClearOutlined />, run: () => exec('removeFormat') },
  ];

  return (
    <div className={`bb-rte${disabled ? ' bb-rte-disabled' : ''}`}>
      {!disabled && (
        <Space size={2} className="bb-rte-bar" wrap>
          {tools.map((tool) => (
            <Tooltip key={tool.key} title={t(`crud.editor.${tool.key}`)}>
              <Button
                size="small"
                type="text"
                icon={tool.icon}
                aria-label={t(`crud.editor.${tool.key}`)}
                // keep the selection in the area: a mousedown on the button would move the focus first
                onMouseDown={(e) => e.preventDefault()}
                onClick={tool.run}
              />
            </Tooltip>
          ))}
        </Space>
      )}
      <div
        ref={area}
        className="bb-rte-area bb-rich"
        role="textbox"
        aria-multiline="true"
        aria-label={label}
        contentEditable={!disabled}
        suppressContentEditableWarning
        onInput={emit}
        onBlur={onBlur}
      />
    </div>
  );
}
