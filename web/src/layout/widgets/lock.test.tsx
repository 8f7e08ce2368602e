import { describe, expect, it, vi, beforeEach } from 'vitest';
import { screen, fireEvent, waitFor, render } from '@testing-library/react';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router';
import { renderWithProviders } from '../../test/utils';
import LockButton from './LockButton';
import { lockScreen } from './lock';
import LockPage from '../../pages/lock/LockPage';
import { useCommonStore, useLockStore } from '../../store/common';
import { useTagsStore } from '../../store/tags';
import { setLanguage } from '../../i18n';

function Where() {
  return <div data-testid="where">{useLocation().pathname}</div>;
}

describe('lock', () => {
  beforeEach(async () => {
    await setLanguage('zh');
    useCommonStore.getState().clearLockPasswd();
    useLockStore.getState().clearLock();
  });

  it('asks for a password first when none is set', () => {
    const nav = vi.fn();
    expect(lockScreen(nav)).toBe('dialog');
    expect(useLockStore.getState().isLock).toBe(false);
  });

  it('locks and goes to /lock after 100 ms when a password exists', () => {
    vi.useFakeTimers();
    try {
      useCommonStore.getState().setLockPasswd('pw');
      const nav = vi.fn();
      expect(lockScreen(nav)).toBe('locked');
      expect(useLockStore.getState().isLock).toBe(true);
      expect(sessionStorage.getItem('saber-isLock')).toContain('true');
      vi.advanceTimersByTime(99);
      expect(nav).not.toHaveBeenCalled();
      vi.advanceTimersByTime(1);
      expect(nav).toHaveBeenCalledWith('/lock');
    } finally {
      vi.useRealTimers();
    }
  });

  it('the dialog requires a password (锁屏密码不能为空), then locks', async () => {
    renderWithProviders(
      <Routes>
        <Route path="/" element={<><LockButton /><Where /></>} />
        <Route path="/lock" element={<Where />} />
      </Routes>,
    );
    fireEvent.click(screen.getByRole('button', { name: '锁屏' }));
    const ok = await screen.findByRole('button', { name: /确\s*定/ });
    fireEvent.click(ok);
    expect(await screen.findByText('锁屏密码不能为空')).toBeInTheDocument();
    fireEvent.change(screen.getByPlaceholderText('请输入锁屏密码'), { target: { value: 'secret' } });
    fireEvent.click(ok);
    await waitFor(() => expect(screen.getByTestId('where')).toHaveTextContent('/lock'));
    expect(useCommonStore.getState().lockPasswd).toBe('secret');
    expect(useLockStore.getState().isLock).toBe(true);
  });

  it('the lock page unlocks with the right password only and returns to the active tab', async () => {
    useCommonStore.getState().setLockPasswd('secret');
    useLockStore.getState().setLock();
    useTagsStore.getState().add({ label: 'p', value: '/system/param' });
    render(
      <MemoryRouter initialEntries={['/lock']}>
        <Routes>
          <Route path="/lock" element={<LockPage />} />
          <Route path="*" element={<Where />} />
        </Routes>
      </MemoryRouter>,
    );
    const input = await screen.findByPlaceholderText('请输入锁屏密码');
    fireEvent.change(input, { target: { value: 'nope' } });
    fireEvent.click(screen.getByRole('button', { name: /解\s*锁/ }));
    expect((await screen.findAllByText('解锁密码错误,请重新输入')).length).toBeGreaterThan(0);
    expect(useLockStore.getState().isLock).toBe(true);
    fireEvent.change(input, { target: { value: 'secret' } });
    fireEvent.click(screen.getByRole('button', { name: /解\s*锁/ }));
    await waitFor(() => expect(screen.getByTestId('where')).toHaveTextContent('/system/param'));
    expect(useLockStore.getState().isLock).toBe(false);
    expect(useCommonStore.getState().lockPasswd).toBe('');
  });
});
