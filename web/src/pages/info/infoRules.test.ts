import { describe, expect, it, beforeEach } from 'vitest';
import { md5 } from 'js-md5';
import i18n, { setLanguage } from '../../i18n';
import { avatarError, infoBody, passwordParams, passwordsMatch, phoneMessage } from './infoRules';

describe('personal info validation', () => {
  beforeEach(async () => {
    await setLanguage('zh');
  });

  it('checks the phone with the three messages of spec §5', () => {
    const t = i18n.t.bind(i18n);
    expect(phoneMessage('', t)).toBe('手机号码不能为空');
    expect(phoneMessage('  ', t)).toBe('手机号码不能为空');
    expect(phoneMessage('1380013800', t)).toBe('手机号码长度不为11位');
    expect(phoneMessage('23800138000', t)).toBe('手机号码格式不正确');
    expect(phoneMessage('1380013800a', t)).toBe('手机号码格式不正确');
    expect(phoneMessage('13800138000', t)).toBe('');
  });

  it('shows the phone messages in English too', async () => {
    await setLanguage('en');
    const t = i18n.t.bind(i18n);
    expect(phoneMessage('', t)).not.toBe('手机号码不能为空');
    expect(phoneMessage('', t)).toBeTruthy();
  });

  it('accepts jpg and png avatars up to 500kb only', () => {
    expect(avatarError({ type: 'image/jpeg', size: 500 * 1024 })).toBe('');
    expect(avatarError({ type: 'image/png', size: 1 })).toBe('');
    expect(avatarError({ type: 'image/png', size: 500 * 1024 + 1 })).toBe('size');
    expect(avatarError({ type: 'image/gif', size: 10 })).toBe('type');
    expect(avatarError({ type: '', name: 'a.JPG', size: 10 })).toBe('');
    expect(avatarError({ type: '', name: 'a.bmp', size: 10 })).toBe('type');
  });

  it('sends the passwords md5-hashed and needs the new ones to match', () => {
    expect(passwordsMatch('a', 'a')).toBe(true);
    expect(passwordsMatch('a', 'b')).toBe(false);
    expect(passwordParams({ oldPassword: 'old', newPassword: 'new1', newPassword1: 'new1' })).toEqual({
      oldPassword: md5('old'),
      newPassword: md5('new1'),
      newPassword1: md5('new1'),
    });
  });

  it('sends only the profile fields, trimmed', () => {
    expect(infoBody({ avatar: 'http://x/a.png', name: ' n ', realName: 'r', phone: '13800138000 ', email: ' a@b.c', ...{ account: 'no' } } as never)).toEqual({
      avatar: 'http://x/a.png',
      name: 'n',
      realName: 'r',
      phone: '13800138000',
      email: 'a@b.c',
    });
  });
});
