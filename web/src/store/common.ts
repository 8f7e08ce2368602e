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

/**
 * How the side menu shows at a screen level (spec §2): from 992 px up as the user left it (collapsed or not,
 * kept); from 768 collapsed to its icons unless opened for a while; below 768 not at all but in a drawer, open
 * or not. `open` is the transient opening of the narrow levels (the collapse button there).
 */
export function siderState(screen: ScreenLevel, isCollapse: boolean, open: boolean): { drawer: boolean; collapsed: boolean } {
  if (screen === 3) return { drawer: true, collapsed: !open };
  if (screen === 2) return { drawer: false, collapsed: !open };
  return { drawer: false, collapsed: isCollapse };
}

interface CommonState {
  isCollapse: boolean;
  /** The side menu opened on a narrow screen (not kept): expanded below 992 px, its drawer below 768. */
  siderOpen: boolean;
  isFullScreen: boolean;
  screen: ScreenLevel;
  colorName: string;
  themeName: string;
  lockPasswd: string;
  /** The chosen in-app top menu code (000/001); '' means the home entry. */
  topMenuCode: string;
  setCollapse: (v: boolean) => void;
  setSiderOpen: (v: boolean) => void;
  /** The collapse button: collapses or expands the side menu, or on a narrow screen opens or closes it. */
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
      siderOpen: false,
      isFullScreen: false,
      screen: typeof window === 'undefined' ? 0 : screenLevel(window.innerWidth),
      colorName: website.defaultColor,
      themeName: website.defaultTheme,
      lockPasswd: '',
      topMenuCode: '',
      setCollapse: (isCollapse) => set({ isCollapse }),
      setSiderOpen: (siderOpen) => set({ siderOpen }),
      toggleCollapse: () => set((s) => (s.screen >= 2 ? { siderOpen: !s.siderOpen } : { isCollapse: !s.isCollapse })),
      setFullScreen: (isFullScreen) => set({ isFullScreen }),
      // a narrow screen's opened menu closes when the level changes
      setScreen: (screen) => set((s) => (s.screen === screen ? {} : { screen, siderOpen: false })),
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

/** The side menu's state at the current screen level (siderState). */
export function useSider(): { drawer: boolean; collapsed: boolean } {
  const screen = useCommonStore((s) => s.screen);
  const isCollapse = useCommonStore((s) => s.isCollapse);
  const open = useCommonStore((s) => s.siderOpen);
  return siderState(screen, isCollapse, open);
}
