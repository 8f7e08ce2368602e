import { cloneElement, type ReactElement } from 'react';
import { ConfigProvider, Form, Input } from 'antd';
import { useTranslation } from 'react-i18next';
import { fieldLabel } from './fields';
import type { FieldMeta, Row } from './types';

/** What the server answers in place of a secret to everybody but the super user (resource.SecretMask). */
export const SECRET_MASK = '******';

/** A row key matches a SecretRows key exactly, as "prefix*" or as "*suffix", ignoring case (resource.SecretRows.Match). */
export function secretKeyMatch(keys: string[], key: unknown): boolean {
  const k = String(key ?? '').trim().toLowerCase();
  return keys.some((raw) => {
    const p = raw.toLowerCase();
    if (p.startsWith('*')) return k.endsWith(p.slice(1));
    if (p.endsWith('*')) return k.startsWith(p.slice(0, -1));
    return k === p;
  });
}

/** Whether field f holds a secret in row: always for a secret field, or in the rows its secretRows rule names. */
export function isSecretIn(f: FieldMeta, row: Row | undefined): boolean {
  if (!f.secret) return false;
  return !f.secretRows || secretKeyMatch(f.secretRows.keys, row?.[f.secretRows.field]);
}

/** Whether an edit of the stored row may leave f blank: the server then keeps the stored secret. */
export const keepsSecret = (f: FieldMeta, mode: string | undefined, stored: Row | undefined) => mode === 'edit' && isSecretIn(f, stored);

/** The row as an edit form starts: secrets are write-only, so their inputs start empty. */
export function withoutSecrets(fields: FieldMeta[], row: Row): Row {
  const out = { ...row };
  for (const f of fields) if (isSecretIn(f, row)) out[f.name] = '';
  return out;
}

/** An edit's body without the secrets left blank (or masked), so that the stored ones stay. */
export function dropKeptSecrets(fields: FieldMeta[], body: Row, stored: Row | undefined): Row {
  const out = { ...body };
  for (const f of fields) {
    const v = out[f.name];
    if (keepsSecret(f, 'edit', stored) && (v === undefined || v === null || v === '' || v === SECRET_MASK)) delete out[f.name];
  }
  return out;
}

/**
 * The control of a secret field: a password input, never filled, when the row (as typed so far: a
 * parameter's key decides) holds a secret; the field's ordinary control otherwise.
 */
export function SecretInput({ field, editing, plain, ...rest }: { field: FieldMeta; editing: boolean; plain: ReactElement<Record<string, unknown>> }) {
  const { t } = useTranslation();
  const form = Form.useFormInstance();
  const key: unknown = Form.useWatch(field.secretRows?.field ?? field.name, form);
  // a view dialog (its form disabled) asks for nothing
  const readOnly = ConfigProvider.useConfig().componentDisabled === true;
  const secret = isSecretIn(field, field.secretRows ? { [field.secretRows.field]: key } : {});
  if (!secret) return cloneElement(plain, rest);
  return (
    <Input.Password
      maxLength={field.max}
      autoComplete="new-password"
      placeholder={readOnly ? undefined : editing ? t('crud.secretKeep') : t('crud.required', { label: fieldLabel(field) })}
      {...rest}
    />
  );
}
