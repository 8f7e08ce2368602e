import { cloneElement, lazy, memo, startTransition, Suspense, useCallback, useDeferredValue, useEffect, useMemo, useRef, useState, type ReactElement, type ReactNode } from 'react';
import { App as AntApp, Button, Card, Col, DatePicker, Form, Input, Row, Space, Spin, Table, Tooltip, type FormInstance, type TablePaginationConfig, type TableProps } from 'antd';
import type { SorterResult } from 'antd/es/table/interface';
import { DeleteOutlined, DownloadOutlined, PlusOutlined, ReloadOutlined, UploadOutlined } from '@ant-design/icons';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { TFunction } from 'i18next';
import DragDialog from '../components/DragDialog';
import { useUserStore } from '../store/user';
import { toast } from '../util/notify';
import { website } from '../config';
import { localized } from '../i18n';
import { exportRows, getDetail, listRows, removeRows, submitRow } from './api';
import { dropKeptSecrets, keepsSecret, SecretInput, withoutSecrets } from './secret';
import { columnAlign, formDefaults, wireValues, fieldInput, fieldLabel, fieldRules, renderCell, valueProps, withConfirmFields } from './fields';
import { buildFilters, isRangeField, type SearchValues } from './filters';
import { isDecimalField } from './decimal';
import { joinedLabelNames } from './RemoteSelect';
import { CommandToolbar, commandLabel, inFromState, labelWidth, permittedCommands, useCommandRunner } from './commands';
import { editableExtraLines, editableLines, isPhone, lineCells, linesBody } from './lines';
import { relatedOf } from './RelatedRows';
import { loadTreeRoot, loadWholeTree, useLazyTreeLevels } from './resourceTree';
import { fieldErrorsOf, formErrors } from './serverErrors';
import { identityFields, listColumnWidth, pinnedCount } from './pinning';
import { compactWidth, fieldPriority, fitColumns, fitWidths, PRIORITY } from './columnFit';
import { ColumnChooser, useAvailableWidth, useColumnChoice } from './ColumnChooser';
import NumberInput from './NumberInput';
import RowButton from './RowButton';
import SearchActions from './SearchActions';
import { approvalKey, hasApproval } from './approval';
import type { Command, FieldMeta, ResourceMeta, Row as DataRow } from './types';

// The line grid is drawn only by master/detail resources: its code loads with the first such dialog.
const LineGrid = lazy(() => import('./LineGrid'));
// So is the import dialog, with the first import.
const ImportDialog = lazy(() => import('./ImportDialog'));
// And a document's related rows (its ledger) and print view.
const RelatedSection = lazy(() => import('./RelatedRows'));
const PrintView = lazy(() => import('./PrintView'));
// A document's approval progress (history and highlighted diagram), with the first one opened.
const ProgressDialog = lazy(() => import('../flow/ProcessProgress').then((m) => ({ default: m.ProgressDialog })));

export { RowButton };

/** Forms of more fields than this (besides full-width text) are laid out in three columns. */
export const WIDE_FORM_FIELDS = 12;

const isFullWidth = (f: FieldMeta) => f.type === 'text' || Boolean(f.multiline);

/** The row number column: up to four digits. */
const INDEX_WIDTH = 50;
/** What a page's own row buttons add to the action column (one button of a few words; more: actionWidth). */
const ROW_ACTION_WIDTH = 80;

/** Page sizes above this render as a virtual table. */
const VIRTUAL_ABOVE = 50;

export type Mode = 'add' | 'edit' | 'view';

type Op = 'add' | 'edit' | 'delete' | 'view' | 'export' | 'import';

/** What custom toolbar buttons and row actions can do with the page. */
export interface CrudContext {
  selected: DataRow[];
  reload: () => void;
  /** Opens the add dialog, optionally with preset values (e.g. the parent of a child row). */
  openAdd: (initial?: DataRow) => void;
  openEdit: (row: DataRow) => void;
  openView: (row: DataRow) => void;
  /** Permission check of a button code (true when the code is empty). */
  can: (code?: string) => boolean;
}

/** Context of a custom form input. */
export interface InputContext {
  mode: Mode;
  disabled: boolean;
  form: FormInstance<DataRow>;
  row?: DataRow;
}

