import { md5 } from 'js-md5';
import { phoneError } from '../../util/validate';

type T = (key: string) => string;

/** Avatar upload rule (spec §5): jpg or png only, at most 500kb. Returns an error key or ''. */
export const AVATAR_MAX_BYTES = 500 * 1024;
export function avatarError(file: { type?: string; name?: string; size: number }): '' | 'type' | 'size' {
  const type = (file.type ?? '').toLowerCase();
  const ext = (file.name ?? '').toLowerCase();
  const okType = type === 'image/jpeg' || type === 'image/png' || (!type && /\.(jpe?g|png)$/.test(ext));
  if (!okType) return 'type';
  if (file.size > AVATAR_MAX_BYTES) return 'size';
  return '';
}

/** The phone rule with its three messages (手机号码不能为空 / 手机号码长度不为11位 / 手机号码格式不正确). */
export function phoneMessage(phone: string | undefined, t: T): string {
  const e = phoneError((phone ?? '').trim());
  if (e === 'required') return t('login.phoneRequired');
  if (e === 'length') return t('login.phoneLength');
  if (e === 'format') return t('login.phoneFormat');
  return '';
}

/** Whether the new password and its confirmation match. */
export const passwordsMatch = (a?: string, b?: string): boolean => (a ?? '') === (b ?? '');

/** Query parameters of POST update-password: every password md5'd. */
export function passwordParams(v: { oldPassword: string; newPassword: string; newPassword1: string }) {
  return { oldPassword: md5(v.oldPassword), newPassword: md5(v.newPassword), newPassword1: md5(v.newPassword1) };
}

/** The body of POST update-info: the profile fields only, trimmed. */
export function infoBody(v: { avatar?: string; name?: string; realName?: string; phone?: string; email?: string }) {
  return {
    avatar: v.avatar ?? '',
    name: (v.name ?? '').trim(),
    realName: (v.realName ?? '').trim(),
    phone: (v.phone ?? '').trim(),
    email: (v.email ?? '').trim(),
  };
}
