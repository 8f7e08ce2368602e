import { describe, expect, it } from 'vitest';
import { editableLines, lineCells, linesBody } from './lines';
import { joinedLabel, joinedLabelNames } from './RemoteSelect';
import type { FieldMeta, ResourceMeta } from './types';

const meta = (service: string, name: string, fields: FieldMeta[], extra: Partial<ResourceMeta> = {}): ResourceMeta => ({
  name, service, path: `/api/${service}/${name}`, menuCode: name, label: {}, fields, actions: [], permissions: {}, ...extra,
});

describe('the lines a master/detail form edits', () => {
  const segment = meta('bluebird-basic', 'coderuledetail', [
    { name: 'ruleId', type: 'id', label: { zh: '编码规则' }, required: true, ref: 'bluebird-basic/coderulenew' },
    { name: 'seq', type: 'int', label: { zh: '顺序' }, required: true },
  ]);
  const rule = meta('bluebird-basic', 'coderulenew', [{ name: 'ruleCode', type: 'string', label: { zh: '规则编码' } }], {
    lines: { field: 'details', label: { zh: '明细' }, meta: segment },
  });

  it('leave out the line field holding the parent id: the server fills it', () => {
    const lines = editableLines(rule)!;
    expect(lineCells(lines).map((f) => f.name)).toEqual(['seq']);
    expect(linesBody(lines, [{ seq: 1, ruleId: '' }])).toEqual([{ seq: 1 }]);
    // the line resource's own metadata is untouched
    expect(segment.fields[0].form).toBeUndefined();
  });

  it('keep lines without such a field as they are', () => {
    const other = { ...rule, name: 'other' };
    expect(editableLines(other)).toBe(other.lines);
    expect(editableLines(meta('s', 'n', []))).toBeUndefined();
  });
});

describe('the joined label of a reference', () => {
  const warehouseId: FieldMeta = { name: 'warehouseId', type: 'id', label: {}, remote: { url: '/w', valueField: 'id', labelField: 'warehouseName', searchParam: 'keyword' } };

  it('is never one of the own fields of the row', () => {
    // a storage location: warehouseName is its own name, not its warehouse's
    const own = new Set(['warehouseId', 'warehouseName', 'warehouseKey']);
    const row = { warehouseId: '7', warehouseName: '货架A' };
    expect(joinedLabelNames(warehouseId, own)).toEqual(['warehouseIdName']);
    expect(joinedLabel(warehouseId, row, own)).toBeUndefined();
    expect(joinedLabel(warehouseId, { ...row, warehouseIdName: '一号仓' }, own)).toBe('一号仓');
    // a material's joined brandName is still found
    const brandId: FieldMeta = { ...warehouseId, name: 'brandId' };
    expect(joinedLabel(brandId, { brandId: '3', brandName: '博世' }, new Set(['brandId', 'materialName']))).toBe('博世');
  });
});
