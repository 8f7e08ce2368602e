import { create } from 'zustand';
import { persist, createJSONStorage } from 'zustand/middleware';
import { prefixedStorage } from '../util/storage';
import { website } from '../config';

export type ScreenLevel = 0 | 1 | 2 | 3;

/** Screen size level by width (spec §2): 0 ≥1200, 1 ≥992, 2 ≥768, 3 smaller. */
export function screenLevel(width: number): ScreenLevel {
  if (width >= 1200) return 0;
  if (width >= 992) return 1;
  if (width >= 768) return 2;
  return 3;
}

interface CommonState {
  isCollapse: boolean;
  isFullScreen: boolean;
  screen: ScreenLevel;
  colorName: string;
  themeName: string;
  lockPasswd: string;
  /** The chosen in-app top menu code (000/001); '' means the home entry. */
  topMenuCode: string;
  setCollapse: (v: boolean) => void;
  toggleCollapse: () => void;
  setFullScreen: (v: boolean) => void;
  setScreen: (v: ScreenLevel) => void;
  setColor: (c: string) => void;
  setTheme: (t: string) => void;
  setLockPasswd: (p: string) => void;
  clearLockPasswd: () => void;
  setTopMenuCode: (c: string) => void;
}

export const useCommonStore = create<CommonState>()(
  persist(
    (set) => ({
      isCollapse: false,
      isFullScreen: false,
      screen: typeof window === 'undefined' ? 0 : screenLevel(window.innerWidth),
      colorName: website.defaultColor,
      themeName: website.defaultTheme,
      lockPasswd: '',
      topMenuCode: '',
      setCollapse: (isCollapse) => set({ isCollapse }),
      toggleCollapse: () => set((s) => ({ isCollapse: !s.isCollapse })),
      setFullScreen: (isFullScreen) => set({ isFullScreen }),
      setScreen: (screen) => set({ screen }),
      setColor: (colorName) => set({ colorName }),
      setTheme: (themeName) => set({ themeName }),
      setLockPasswd: (lockPasswd) => set({ lockPasswd }),
      clearLockPasswd: () => set({ lockPasswd: '' }),
      setTopMenuCode: (topMenuCode) => set({ topMenuCode }),
    }),
    {
      name: 'common',
      storage: createJSONStorage(() => prefixedStorage()),
      partialize: (s) => ({
        isCollapse: s.isCollapse,
        colorName: s.colorName,
        themeName: s.themeName,
        lockPasswd: s.lockPasswd,
        topMenuCode: s.topMenuCode,
      }),
    },
  ),
);

interface LockState {
  isLock: boolean;
  setLock: () => void;
  clearLock: () => void;
}

/** The locked flag is kept per session (session storage). */
export const useLockStore = create<LockState>()(
  persist(
    (set) => ({
      isLock: false,
      setLock: () => set({ isLock: true }),
      clearLock: () => set({ isLock: false }),
    }),
    { name: 'isLock', storage: createJSONStorage(() => prefixedStorage(true)) },
  ),
);
