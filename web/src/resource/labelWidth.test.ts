import { describe, expect, it } from 'vitest';
import { labelWidth } from './commands';

describe('the width of a row button label', () => {
  it('counts a Chinese character as wide as the font and a Latin letter about half', () => {
    expect(labelWidth('提交审批')).toBe(56);
    expect(labelWidth('Submit for approval')).toBe(143);
    expect(labelWidth('')).toBe(0);
  });
});
