/**
 * Fake metadata of the tests of the metadata-driven UI (docs/resource-meta.md): a material receipt
 * with a document number, a remote warehouse reference, a decimal amount, a list view with joined
 * columns, state commands and lines with totals; and a material type tree.
 */
import type { Command, FieldMeta, ResourceMeta } from './types';

export const field = (over: Partial<FieldMeta> & { name: string }): FieldMeta => ({
  type: 'string',
  label: { zh: over.name, en: over.name },
  list: true,
  form: true,
  ...over,
});

const BASE = '/api/bluebird-wms/material-in';

export const warehouseRemote = { url: '/api/bluebird-basic/warehouse/page', valueField: 'id', labelField: 'name', codeField: 'code', searchParam: 'name' };
export const materialRemote = { url: '/api/bluebird-basic/material/page', valueField: 'id', labelField: 'materialName', codeField: 'materialCode', searchParam: 'materialName' };

export const effective: Command = {
  name: 'doEffective',
  key: 'effective',
  path: `${BASE}/doEffective`,
  label: { zh: '生效', en: 'Set effective' },
  permission: 'material_in_effective',
  params: { effectiveStatus: '2' },
  confirm: { zh: '确定将选择的数据设为生效?', en: 'Set the selected rows effective?' },
  from: { field: 'status', values: [1, 4] },
  row: true,
  toolbar: true,
};

export const notEffective: Command = {
  ...effective,
  key: 'notEffective',
  label: { zh: '失效', en: 'Set not effective' },
  permission: 'material_in_not_effective',
  params: { effectiveStatus: '1' },
  confirm: { zh: '确定将选择的数据设为失效?', en: 'Set the selected rows not effective?' },
  from: { field: 'status', values: [2] },
  toolbar: false,
};

export const lineMeta: ResourceMeta = {
  name: 'material-in-detail',
  service: 'bluebird-wms',
  path: '/api/bluebird-wms/material-in-detail',
  menuCode: '',
  label: { zh: '入库明细', en: 'Receipt lines' },
  fields: [
    field({ name: 'id', type: 'id', valueType: 'id', form: false, list: false }),
    field({ name: 'materialId', type: 'id', valueType: 'id', ref: 'bluebird-basic/material', remote: materialRemote, required: true,
      label: { zh: '物料', en: 'Material' } }),
    field({ name: 'materialName', joined: true, form: false, label: { zh: '物料名称', en: 'Material name' } }),
    field({ name: 'qty', type: 'decimal', valueType: 'decimal', scale: 3, positive: true, required: true, label: { zh: '数量', en: 'Quantity' } }),
    field({ name: 'amount', type: 'decimal', valueType: 'decimal', scale: 2, minValue: '0', label: { zh: '金额', en: 'Amount' } }),
    field({ name: 'batchNo', form: false, label: { zh: '批次', en: 'Batch' } }),
  ],
  actions: [],
  permissions: {},
};

export const receiptMeta: ResourceMeta = {
  name: 'material-in',
  service: 'bluebird-wms',
  path: BASE,
  menuCode: 'material_in',
  label: { zh: '物料入库', en: 'Material receipts' },
  paged: true,
  fields: [
    field({ name: 'docNo', number: true, search: true, filter: 'like', label: { zh: '入库单号', en: 'Receipt no.' } }),
    field({ name: 'warehouseId', type: 'id', valueType: 'id', ref: 'bluebird-basic/warehouse', remote: warehouseRemote, required: true,
      search: true, filter: 'equal', label: { zh: '仓库', en: 'Warehouse' } }),
    field({ name: 'amount', type: 'decimal', valueType: 'decimal', scale: 2, minValue: '0', maxValue: '1000000', positive: true,
      label: { zh: '金额', en: 'Amount' } }),
    field({ name: 'status', type: 'dict', dict: 'status', valueType: 'int', form: false, label: { zh: '状态', en: 'Status' } }),
  ],
  actions: ['page', 'detail', 'submit', 'remove'],
  permissions: { add: 'material_in_add', edit: 'material_in_edit', delete: 'material_in_delete', view: 'material_in_view' },
  views: [
    {
      name: 'selectMaterialInVOPage',
      path: `${BASE}/selectMaterialInVOPage`,
      paged: true,
      fields: [
        field({ name: 'warehouseName', joined: true, form: false, sortable: true, label: { zh: '仓库名称', en: 'Warehouse name' } }),
        field({ name: 'creatorName', joined: true, form: false, search: true, filter: 'like', sortable: true, label: { zh: '制单人', en: 'Created by' } }),
      ],
    },
  ],
  listView: 'selectMaterialInVOPage',
  commands: [effective, notEffective],
  lines: { field: 'details', label: { zh: '入库明细', en: 'Lines' }, meta: lineMeta, totals: ['qty', 'amount'] },
  number: { field: 'docNo', manual: false, bizType: 'MIN' },
};

export const allReceiptPermissions = {
  material_in_add: true,
  material_in_edit: true,
  material_in_delete: true,
  material_in_view: true,
  material_in_effective: true,
  material_in_not_effective: true,
};

export const materialTypeMeta: ResourceMeta = {
  name: 'material-type',
  service: 'bluebird-basic',
  path: '/api/bluebird-basic/material-type',
  menuCode: 'material_type',
  label: { zh: '物料分类', en: 'Material types' },
  paged: true,
  fields: [
    field({ name: 'parentId', type: 'id', valueType: 'id', list: false, filter: 'equal' }),
    field({ name: 'name', search: true, filter: 'like', label: { zh: '分类名称', en: 'Name' } }),
    field({ name: 'code', label: { zh: '分类编码', en: 'Code' } }),
  ],
  actions: ['page', 'detail', 'submit', 'remove'],
  permissions: {},
  tree: { parentField: 'parentId', labelField: 'name', lazy: false },
};
