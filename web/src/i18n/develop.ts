/** Labels of the report screens (web/src/report) and the code generator (web/src/develop), zh and en. */
export const reportZh = {
  run: '查看报表',
  export: '导出 Excel',
  empty: '没有数据',
  truncated: '分组过多,只显示前 1000 组',
  chooseSource: '请选择数据来源',
  baseTable: '数据表本身',
  chooseGroups: '请选择分组字段',
  chooseMeasures: '请选择统计值',
  allColumns: '全部列',
  bucket: { day: '按日', month: '按月', year: '按年' },
  fn: { count: '数量', sum: '合计', avg: '平均', min: '最小', max: '最大' },
  chart: { bar: '柱状图', line: '折线图', pie: '饼图' },
};

export const reportEn: typeof reportZh = {
  run: 'View report',
  export: 'Export to Excel',
  empty: 'No data',
  truncated: 'Too many groups: only the first 1000 are shown',
  chooseSource: 'Choose a source',
  baseTable: 'The table itself',
  chooseGroups: 'Choose the grouping fields',
  chooseMeasures: 'Choose the aggregates',
  allColumns: 'All columns',
  bucket: { day: 'by day', month: 'by month', year: 'by year' },
  fn: { count: 'Count', sum: 'Sum of', avg: 'Average', min: 'Min', max: 'Max' },
  chart: { bar: 'Bar chart', line: 'Line chart', pie: 'Pie chart' },
};

export const developZh = {
  chooseTable: '请选择数据表',
  columns: '字段',
  column: '字段名',
  type: '类型',
  size: '长度',
  notNull: '必填',
  comment: '注释',
  generate: '代码生成',
  generated: '代码已生成',
};

export const developEn: typeof developZh = {
  chooseTable: 'Choose a table',
  columns: 'Columns',
  column: 'Column',
  type: 'Type',
  size: 'Size',
  notNull: 'Required',
  comment: 'Comment',
  generate: 'Generate code',
  generated: 'Code generated',
};
