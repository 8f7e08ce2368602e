import type { ReactNode } from 'react';
import { Button, Form, Space } from 'antd';
import { SearchOutlined, UndoOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';

/** The search and reset buttons closing a search bar (a submit button: the form's onFinish searches). */
export default function SearchActions({ onReset, children }: { onReset: () => void; children?: ReactNode }) {
  const { t } = useTranslation();
  return (
    <Form.Item>
      <Space>
        <Button type="primary" htmlType="submit" icon={<SearchOutlined />}>
          {t('crud.search')}
        </Button>
        <Button icon={<UndoOutlined />} onClick={onReset}>
          {t('crud.reset')}
        </Button>
        {children}
      </Space>
    </Form.Item>
  );
}