export interface ResourceCrudProps {
  meta: ResourceMeta;
  /** Extra toolbar buttons (custom business actions). */
  toolbar?: (ctx: CrudContext) => ReactNode;
  /** Extra row actions. */
  rowActions?: (row: DataRow, ctx: CrudContext) => ReactNode;
  /** Width of the action column when rowActions add buttons. */
  actionWidth?: number;
  /** Fixed list parameters (the node chosen in a tree beside the table, ...); undefined and empty values are left out, but for `_null`/`_notnull` filters, which take none. */
  params?: Record<string, string | undefined>;
  /** List endpoint under meta.path instead of list/page (e.g. 'parent-list'). */
  listEndpoint?: string;
  /** Whether to list at all (false while a required outer choice is missing). */
  enabled?: boolean;
  /** Replaces the table cell of a field. */
  cells?: Record<string, (value: unknown, row: DataRow, ctx: CrudContext) => ReactNode>;
  /**
   * Columns not in the metadata (enriched names like deptName), placed after the metadata columns; `priority`
   * ranks one among the others when the width leaves some out (see columnFit; default: after the metadata's).
   */
  extraColumns?: ExtraColumn[];
  /**
   * The priority of columns by field name where the page knows better than the metadata which to keep when the
   * width leaves some out (lower first; see columnFit.PRIORITY).
   */
  columnPriority?: Record<string, number>;
  /** Field names listed as columns, in order (default: the metadata's list fields). */
  listFields?: string[];
  /** The searchable fields the search bar offers (default: every one the metadata marks; [] hides the bar). */
  searchFields?: string[];
  /** Replaces the form control of a field. */
  inputs?: Record<string, (ctx: InputContext) => ReactNode>;
  /** Adjusts the form fields per mode (hide the password on edit, add a field, ...). */
  formFields?: (fields: FieldMeta[], mode: Mode) => FieldMeta[];
  /** Default values of a new row. */
  addDefaults?: () => DataRow;
  /** Form values to submit body. */
  toBody?: (values: DataRow, mode: Mode, row?: DataRow) => DataRow;
  /** Hides standard buttons. */
  hide?: Op[];
  dialogWidth?: number;
  /** Card title (tree pages show the chosen node). */
  title?: ReactNode;
  /** Row click (e.g. choose the parent dictionary whose children show beside). */
  onRowClick?: (row: DataRow) => void;
  /** Highlighted row id. */
  activeRowId?: string;
  /** Runs when a view or edit dialog has fetched its row's detail (a detail may record a read). */
  onDetail?: (row: DataRow, mode: Mode) => void;
  /** Query key namespace for invalidation from outside (default meta.path). */
  queryKey?: string;
  /** Size of the table (small by default). */
  tableSize?: 'small' | 'middle';
  /**
   * Draws the rows of a tree resource (meta.tree) as an expandable tree. Set by the generic page only:
   * pages of their own (departments, menus) lay out their trees themselves.
   */
  treeTable?: boolean;
}

/** A column of the page's own beside the metadata's. */
export type ExtraColumn = NonNullable<TableProps<DataRow>['columns']>[number] & { priority?: number; min?: number };

/** The width of the checkbox column. */
const SELECTION_WIDTH = 48;

interface DataTableProps {
  columns: NonNullable<TableProps<DataRow>['columns']>;
  records: DataRow[];
  size: 'small' | 'middle';
  virtual: boolean;
  bodyHeight: number;
  scrollX: number;
  activeRowId?: string;
  onRow?: TableProps<DataRow>['onRow'];
  selectedKeys: string[];
  onSelect: (rows: DataRow[]) => void;
  onSortChange: (sorter: SorterResult<DataRow> | SorterResult<DataRow>[]) => void;
  pagination: TablePaginationConfig | false;
  expandable?: TableProps<DataRow>['expandable'];
  /** The table is wider than its room: its header and a horizontal scrollbar stay in view. */
  overflow: boolean;
}

const rowKey = (r: DataRow) => String(r.id);

const stickyScroll = { offsetHeader: 0, offsetScroll: 0, getContainer: () => (document.querySelector('.bb-content') as HTMLElement | null) ?? window };

/**
 * The table of a resource page, memoised: antd re-renders every mounted row whenever a Table renders, so
 * the page's other state (dialogs, the search form, the loading flag) must not reach it.
 */
const DataTable = memo(function DataTable(p: DataTableProps) {
  const { activeRowId, onSelect, onSortChange } = p;
  const rowClassName = useCallback((r: DataRow) => (activeRowId && String(r.id) === activeRowId ? 'bb-row-active' : ''), [activeRowId]);
  const rowSelection = useMemo<TableProps<DataRow>['rowSelection']>(
    () => ({
      selectedRowKeys: p.selectedKeys,
      onChange: (_keys, rows) => onSelect(rows),
      preserveSelectedRowKeys: true,
      checkStrictly: true,
    }),
    [p.selectedKeys, onSelect],
  );
  const onChange = useCallback<NonNullable<TableProps<DataRow>['onChange']>>((_p, _f, sorter, extra) => {
    if (extra.action === 'sort') onSortChange(sorter);
  }, [onSortChange]);
  return (
    <Table<DataRow>
      rowKey={rowKey}
      size={p.size}
      bordered
      columns={p.columns}
      dataSource={p.records}
      tableLayout="fixed"
      virtual={p.virtual}
      scroll={p.virtual ? { x: p.scrollX, y: p.bodyHeight } : { x: p.scrollX }}
      // A table wider than its room keeps its scrollbar at the bottom of the page's scrolling area, in view
      // whatever the number of rows (at its own foot, ten rows down, nobody saw it).
      sticky={!p.virtual && p.overflow ? stickyScroll : undefined}
      rowClassName={rowClassName}
      onRow={p.onRow}
      rowSelection={rowSelection}
      onChange={onChange}
      pagination={p.pagination}
      expandable={p.expandable}
    />
  );
});

