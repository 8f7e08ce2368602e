import { beforeEach, describe, expect, it } from 'vitest';
import { screenLevel, siderState, useCommonStore } from './common';

describe('the side menu at the four screen levels (spec §2)', () => {
  it('classifies widths at 1200, 992 and 768', () => {
    expect([1400, 1200, 1199, 992, 991, 800, 768, 767, 375].map(screenLevel)).toEqual([0, 0, 1, 1, 2, 2, 2, 3, 3]);
  });

  it('is as the user left it from 992 up, collapsed below, a drawer below 768', () => {
    expect(siderState(0, false, false)).toEqual({ drawer: false, collapsed: false });
    expect(siderState(1, true, false)).toEqual({ drawer: false, collapsed: true });
    expect(siderState(2, false, false)).toEqual({ drawer: false, collapsed: true });
    expect(siderState(2, false, true)).toEqual({ drawer: false, collapsed: false });
    expect(siderState(3, false, false)).toEqual({ drawer: true, collapsed: true });
    expect(siderState(3, false, true)).toEqual({ drawer: true, collapsed: false });
  });

  beforeEach(() => useCommonStore.setState({ screen: 0, isCollapse: false, siderOpen: false }));

  it('opens for a while on a narrow screen without touching the kept choice, and closes with the level', () => {
    const s = useCommonStore.getState;
    s().toggleCollapse();
    expect(s().isCollapse).toBe(true);
    s().toggleCollapse();
    s().setScreen(2);
    s().toggleCollapse();
    expect(s()).toMatchObject({ isCollapse: false, siderOpen: true });
    s().setScreen(3);
    expect(s().siderOpen).toBe(false);
  });
});
