import type { ReactNode } from 'react';
import { render } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { App as AntApp } from 'antd';
import AntProvider from '../theme/AntProvider';

/** Renders inside the providers of the shell (router, query client, antd). */
export function renderWithProviders(ui: ReactNode, { route = '/' }: { route?: string } = {}) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(
    <MemoryRouter initialEntries={[route]}>
      <QueryClientProvider client={client}>
        <AntProvider>
          <AntApp>{ui}</AntApp>
        </AntProvider>
      </QueryClientProvider>
    </MemoryRouter>,
  );
}

export const ok = <T,>(data: T) => ({ code: 200, success: true, msg: '操作成功', data });