/** Whether the permission of an operation is held; an operation without a declared code is open. */
export function allowed(meta: ResourceMeta, op: Op, permission: Record<string, boolean>): boolean {
  const code = meta.permissions?.[op];
  return !code || permission[code] === true;
}

/**
 * Whether the state rules let a row be edited (or removed): its state is among the rule's list, compared as
 * text like a command's `from`. No rules, or no list for the operation: any state.
 */
export function stateAllows(meta: ResourceMeta, op: 'edit' | 'remove', row: DataRow): boolean {
  const rules = meta.states;
  const states = rules?.[op];
  if (!rules || !states) return true;
  const v = row[rules.field];
  return states.some((s) => String(s) === String(v));
}

/** Removes empty children arrays so that tree tables show no expander on leaves. */
export function pruneChildren(rows: DataRow[]): DataRow[] {
  return rows.map((r) => {
    const kids = r.children as DataRow[] | undefined;
    if (!Array.isArray(kids)) return r;
    if (kids.length === 0) {
      const { children: _c, ...rest } = r;
      return rest;
    }
    return { ...r, children: pruneChildren(kids) };
  });
}

const isTextSearch = (f: FieldMeta) => (f.type === 'string' || f.type === 'text' || f.type === 'id') && !f.remote;

/** The widest a search control grows for its placeholder. */
export const SEARCH_MAX_WIDTH = 280;

/**
 * The width of a search control: 180 px (a reference 220), or as wide as its placeholder up to SEARCH_MAX_WIDTH
 * ("Please select Effective status" showed as "Please select Effect…"), with room for the clear icon and a
 * select's arrow.
 */
export function searchWidth(f: FieldMeta, t: TFunction): number {
  const text = isTextSearch(f);
  const placeholder = t(text || f.type === 'int' || isDecimalField(f) ? 'crud.required' : 'crud.selectRequired', { label: fieldLabel(f) });
  const need = labelWidth(placeholder) + (text ? 40 : 56);
  return Math.min(SEARCH_MAX_WIDTH, Math.max(f.remote ? 220 : 180, need));
}

function SearchBar({ name, fields, onSearch }: { name: string; fields: FieldMeta[]; onSearch: (v: SearchValues) => void }) {
  const { t } = useTranslation();
  const [form] = Form.useForm<SearchValues>();
  if (fields.length === 0) return null;
  return (
    <Form form={form} name={`search-${name}`} className="bb-search" onFinish={onSearch} layout="inline" style={{ rowGap: 8, marginBottom: 12 }}>
      {fields.map((f) =>
        isRangeField(f) ? (
          <Form.Item key={f.name} name={f.name} label={fieldLabel(f)}>
            <DatePicker.RangePicker placeholder={[t('crud.startDate'), t('crud.endDate')]} />
          </Form.Item>
        ) : (
          <Form.Item key={f.name} name={f.name} label={fieldLabel(f)} {...(f.type === 'bool' ? {} : valueProps(f))}>
            {isTextSearch(f) ? (
              <Input allowClear placeholder={t('crud.required', { label: fieldLabel(f) })} style={{ width: searchWidth(f, t) }} />
            ) : (
              // The control itself is the form item's child: a wrapper would receive its value and onChange.
              cloneElement(fieldInput(f, false, t) as ReactElement<{ style?: object }>, { style: { width: searchWidth(f, t) } })
            )}
          </Form.Item>
        ),
      )}
      <SearchActions
        onReset={() => {
          form.resetFields();
          onSearch({});
        }}
      />
    </Form>
  );
}

/** Height of a virtual table body: the viewport below the search bar and toolbar, at least 360 px. */
function useViewportBodyHeight(active: boolean): number {
  const measure = () => Math.max(360, window.innerHeight - 330);
  const [height, setHeight] = useState(measure);
  useEffect(() => {
    if (!active) return undefined;
    const onResize = () => setHeight(measure());
    window.addEventListener('resize', onResize);
    return () => window.removeEventListener('resize', onResize);
  }, [active]);
  return height;
}

const cleanParams = (p?: Record<string, string | undefined>): Record<string, string> => {
  const out: Record<string, string> = {};
  Object.entries(p ?? {}).forEach(([k, v]) => {
    if (v !== undefined && (v !== '' || /_(not)?null$/.test(k))) out[k] = v;
  });
  return out;
};

