import { describe, expect, it, beforeEach } from 'vitest';
import { http, HttpResponse } from 'msw';
import { screen, waitFor, fireEvent, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { server } from '../test/server';
import { ok, renderWithProviders } from '../test/utils';
import ResourceCrud from './ResourceCrud';
import { isSecretIn, secretKeyMatch, SECRET_MASK } from './secret';
import type { FieldMeta, ResourceMeta, Row } from './types';
import { useUserStore } from '../store/user';
import { setLanguage } from '../i18n';

const f = (over: Partial<FieldMeta> & { name: string }): FieldMeta => ({
  type: 'string', label: { zh: over.name, en: over.name }, list: true, form: true, ...over,
});

const secretRows = { field: 'paramKey', keys: ['tenant.default.password', '*secretKey'] };

const clientMeta: ResourceMeta = {
  name: 'client', service: 'blade-system', path: '/api/blade-system/client', menuCode: 'client',
  label: { zh: '应用', en: 'Client' }, paged: true,
  fields: [
    f({ name: 'clientId', label: { zh: '应用ID', en: 'Client ID' }, required: true }),
    f({ name: 'clientSecret', label: { zh: '应用密钥', en: 'Client secret' }, required: true, secret: true,
      messages: { required: { zh: '请输入应用密钥', en: 'Please enter client secret' } } }),
  ],
  actions: ['list', 'detail', 'submit'],
  permissions: { add: 'client_add', edit: 'client_edit' },
};

const paramMeta: ResourceMeta = {
  ...clientMeta, name: 'param', path: '/api/blade-system/param', menuCode: 'param', label: { zh: '参数', en: 'Parameter' },
  fields: [
    f({ name: 'paramKey', label: { zh: '参数键名', en: 'Parameter key' }, required: true }),
    f({ name: 'paramValue', type: 'text', label: { zh: '参数键值', en: 'Parameter value' }, required: true, secret: true, secretRows }),
  ],
  permissions: { add: 'param_add', edit: 'param_edit' },
};

function mockResource(path: string, rows: Row[]): unknown[] {
  const submitted: unknown[] = [];
  server.use(
    http.get(`*${path}/list`, () => HttpResponse.json(ok({ records: rows, total: rows.length, size: 10, current: 1, pages: 1 }))),
    http.get(`*${path}/detail`, ({ request }) => HttpResponse.json(ok(rows.find((r) => r.id === new URL(request.url).searchParams.get('id'))))),
    http.post(`*${path}/submit`, async ({ request }) => {
      submitted.push(await request.json());
      return HttpResponse.json(ok(null));
    }),
  );
  return submitted;
}

async function openEdit(rowText: string) {
  const row = (await screen.findByText(rowText)).closest('tr')!;
  fireEvent.click(within(row as HTMLElement).getByRole('button', { name: /编\s*辑/ }));
  return screen.findByRole('dialog');
}

const save = (dialog: HTMLElement) => fireEvent.click(within(dialog).getByRole('button', { name: /保\s*存/ }));

describe('secret fields', () => {
  beforeEach(async () => {
    await setLanguage('zh');
    useUserStore.setState({ permission: { client_add: true, client_edit: true, param_add: true, param_edit: true } });
  });

  it('match keys as the server does: exact, prefix* and *suffix, ignoring case', () => {
    expect(secretKeyMatch(['tenant.default.password'], 'Tenant.Default.Password')).toBe(true);
    expect(secretKeyMatch(['*secretKey'], 'sms.aliyun.secretkey')).toBe(true);
    expect(secretKeyMatch(['oss.*'], 'oss.endpoint')).toBe(true);
    expect(secretKeyMatch(['*secretKey', 'oss.*'], 'account.failCount')).toBe(false);
    const value = paramMeta.fields[1];
    expect(isSecretIn(value, { paramKey: 'tenant.default.password' })).toBe(true);
    expect(isSecretIn(value, { paramKey: 'account.failCount' })).toBe(false);
    expect(isSecretIn(clientMeta.fields[1], {})).toBe(true);
    expect(isSecretIn(clientMeta.fields[0], {})).toBe(false);
  });

  it('edits a client secret write-only: the input starts empty and left blank keeps the stored one', async () => {
    const submitted = mockResource('/api/blade-system/client', [{ id: '1', clientId: 'saber', clientSecret: 'saber_secret', version: 3 }]);
    renderWithProviders(<ResourceCrud meta={clientMeta} />);
    const dialog = await openEdit('saber');
    await waitFor(() => expect(within(dialog).getByLabelText('应用ID')).toHaveValue('saber'));
    const secret = within(dialog).getByLabelText('应用密钥');
    expect(secret).toHaveAttribute('type', 'password');
    expect(secret).toHaveValue('');
    expect(secret).toHaveAttribute('placeholder', '留空则保持原值不变');
    save(dialog);
    await waitFor(() => expect(submitted).toHaveLength(1));
    expect(submitted[0]).toEqual({ id: '1', version: 3, clientId: 'saber' });
  });

  it('a client secret typed into the edit form replaces the stored one', async () => {
    const submitted = mockResource('/api/blade-system/client', [{ id: '1', clientId: 'saber', clientSecret: SECRET_MASK, version: 3 }]);
    renderWithProviders(<ResourceCrud meta={clientMeta} />);
    const dialog = await openEdit('saber');
    await waitFor(() => expect(within(dialog).getByLabelText('应用ID')).toHaveValue('saber'));
    await userEvent.type(within(dialog).getByLabelText('应用密钥'), 'new-secret');
    save(dialog);
    await waitFor(() => expect(submitted).toHaveLength(1));
    expect(submitted[0]).toEqual({ id: '1', version: 3, clientId: 'saber', clientSecret: 'new-secret' });
  });

  it('a new client needs its secret', async () => {
    const submitted = mockResource('/api/blade-system/client', [{ id: '1', clientId: 'saber', clientSecret: SECRET_MASK }]);
    renderWithProviders(<ResourceCrud meta={clientMeta} />);
    await screen.findByText('saber');
    fireEvent.click(screen.getByRole('button', { name: /新\s*增/ }));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByLabelText('应用密钥')).toHaveAttribute('type', 'password');
    await userEvent.type(within(dialog).getByLabelText('应用ID'), 'c2');
    save(dialog);
    expect(await within(dialog).findByText('请输入应用密钥')).toBeInTheDocument();
    expect(submitted).toHaveLength(0);
  });

  it('a secret parameter value is write-only', async () => {
    const submitted = mockResource('/api/blade-system/param', [
      { id: '1', paramKey: 'tenant.default.password', paramValue: 'admin', version: 1 },
    ]);
    renderWithProviders(<ResourceCrud meta={paramMeta} />);
    const dialog = await openEdit('tenant.default.password');
    await waitFor(() => expect(within(dialog).getByLabelText('参数键名')).toHaveValue('tenant.default.password'));
    const value = within(dialog).getByLabelText('参数键值');
    expect(value).toHaveAttribute('type', 'password');
    expect(value).toHaveValue('');
    save(dialog);
    await waitFor(() => expect(submitted).toHaveLength(1));
    expect(submitted[0]).toEqual({ id: '1', version: 1, paramKey: 'tenant.default.password' });
  });

  it('a plain parameter value is edited as it is', async () => {
    mockResource('/api/blade-system/param', [{ id: '2', paramKey: 'account.failCount', paramValue: '5', version: 1 }]);
    renderWithProviders(<ResourceCrud meta={paramMeta} />);
    const dialog = await openEdit('account.failCount');
    await waitFor(() => expect(within(dialog).getByLabelText('参数键值')).toHaveValue('5'));
    expect(within(dialog).getByLabelText('参数键值').tagName).toBe('TEXTAREA');
  });

  it('a new parameter turns write-only as its key is typed', async () => {
    mockResource('/api/blade-system/param', [{ id: '2', paramKey: 'account.failCount', paramValue: '5' }]);
    renderWithProviders(<ResourceCrud meta={paramMeta} />);
    await screen.findByText('account.failCount');
    fireEvent.click(screen.getByRole('button', { name: /新\s*增/ }));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByLabelText('参数键值').tagName).toBe('TEXTAREA');
    await userEvent.type(within(dialog).getByLabelText('参数键名'), 'sms.demo.secretKey');
    await waitFor(() => expect(within(dialog).getByLabelText('参数键值')).toHaveAttribute('type', 'password'));
  });
});
