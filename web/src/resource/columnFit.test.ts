import { beforeEach, describe, expect, it } from 'vitest';
import { choiceKey, compactWidth, fieldPriority, fitColumns, fitWidths, loadChoice, PRIORITY, saveChoice, toggleChoice } from './columnFit';
import { field } from './testMeta';

const cols = [
  { key: '__index', width: 50, priority: PRIORITY.index },
  { key: 'account', width: 150, priority: PRIORITY.identity },
  { key: 'realName', width: 200, priority: PRIORITY.identity + 1 },
  { key: 'phone', width: 120, priority: PRIORITY.normal + 2 },
  { key: 'remark', width: 240, priority: PRIORITY.low + 3 },
  { key: '__action', width: 180 },
];

describe('the columns that fit', () => {
  it('are all of them when the room is wide enough', () => {
    expect([...fitColumns(cols, 2000)]).toEqual(['__action', 'account', 'realName', 'phone', 'remark', '__index']);
  });

  it('leave out the row number, then what is read least, by priority', () => {
    const all = cols.reduce((n, c) => n + c.width, 0);
    expect(fitColumns(cols, all - 1).has('__index')).toBe(false);
    const narrow = fitColumns(cols, 150 + 200 + 120 + 180);
    expect([...narrow].sort()).toEqual(['__action', 'account', 'phone', 'realName']);
  });

  it('take a narrower column of lower priority into the room a wide one left', () => {
    // the remark (240) does not fit, the row number (50) does
    const shown = fitColumns(cols, 150 + 200 + 120 + 180 + 60);
    expect(shown.has('remark')).toBe(false);
    expect(shown.has('__index')).toBe(true);
  });

  it('keep the columns without a priority and the most important one when nothing fits', () => {
    expect([...fitColumns(cols, 10)].sort()).toEqual(['__action', 'account']);
  });

  it('follow the user: a ticked column shows whatever the width, an unticked one never', () => {
    const choice = { shown: ['remark'], hidden: ['account'] };
    const shown = fitColumns(cols, 150 + 200 + 180, choice);
    expect(shown.has('remark')).toBe(true);
    expect(shown.has('account')).toBe(false);
    // a column that cannot be left out stays, even unticked
    expect(fitColumns(cols, 2000, { shown: [], hidden: ['__action'] }).has('__action')).toBe(true);
  });
});

describe('compact widths', () => {
  const code = { key: 'code', width: 150, min: 110, priority: 0 };
  const name = { key: 'name', width: 200, min: 150, priority: 1 };
  const sort = { key: 'sort', width: 105, priority: 2 };

  it('let a column in that would not fit at full width, the text columns narrowed in proportion', () => {
    const room = 110 + 150 + 105 + 20;
    expect([...fitColumns([code, name, sort], room)].sort()).toEqual(['code', 'name', 'sort']);
    const w = fitWidths([code, name, sort], room);
    expect(w.get('sort')).toBe(105);
    expect(w.get('code')! + w.get('name')! + w.get('sort')!).toBeLessThanOrEqual(room);
    expect(w.get('code')).toBeGreaterThan(110);
    expect(w.get('name')).toBeGreaterThan(150);
  });

  it('keep the full widths when there is room, and stop at the minimum', () => {
    expect(fitWidths([code, name], 1000).get('name')).toBe(200);
    expect(fitWidths([code, name], 10).get('name')).toBe(150);
  });

  it('narrow text by a quarter, never below its header, and nothing else', () => {
    expect(compactWidth(field({ name: 'n' }), 200)).toBe(150);
    expect(compactWidth(field({ name: 'n', type: 'int' }), 80)).toBe(80);
    expect(compactWidth(field({ name: 'n', label: { zh: '一个很长很长很长很长的列标题' } }), 200)).toBeGreaterThan(150);
  });
});

describe('the priority of a field', () => {
  it('puts the identity first, then states and kinds, long text, remarks and timestamps last, the rest in declared order', () => {
    const ids = new Set(['code']);
    expect(fieldPriority(field({ name: 'code' }), 3, ids)).toBe(PRIORITY.identity + 3);
    expect(fieldPriority(field({ name: 'phone' }), 2, ids)).toBe(PRIORITY.normal + 2);
    expect(fieldPriority(field({ name: 'status', type: 'dict' }), 4, ids)).toBe(PRIORITY.state + 4);
    expect(PRIORITY.state + 4).toBeLessThan(PRIORITY.normal + 2);
    expect(fieldPriority(field({ name: 'remark' }), 1, ids)).toBe(PRIORITY.low + 1);
    expect(fieldPriority(field({ name: 'createTime', type: 'datetime' }), 1, ids)).toBe(PRIORITY.low + 1);
    expect(fieldPriority(field({ name: 'body', type: 'text' }), 0, ids)).toBe(PRIORITY.low);
  });
});

describe('the column choice', () => {
  beforeEach(() => localStorage.clear());

  it('is kept per user and per table', () => {
    saveChoice('1', 'blade-user', toggleChoice({ shown: [], hidden: [] }, 'phone', true));
    expect(loadChoice('1', 'blade-user')).toEqual({ shown: ['phone'], hidden: [] });
    expect(loadChoice('2', 'blade-user')).toEqual({ shown: [], hidden: [] });
    expect(loadChoice('1', 'blade-tenant')).toEqual({ shown: [], hidden: [] });
    expect(choiceKey('1', 't')).not.toBe(choiceKey('2', 't'));
  });

  it('moves a column between shown and hidden', () => {
    const c = toggleChoice({ shown: ['a'], hidden: ['b'] }, 'b', true);
    expect(c).toEqual({ shown: ['a', 'b'], hidden: [] });
    expect(toggleChoice(c, 'a', false)).toEqual({ shown: ['b'], hidden: ['a'] });
  });
});