/** The generic resource page drawn from the server's resource metadata (spec §2 data screens). */
export default function ResourceCrud(props: ResourceCrudProps) {
  const { meta, toolbar, rowActions, params, listEndpoint, enabled = true, cells, extraColumns, inputs, formFields: adjustForm } = props;
  const { t, i18n } = useTranslation();
  const queryClient = useQueryClient();
  // antd's hook-based modal renders inside App's context (theme, locale) and unmounts with the tree.
  const { modal } = AntApp.useApp();
  const permission = useUserStore((s) => s.permission);
  const [current, setCurrent] = useState(1);
  const [size, setSize] = useState(website.pageSize);
  const [filters, setFilters] = useState<Record<string, string>>({});
  const [sort, setSort] = useState<{ descs?: string; ascs?: string }>({});
  const [selected, setSelected] = useState<DataRow[]>([]);
  const [dialog, setDialog] = useState<{ mode: Mode; row?: DataRow } | null>(null);
  const [saving, setSaving] = useState(false);
  const [importing, setImporting] = useState(false);
  // the id of the document whose print view is open
  const [printing, setPrinting] = useState<string | null>(null);
  const [progressKey, setProgressKey] = useState<string | null>(null);
  const [form] = Form.useForm<DataRow>();
  const hidden = new Set(props.hide ?? []);
  const ns = props.queryKey ?? meta.path;
  // The table reads the resource's list view (with joined columns) unless the page names its own endpoint.
  const view = listEndpoint || !meta.listView ? undefined : meta.views?.find((v) => v.name === meta.listView);
  const viewFields = useMemo(() => view?.fields ?? [], [view]);
  const treeSpec = props.treeTable && !listEndpoint ? meta.tree : undefined;
  // A search lists the matching rows flat: their parents may not match.
  const treeView = treeSpec !== undefined && Object.keys(filters).length === 0;

  const fixed = useMemo(() => cleanParams(params), [params]);
  const key = ['resource', ns, listEndpoint ?? '', treeView ? 'tree' : 'rows', fixed, current, size, filters, sort] as const;
  const { data, isFetching, refetch } = useQuery({
    queryKey: key,
    queryFn: () =>
      treeView
        ? (treeSpec.lazy ? loadTreeRoot : loadWholeTree)(meta, treeSpec, fixed, sort)
        : listRows(meta, current, size, { ...filters, ...fixed }, sort, listEndpoint),
    placeholderData: keepPreviousData,
    enabled,
  });
  const lazyTree = useLazyTreeLevels(meta, treeView && treeSpec.lazy ? treeSpec : undefined, ['resource', ns], fixed, sort);
  const reload = useCallback(() => void refetch(), [refetch]);
  // A new page of rows renders at low priority: React slices that render into short tasks instead of one long
  // one when the rows arrive (the budget: no task over 100 ms on a 200-row page).
  const page = useDeferredValue(data);
  const isTree = page?.tree === true;
  const lazyLevels = treeView && treeSpec.lazy;
  const { withChildren } = lazyTree;
  // A lazy tree's unloaded levels keep their empty children arrays: those draw the expanders.
  const records = useMemo(
    () => (enabled ? (lazyLevels ? withChildren(page?.records ?? []) : pruneChildren(page?.records ?? [])) : []),
    [page, enabled, lazyLevels, withChildren],
  );
  const expandable = useMemo<TableProps<DataRow>['expandable']>(
    () => (lazyLevels ? { expandedRowKeys: lazyTree.expanded, onExpandedRowsChange: lazyTree.onExpandedChange } : undefined),
    [lazyLevels, lazyTree.expanded, lazyTree.onExpandedChange],
  );
  // Pages of more than 50 rows are virtual tables: only the rows in view are mounted (antd re-renders every
  // mounted row on each render of a table). Smaller pages stay plain tables, with table semantics and
  // scrolling with the page; so do tree lists (departments, menus), which expand in place.
  const virtual = !isTree && size > VIRTUAL_ABOVE;
  const bodyHeight = useViewportBodyHeight(virtual);
  const searchOnly = props.searchFields;
  const searchFields = useMemo(
    () => [...meta.fields, ...viewFields].filter((f) => f.search && (!searchOnly || searchOnly.includes(f.name))),
    [meta.fields, viewFields, searchOnly],
  );
  // The row's own fields: none of them is the joined label of a reference (see joinedLabelNames).
  const ownFields = useMemo(() => new Set(meta.fields.filter((f) => !f.joined).map((f) => f.name)), [meta.fields]);
  // A reference field shows the label its row carries; the view's column of that label is not drawn again,
  // and sorting the field's column sorts by it.
  const labelColumns = useMemo(() => {
    const m = new Map<string, FieldMeta>();
    for (const f of meta.fields) {
      if (!f.remote) continue;
      const names = joinedLabelNames(f, ownFields);
      const column = viewFields.find((v) => names.includes(v.name));
      if (column) m.set(f.name, column);
    }
    return m;
  }, [meta.fields, viewFields, ownFields]);
  const listFields = useMemo(() => {
    const all = [...meta.fields, ...viewFields];
    if (props.listFields) {
      return props.listFields.map((n) => all.find((f) => f.name === n)).filter((f): f is FieldMeta => Boolean(f));
    }
    const shownAsLabel = new Set([...labelColumns.values()]);
    return all.filter((f) => f.list !== false && f.type !== 'password' && !shownAsLabel.has(f));
  }, [meta.fields, viewFields, props.listFields, labelColumns]);
  const can = (op: Op) => !hidden.has(op) && allowed(meta, op, permission);
  const has = (action: string) => meta.actions.includes(action);
  const mode = dialog?.mode;
  const lines = useMemo(() => editableLines(meta), [meta]);
  const extraLines = useMemo(() => editableExtraLines(meta), [meta]);
  // every line set of the form: the engine's lines and those the resource saves itself
  const lineSets = useMemo(() => [...(lines ? [lines] : []), ...extraLines], [lines, extraLines]);
  const formFields = useMemo(() => {
    const base = meta.fields.filter((f) => f.form !== false && !f.joined && !lineSets.some((l) => l.field === f.name));
    return withConfirmFields(adjustForm && mode ? adjustForm(base, mode) : base);
  }, [meta.fields, adjustForm, mode, lineSets]);
  const rowCommands = useMemo(() => permittedCommands(meta, permission, 'row'), [meta, permission]);
  const toolbarCommands = useMemo(() => permittedCommands(meta, permission, 'toolbar'), [meta, permission]);

  // Search sends only non-empty filters and goes back to page 1; searching again for the same rows
  // reads them again (a user clicks 搜索 to see what changed meanwhile, e.g. an approval).
  const onSearch = (v: SearchValues) => {
    const next = buildFilters(v, searchFields);
    if (current === 1 && JSON.stringify(next) === JSON.stringify(filters)) {
      reload();
      return;
    }
    startTransition(() => {
      setFilters(next);
      setCurrent(1);
    });
  };

  const openDialog = async (m: Mode, row?: DataRow, initial?: DataRow) => {
    form.resetFields();
    setDialog({ mode: m, row });
    if (m === 'add') {
      form.setFieldsValue({ ...formDefaults(meta.fields), ...meta.fixed, ...Object.fromEntries(lineSets.map((l) => [l.field, []])), ...props.addDefaults?.(), ...initial });
      return;
    }
    if (row?.id && has('detail')) {
      try {
        const detail = await getDetail(meta, String(row.id));
        form.setFieldsValue(m === 'edit' ? withoutSecrets(meta.fields, detail) : detail);
        setDialog({ mode: m, row: detail });
        props.onDetail?.(detail, m);
      } catch {
        form.setFieldsValue(m === 'edit' ? withoutSecrets(meta.fields, row) : row);
      }
    } else if (row) {
      form.setFieldsValue(m === 'edit' ? withoutSecrets(meta.fields, row) : row);
    }
  };

  const ctx: CrudContext = {
    selected,
    reload,
    openAdd: (initial) => void openDialog('add', undefined, initial),
    openEdit: (row) => void openDialog('edit', row),
    openView: (row) => void openDialog('view', row),
    can: (code) => !code || permission[code] === true,
  };

  // Cells and row actions read the context when they render; the columns need not change with it.
  const ctxRef = useRef(ctx);
  ctxRef.current = ctx;
  const openRef = useRef(openDialog);
  openRef.current = openDialog;

  const invalidate = () => queryClient.invalidateQueries({ queryKey: ['resource', ns] });

  const save = async () => {
    const values = await form.validateFields();
    const row = dialog?.row;
    let body: DataRow = wireValues(formFields, values);
    for (const l of lineSets) body[l.field] = linesBody(l, form.getFieldValue(l.field) as DataRow[] | undefined);
    if (dialog?.mode === 'edit' && row?.id) {
      body = dropKeptSecrets(formFields, body, row);
      body.id = String(row.id);
      if (row.version !== undefined) body.version = row.version;
    }
    if (props.toBody) body = props.toBody(body, dialog?.mode ?? 'add', row);
    setSaving(true);
    try {
      await submitRow(meta, body);
      toast.success(dialog?.mode === 'edit' ? t('crud.updated') : t('crud.added'));
      setDialog(null);
      await invalidate();
    } catch (e) {
      // The toast names the first problem; each field's (or line's) own message goes under it.
      const errors = fieldErrorsOf(e);
      if (errors) {
        const cells = lineSets.map((l) => ({ field: l.field, cells: new Set(lineCells(l).map((f) => f.name)) }));
        form.setFields(formErrors(errors, new Set(formFields.map((f) => f.name)), cells));
      }
      throw e;
    } finally {
      setSaving(false);
    }
  };

  const afterCommand = useCallback(async () => {
    setSelected([]);
    await queryClient.invalidateQueries({ queryKey: ['resource', ns] });
  }, [queryClient, ns]);
  const runCommand = useCommandRunner(afterCommand);
  const commandRef = useRef(runCommand);
  commandRef.current = runCommand;

  const remove = (ids: string[]) =>
    modal.confirm({
      title: t('navbar.tip'),
      content: t('crud.deleteConfirm'),
      okText: t('common.ok'),
      cancelText: t('common.cancel'),
      onOk: async () => {
        await removeRows(meta, ids);
        toast.success(t('crud.deleted'));
        setSelected([]);
        await invalidate();
      },
    });

  const bulkDelete = () => {
    if (selected.length === 0) {
      toast.warning(t('crud.selectOne'));
      return;
    }
    remove(selected.map((r) => String(r.id)));
  };

  const doExport = () => void exportRows(meta, { ...filters, ...fixed }, localized(meta.label) || meta.name).catch(() => undefined);

  const canView = has('detail') && can('view');
  const canEdit = has('submit') && can('edit');
  const canDelete = has('remove') && can('delete');
  // a printable document prints for whoever may view it
  const canPrint = Boolean(meta.print) && canView;
  // a document sent for approval shows its progress to whoever may view it
  const canFollow = hasApproval(meta) && canView;
  const removeRef = useRef(remove);
  removeRef.current = remove;
  const firstIndex = ((page?.current ?? current) - 1) * (page?.size ?? size);
  const lang = i18n.language;
  // Whether the page's own row buttons draw anything (a page may pass rowActions that answer nothing, as the
  // dictionaries beside their entries do): the first row tells.
  const probeRow = records[0];
  const ownRowActions = rowActions ? (probeRow ? Boolean(rowActions(probeRow, ctxRef.current)) : true) : false;
  const columns = useMemo(() => {
    const labels = { index: t('crud.index'), action: t('crud.action'), view: t('crud.view'), edit: t('crud.edit'), delete: t('crud.delete'), print: t('doc.print'), progress: t('flow.progress') };
    // The columns that tell the rows apart stay in view when a wide table scrolls sideways (with the index and
    // the checkbox before them, which antd pins with the column after it); a phone's table is too narrow to pin.
    const widthOfField = listColumnWidth(meta, listFields);
    const pinned = isPhone() ? 0 : pinnedCount(meta, listFields, widthOfField);
    const left = pinned > 0 ? ('left' as const) : undefined;
    const identity = new Set(identityFields(meta, listFields));
    const cols: ExtraColumn[] = [
      ...(isTree
        ? []
        : [
            {
              title: labels.index,
              key: '__index',
              width: INDEX_WIDTH,
              priority: PRIORITY.index,
              align: 'center' as const,
              fixed: left,
              render: (_v: unknown, _r: DataRow, i: number) => firstIndex + i + 1,
            },
          ]),
      ...listFields.map((f, i) => {
        // A reference column sorts by the label it shows (the view's joined column).
        const sortBy = labelColumns.get(f.name) ?? f;
        return {
          title: fieldLabel(f),
          dataIndex: f.name,
          key: sortBy.name,
          width: widthOfField(f),
          min: compactWidth(f, widthOfField(f)),
          fixed: i < pinned ? left : undefined,
          priority: props.columnPriority?.[f.name] ?? fieldPriority(f, i, identity),
          align: columnAlign(f),
          ellipsis: true,
          sorter: sortBy.sortable && !isTree ? true : undefined,
          render: (v: unknown, row: DataRow) => (cells?.[f.name] ? cells[f.name](v, row, ctxRef.current) : renderCell(f, v, t, row, ownFields)),
        };
      }),
      ...(extraColumns ?? []).map((c, i) => ({ ...c, priority: c.priority ?? PRIORITY.normal + listFields.length + i })),
    ];
    const rowButtons = [canView, canEdit, canDelete, canPrint, canFollow].filter(Boolean).length;
    if (rowButtons > 0 || ownRowActions || rowCommands.length > 0) {
      cols.push({
        title: labels.action,
        key: '__action',
        fixed: 'right',
        width: props.actionWidth,
        render: (_v, row) => (
          <span className="bb-row-actions" onClick={(e) => e.stopPropagation()}>
            {canView && <RowButton onClick={() => void openRef.current('view', row)}>{labels.view}</RowButton>}
            {canEdit && (
              <RowButton disabled={!stateAllows(meta, 'edit', row)} onClick={() => void openRef.current('edit', row)}>
                {labels.edit}
              </RowButton>
            )}
            {canDelete && (
              <RowButton danger disabled={!stateAllows(meta, 'remove', row)} onClick={() => removeRef.current([String(row.id)])}>
                {labels.delete}
              </RowButton>
            )}
            {rowCommands.map((c) => (
              <RowButton key={c.key || c.name} disabled={!inFromState(c, row)} onClick={() => commandRef.current(c, [String(row.id)])}>
                {commandLabel(c)}
              </RowButton>
            ))}
            {canPrint && <RowButton onClick={() => setPrinting(String(row.id))}>{labels.print}</RowButton>}
            {canFollow && approvalKey(meta, row) && <RowButton onClick={() => setProgressKey(approvalKey(meta, row)!)}>{labels.progress}</RowButton>}
            {rowActions?.(row, ctxRef.current)}
          </span>
        ),
      });
    }
    // Columns get widths and the table a fixed layout: with an automatic layout the browser measures every
    // cell of every row to size the columns.
    // The action column is as wide as its buttons' labels (each padded 6 px a side), a page's own buttons
    // counted as one of a few words, and the cell's padding.
    const buttonsWidth = [canView && labels.view, canEdit && labels.edit, canDelete && labels.delete, canPrint && labels.print, canFollow && labels.progress]
      .filter((l): l is string => Boolean(l))
      .reduce((n, l) => n + 12 + labelWidth(l), 0);
    const commandsWidth = rowCommands.reduce((n, c: Command) => n + 12 + labelWidth(commandLabel(c)), 0);
    const widthOf = (c: (typeof cols)[number]): number =>
      Number(c.width ?? (c.key === '__action' ? buttonsWidth + commandsWidth + (ownRowActions ? ROW_ACTION_WIDTH : 0) + 20 : 150));
    return cols.map((c) => ({ ...c, width: widthOf(c) }));
    // lang: labels and cells follow the language
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [meta, isTree, listFields, labelColumns, cells, extraColumns, rowActions, ownRowActions, rowCommands, canView, canEdit, canDelete, canPrint, canFollow, firstIndex, props.actionWidth, props.columnPriority, ownFields, t, lang]);
  // The columns that fit the table's width, and those the user chose in the chooser (spec §2, issue #13).
  const [tableBox, available] = useAvailableWidth<HTMLDivElement>();
  const userId = String(useUserStore((s) => s.userInfo.userId) ?? '');
  const [choice, setChoice] = useColumnChoice(userId, ns);
  const fit = useMemo(() => columns.map((c) => ({ key: String(c.key), width: Number(c.width), min: c.min, priority: c.priority })), [columns]);
  const shownKeys = useMemo(() => fitColumns(fit, available - SELECTION_WIDTH, choice), [fit, available, choice]);
  const shownColumns = useMemo(() => {
    const widths = fitWidths(fit.filter((c) => shownKeys.has(c.key)), available - SELECTION_WIDTH);
    return columns.filter((c) => shownKeys.has(String(c.key))).map(({ priority: _p, min: _m, ...c }) => ({ ...c, width: widths.get(String(c.key)) ?? c.width }));
  }, [columns, fit, shownKeys, available]);
  const chooserColumns = useMemo(
    () => columns.filter((c) => c.priority !== undefined).map((c) => ({ key: String(c.key), title: c.key === '__index' ? t('crud.rowNumber') : (c.title as ReactNode) })),
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [columns, t, lang],
  );
  const scrollX = SELECTION_WIDTH + shownColumns.reduce((n, c) => n + Number(c.width), 0);

  const selectedKeys = useMemo(() => selected.map((r) => String(r.id)), [selected]);
  const onSortChange = useCallback((sorter: SorterResult<DataRow> | SorterResult<DataRow>[]) => {
    const s = Array.isArray(sorter) ? sorter[0] : sorter;
    // The column key names the sorted field (a reference column's key is its label column).
    const col = s?.order ? String(s.columnKey ?? s.field) : undefined;
    startTransition(() => setSort(col ? (s.order === 'descend' ? { descs: col } : { ascs: col }) : {}));
  }, []);
  const total = page?.total ?? 0;
  const pagination = useMemo<TablePaginationConfig | false>(
    () =>
      isTree
        ? false
        : {
            current,
            pageSize: size,
            total,
            showSizeChanger: true,
            pageSizeOptions: website.pageSizes,
            showTotal: (n) => t('crud.total', { total: n }),
            onChange: (next, pageSize) =>
              startTransition(() => {
                if (pageSize !== size) {
                  setSize(pageSize);
                  setCurrent(1);
                } else setCurrent(next);
              }),
          },
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [isTree, current, size, total, t, lang],
  );
  const onRowClick = props.onRowClick;
  const onRow = useMemo(() => (onRowClick ? (r: DataRow) => ({ onClick: () => onRowClick(r), style: { cursor: 'pointer' } }) : undefined), [onRowClick]);

  // A master/detail form, or one of many fields, takes three columns in a wide dialog (the material's 21 fields
  // in two columns were eleven rows, twice the screen's height).
  const wideForm = lineSets.length > 0 || (!props.dialogWidth && formFields.filter((f) => !isFullWidth(f)).length > WIDE_FORM_FIELDS);
  const title = mode === 'add' ? t('crud.addTitle') : mode === 'edit' ? t('crud.editTitle') : t('crud.viewTitle');

  return (
    <Card className="bb-resource" size="small" title={props.title}>
      {searchFields.length > 0 && <SearchBar name={meta.name} fields={searchFields} onSearch={onSearch} />}
      <Space style={{ marginBottom: 12 }} wrap>
        {has('submit') && can('add') && (
          <Button type="primary" icon={<PlusOutlined />} onClick={() => void openDialog('add')} disabled={!enabled}>
            {t('crud.add')}
          </Button>
        )}
        {has('remove') && can('delete') && (
          <Button danger icon={<DeleteOutlined />} onClick={bulkDelete}>
            {t('crud.delete')}
          </Button>
        )}
        {has('export') && can('export') && (
          <Button icon={<DownloadOutlined />} onClick={doExport}>
            {t('crud.export')}
          </Button>
        )}
        {has('import') && can('import') && (
          <Button icon={<UploadOutlined />} onClick={() => setImporting(true)}>
            {t('crud.import')}
          </Button>
        )}
        <CommandToolbar commands={toolbarCommands} selected={selected} run={runCommand} />
        {toolbar?.(ctx)}
        <Tooltip title={t('crud.refresh')}>
          <Button icon={<ReloadOutlined />} aria-label={t('crud.refresh')} onClick={reload} />
        </Tooltip>
        <ColumnChooser columns={chooserColumns} shown={shownKeys} choice={choice} onChange={setChoice} />
      </Space>
      <Spin spinning={isFetching} delay={150}>
        <div ref={tableBox} className="bb-table-box">
        <DataTable
          columns={shownColumns}
          records={records}
          size={props.tableSize ?? 'small'}
          virtual={virtual}
          bodyHeight={bodyHeight}
          scrollX={scrollX}
          activeRowId={props.activeRowId}
          onRow={onRow}
          selectedKeys={selectedKeys}
          onSelect={setSelected}
          onSortChange={onSortChange}
          pagination={pagination}
          expandable={expandable}
          overflow={scrollX > available}
        />
        </div>
      </Spin>
      <DragDialog
        title={title}
        open={dialog !== null}
        // A master/detail dialog is wide enough for the line grid at 1280 px; narrower screens cap it and the
        // grid scrolls sideways; a phone's opens maximised.
        width={props.dialogWidth ?? (wideForm ? 1160 : 860)}
        fullscreen={lineSets.length > 0 && isPhone()}
        onCancel={() => setDialog(null)}
        destroyOnHidden
        footer={
          mode === 'view' ? (
            <Button onClick={() => setDialog(null)}>{t('crud.close')}</Button>
          ) : (
            <Space>
              <Button onClick={() => setDialog(null)}>{t('crud.cancel')}</Button>
              <Button type="primary" loading={saving} onClick={() => void save().catch(() => undefined)}>
                {t('crud.submit')}
              </Button>
            </Space>
          )
        }
      >
        <Form form={form} name={`crud-${meta.name}`} layout="vertical" validateTrigger="onBlur" disabled={mode === 'view'}>
          <Row gutter={16}>
            {formFields.map((f) => {
              const disabled = mode === 'view' || Boolean(f.readonly && mode === 'edit') || meta.fixed?.[f.name] !== undefined;
              const custom = inputs?.[f.name];
              const numbered = meta.number?.field === f.name ? meta.number : undefined;
              // The code rule fills an empty number: a new row may leave it empty, and only a manual one can be
              // required of the user when a row is edited.
              const ruled = keepsSecret(f, mode, dialog?.row) || (numbered && (!numbered.manual || mode === 'add')) ? { ...f, required: false } : f;
              const full = isFullWidth(f);
              return (
                <Col key={f.name} xs={24} md={full ? 24 : (f.span ?? 12)} lg={full || !wideForm ? undefined : 8}>
                  <Form.Item
                    name={f.name}
                    label={fieldLabel(f)}
                    rules={mode === 'view' ? [] : fieldRules(ruled, t)}
                    dependencies={f.equals ? [f.equals] : undefined}
                    validateTrigger={
                      custom
                        ? ['onChange', 'onBlur']
                        : f.type === 'string' || f.type === 'text' || f.type === 'password' || f.type === 'int' || isDecimalField(f)
                          ? 'onBlur'
                          : 'onChange'
                    }
                    {...(custom ? {} : valueProps(f))}
                  >
                    {custom ? (
                      custom({ mode: mode ?? 'add', disabled, form, row: dialog?.row })
                    ) : numbered ? (
                      <NumberInput spec={numbered} adding={mode === 'add'} disabled={disabled} />
                    ) : f.secret && mode !== 'view' ? (
                      <SecretInput field={f} editing={keepsSecret(f, mode, dialog?.row)} plain={fieldInput(f, disabled, t, dialog?.row, ownFields)} />
                    ) : (
                      fieldInput(f, disabled, t, dialog?.row, ownFields)
                    )}
                  </Form.Item>
                </Col>
              );
            })}
          </Row>
          {lineSets.length > 0 && (
            <Suspense fallback={<Spin />}>
              {lineSets.map((l) => (
                <LineGrid key={l.field} lines={l} disabled={mode === 'view'} parent={meta} />
              ))}
            </Suspense>
          )}
          {mode === 'view' && relatedOf(meta.related, dialog?.row).length > 0 && (
            <Suspense fallback={<Spin />}>
              {relatedOf(meta.related, dialog?.row).map((r) => (
                <RelatedSection key={r.path} related={r} row={dialog!.row!} />
              ))}
            </Suspense>
          )}
        </Form>
      </DragDialog>
      {printing && (
        <Suspense fallback={null}>
          <PrintView meta={meta} id={printing} onClose={() => setPrinting(null)} />
        </Suspense>
      )}
      {progressKey && (
        <Suspense fallback={null}>
          <ProgressDialog instance={{ businessKey: progressKey }} onClose={() => setProgressKey(null)} />
        </Suspense>
      )}
      {importing && (
        <Suspense fallback={null}>
          <ImportDialog meta={meta} onClose={() => setImporting(false)} onImported={invalidate} />
        </Suspense>
      )}
    </Card>
  );
}
