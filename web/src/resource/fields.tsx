import { DatePicker, Input, InputNumber, Select, Switch, Tag, TreeSelect, Image, type FormItemProps } from 'antd';
import type { Rule } from 'antd/es/form';
import dayjs, { type Dayjs } from 'dayjs';
import { useMemo } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { TFunction } from 'i18next';
import { localized } from '../i18n';
import { getDictionary, getSelectRows, getTree, type TreeNode } from './api';
import { dictTagColor } from './dictColor';
import { labelWidth } from './commands';
import { decimalProblem, formatDecimal, isDecimalField } from './decimal';
import DecimalInput from './DecimalInput';
import ImageInput from './ImageInput';
import RichTextEditor from './RichTextEditor';
import RemoteSelect, { knownLabelOf, RefCell, RefInput } from './RemoteSelect';
import type { DictItem, FieldMeta, Row } from './types';

export const DATE_FMT = 'YYYY-MM-DD';
export const DATETIME_FMT = 'YYYY-MM-DD HH:mm:ss';

export const fieldLabel = (f: FieldMeta): string => localized(f.label) || f.name;

/** Query key of a dictionary (its values are localized by the server, so the language is part of it). */
export const dictKey = (code: string | undefined, biz: boolean | undefined, lang: string) => ['dict', code, biz ?? false, lang];

/** A dictionary's items, undefined until they are loaded. */
export function useDictItems(field: FieldMeta): DictItem[] | undefined {
  const { i18n } = useTranslation();
  const code = field.type === 'dict' ? field.dict : undefined;
  const { data } = useQuery({
    queryKey: dictKey(code, field.dictBiz, i18n.language),
    queryFn: () => getDictionary(code!, field.dictBiz),
    enabled: Boolean(code),
    staleTime: 5 * 60_000,
  });
  return data;
}

export function useDict(field: FieldMeta): DictItem[] {
  return useDictItems(field) ?? [];
}

/**
 * The key a dictionary field shows, or undefined for none: an empty value, and 0 unless the dictionary has a
 * key "0" (an integer column holds 0 for "not chosen": a purchase receipt's other-receipt reason; yes_no and
 * button_func do have a key 0). Until the items are loaded 0 shows empty rather than as a bare "0".
 */
export function dictShownKey(value: unknown, items: DictItem[] | undefined): string | undefined {
  if (value === null || value === undefined || value === '') return undefined;
  const key = String(value);
  if (key === '0' && !items?.some((d) => String(d.dictKey) === '0')) return undefined;
  return key;
}

interface TreeOption {
  title: string;
  value: string;
  children?: TreeOption[];
}

const toTreeOptions = (nodes: TreeNode[]): TreeOption[] =>
  nodes.map((n) => ({
    title: n.title ?? n.name ?? String(n.value ?? n.id ?? ''),
    value: String(n.value ?? n.id ?? n.key ?? ''),
    children: n.children ? toTreeOptions(n.children) : undefined,
  }));

function TreeInput({ field, ...rest }: { field: FieldMeta; value?: string; onChange?: (v: string) => void; disabled?: boolean }) {
  const { i18n } = useTranslation();
  const { data } = useQuery({
    queryKey: ['tree', field.treeUrl, undefined, i18n.language],
    queryFn: () => getTree(field.treeUrl!),
    enabled: Boolean(field.treeUrl),
    staleTime: 30_000,
  });
  return <TreeSelect allowClear treeDefaultExpandAll treeData={toTreeOptions(data ?? [])} {...rest} />;
}

function DictSelect({ field, value, ...rest }: { field: FieldMeta; value?: string; onChange?: (v: string) => void; disabled?: boolean; placeholder?: string }) {
  const items = useDictItems(field);
  return <Select allowClear options={(items ?? []).map((d) => ({ value: String(d.dictKey), label: d.dictValue }))} value={dictShownKey(value, items)} {...rest} />;
}

const findTitle = (nodes: TreeNode[], id: string): string | undefined => {
  for (const n of nodes) {
    if (String(n.value ?? n.id ?? n.key) === id) return n.title ?? n.name;
    const f = n.children ? findTitle(n.children, id) : undefined;
    if (f) return f;
  }
  return undefined;
};

/** A tree field's cell: the titles of its ids (comma lists too); 0 is the root, shown empty. */
export function TreeCell({ field, value }: { field: FieldMeta; value: unknown }) {
  const { i18n } = useTranslation();
  const ids = value === null || value === undefined ? [] : String(value).split(',').filter((v) => v && v !== '0');
  const { data } = useQuery({
    queryKey: ['tree', field.treeUrl, undefined, i18n.language],
    queryFn: () => getTree(field.treeUrl!),
    enabled: Boolean(field.treeUrl) && ids.length > 0,
    staleTime: 30_000,
  });
  return <>{ids.map((id) => findTitle(data ?? [], id) ?? id).join(', ')}</>;
}

/** Coloured tag of a dictionary value (spec §4 colours). */
export function DictCell({ field, value }: { field: FieldMeta; value: unknown }) {
  const items = useDictItems(field);
  const key = dictShownKey(value, items);
  if (key === undefined) return null;
  const item = items?.find((d) => String(d.dictKey) === key);
  return <Tag color={dictTagColor(field.dict ?? '', field.name, value)}>{item?.dictValue ?? String(value)}</Tag>;
}

const INTEGER = /^-?\d+$/;

/**
 * Form values in the JSON types the server declares (metadata valueType): the controls of dictionary
 * and select fields hold strings, and integer columns reject "1". Decimals stay strings, written at
 * their scale (null when empty): they are exact on the wire.
 */
export function wireValues(fields: FieldMeta[], values: Record<string, unknown>): Record<string, unknown> {
  const out = { ...values };
  for (const f of fields) {
    const v = out[f.name];
    if (f.valueType === 'int' && typeof v === 'string' && INTEGER.test(v)) out[f.name] = Number(v);
    else if (isDecimalField(f) && (v === '' || typeof v === 'string')) out[f.name] = v === '' ? null : formatDecimal(v, f.scale);
  }
  return out;
}

/**
 * The add form's starting values: each form field's declared default (metadata default), in the type its
 * control holds (dictionary and select controls hold strings, number inputs numbers, switches booleans; a date
 * declared `today` starts as the day the form is opened).
 */
export function formDefaults(fields: FieldMeta[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const f of fields) {
    if (f.default === undefined || f.form === false || f.readonly) continue;
    if (f.default === 'today' && (f.type === 'date' || f.type === 'datetime')) out[f.name] = dayjs().format(f.type === 'date' ? DATE_FMT : DATETIME_FMT);
    else if (f.valueType === 'bool') out[f.name] = f.default === 'true';
    else if (f.valueType === 'int' && !f.dict && !f.selectUrl && INTEGER.test(f.default)) out[f.name] = Number(f.default);
    else out[f.name] = f.default;
  }
  return out;
}

/** The choices of a select field: rows of its list endpoint (a page or an array). */
function useSelectOptions(field: FieldMeta, enabled = true) {
  const { data } = useQuery({
    queryKey: ['select', field.selectUrl],
    queryFn: () => getSelectRows(field.selectUrl!),
    enabled: enabled && Boolean(field.selectUrl),
    staleTime: 30_000,
  });
  return useMemo(
    () => (data ?? []).map((r) => ({ value: String(r.id), label: String(r[field.selectLabel ?? 'name'] ?? r.id) })),
    [data, field.selectLabel],
  );
}

/** A select field's control; 0 is "none" on the wire and shows empty. */
function SelectInput({ field, value, onChange, ...rest }: { field: FieldMeta; value?: unknown; onChange?: (v: string) => void; disabled?: boolean; placeholder?: string; id?: string }) {
  const options = useSelectOptions(field);
  const shown = value === null || value === undefined || value === '' || String(value) === '0' ? undefined : String(value);
  return <Select allowClear showSearch optionFilterProp="label" options={options} value={shown} onChange={(v?: string) => onChange?.(v ?? '0')} {...rest} />;
}

/** A select field's cell: the label of the chosen row. */
export function SelectCell({ field, value }: { field: FieldMeta; value: unknown }) {
  const id = value === null || value === undefined || value === '' || String(value) === '0' ? '' : String(value);
  const options = useSelectOptions(field, id !== '');
  return <>{id ? (options.find((o) => o.value === id)?.label ?? id) : ''}</>;
}

/**
 * Width of a field's table column, from what it holds: the table has a fixed layout (see ResourceCrud), so
 * every column needs a width, and 150 px for a status tag or a date wastes the room that names need.
 */
export function columnWidth(f: FieldMeta): number {
  return Math.max(valueWidth(f), headerWidth(f));
}

/** The widest a column grows for its header: a longer one is cut (with its full text on hover). */
export const HEADER_MAX_WIDTH = 200;

/**
 * The width a column's header takes: its label in the header's bold 14 px font (labelWidth, plus a little for
 * the bold), the cell padding, and the sort arrows of a sortable field. English labels are long ("Effective
 * status" in a 100 px status column read "Effective …").
 */
export function headerWidth(f: FieldMeta): number {
  return Math.min(HEADER_MAX_WIDTH, Math.ceil(labelWidth(fieldLabel(f)) * 1.08) + 18 + (f.sortable ? 26 : 0));
}

function valueWidth(f: FieldMeta): number {
  if (f.remote) return 180; // code and name
  if (isDecimalField(f)) return 120; // up to 12 digits and a point at the common scales
  switch (f.type) {
    case 'bool':
    case 'dict':
      return 100;
    case 'int':
      return 80; // a sort order, a count: up to seven digits
    case 'image':
    case 'video':
      return 80;
    case 'date':
      return 120;
    case 'datetime':
      return 170; // YYYY-MM-DD HH:mm:ss
    case 'id':
      return 170; // 18-19 digits
    case 'text':
    case 'html':
      return 240;
    default:
      if (f.max && f.max <= 20) return 120;
      if (f.max && f.max > 255) return 220;
      return 150;
  }
}

/** Alignment of a field's column: numbers line up on the right. */
export const columnAlign = (f: FieldMeta): 'right' | undefined => (isDecimalField(f) ? 'right' : undefined);

/** A field holding the id of another resource's row (metadata ref), drawn by its label: 0 is none. */
export const isRefField = (f: FieldMeta): boolean => Boolean(f.remote) || (Boolean(f.ref) && f.type === 'id');

/** Table cell of a field; row gives a reference field the label its row carries (own: the row's own fields, see joinedLabelNames). */
export function renderCell(field: FieldMeta, value: unknown, t: TFunction, row?: Row, own?: ReadonlySet<string>) {
  if (isRefField(field)) return <RefCell field={field} value={value} row={row} own={own} />;
  if (isDecimalField(field)) return formatDecimal(value, field.scale);
  switch (field.type) {
    case 'dict':
      return <DictCell field={field} value={value} />;
    case 'bool':
      return value === true || value === 1 || value === '1' ? t('crud.yes') : value === undefined || value === null ? '' : t('crud.no');
    case 'password':
      return value ? '******' : '';
    case 'tree':
      return <TreeCell field={field} value={value} />;
    case 'select':
      return <SelectCell field={field} value={value} />;
    case 'image':
      return typeof value === 'string' && value ? <Image src={value} width={40} height={40} /> : null;
    case 'video':
      return typeof value === 'string' && value ? <VideoCell link={value} /> : null;
    case 'html':
      return typeof value === 'string' ? htmlText(value) : '';
    default:
      return value === null || value === undefined ? '' : String(value);
  }
}

/** The text a reader sees of rich text (a table cell shows no markup). */
function htmlText(html: string): string {
  const body = new DOMParser().parseFromString(html, 'text/html').body;
  body.querySelectorAll('p, div, li, br, h1, h2, h3, h4, h5, h6, tr').forEach((block) => block.append(' '));
  return (body.textContent ?? '').replace(/\s+/g, ' ').trim();
}

/** The form control of a field; row (being edited) gives a reference field the label of its value (own: as in renderCell). */
export function fieldInput(field: FieldMeta, disabled: boolean, t: TFunction, row?: Row, own?: ReadonlySet<string>) {
  const label = fieldLabel(field);
  // A read-only control (a view dialog, a field that cannot change) asks for nothing: no 请输入… / 请选择….
  const ask = (key: 'crud.required' | 'crud.selectRequired') => (disabled ? undefined : t(key, { label }));
  if (field.remote) {
    return <RemoteSelect field={field} disabled={disabled} known={knownLabelOf(field, row, own)} placeholder={ask('crud.selectRequired')} />;
  }
  // A reference whose target has no remote search (no Lookup): its label, read-only, never a box for a typed id.
  if (isRefField(field)) return <RefInput field={field} known={knownLabelOf(field, row, own)} />;
  if (isDecimalField(field)) return <DecimalInput field={field} disabled={disabled} />;
  switch (field.type) {
    case 'text':
      return <Input.TextArea rows={3} maxLength={field.max} disabled={disabled} placeholder={ask('crud.required')} />;
    case 'int':
      return <InputNumber precision={0} style={{ width: '100%' }} disabled={disabled} />;
    case 'bool':
      return <Switch disabled={disabled} />;
    case 'date':
      return <DatePicker style={{ width: '100%' }} format={DATE_FMT} disabled={disabled} placeholder={disabled ? '' : undefined} />;
    case 'datetime':
      return <DatePicker showTime style={{ width: '100%' }} format={DATETIME_FMT} disabled={disabled} placeholder={disabled ? '' : undefined} />;
    case 'dict':
      return <DictSelect field={field} disabled={disabled} placeholder={ask('crud.selectRequired')} />;
    case 'tree':
      return <TreeInput field={field} disabled={disabled} />;
    case 'select':
      return <SelectInput field={field} disabled={disabled} placeholder={ask('crud.selectRequired')} />;
    case 'password':
      return <Input.Password maxLength={field.max} disabled={disabled} autoComplete="new-password" />;
    case 'image':
      return <ImageInput disabled={disabled} />;
    case 'video':
      return <ImageInput video disabled={disabled} />;
    case 'html':
      return <RichTextEditor label={label} disabled={disabled} />;
    default:
      if (field.multiline) return <Input.TextArea rows={3} maxLength={field.max} disabled={disabled} />;
      return <Input maxLength={field.max} disabled={disabled} placeholder={ask('crud.required')} />;
  }
}

/** Validation rules from the metadata, with its messages in the current language. */
export function fieldRules(field: FieldMeta, t: TFunction): Rule[] {
  const label = fieldLabel(field);
  const rules: Rule[] = [];
  if (field.required) {
    const msg =
      localized(field.messages?.required) ||
      (field.type === 'dict' || field.type === 'tree' || field.type === 'select' || field.remote ? t('crud.selectRequired', { label }) : t('crud.required', { label }));
    if (field.type === 'string' || field.type === 'text' || field.type === 'html' || field.type === 'password') {
      rules.push({ required: true, message: msg, whitespace: field.type !== 'password' });
    } else {
      // Numbers, dictionary keys (often 0), ids and dates: any non-empty value, whatever its type
      // (antd's default string check would reject 0 and 1 with the required message).
      rules.push({
        required: true,
        validator: (_r, v: unknown) =>
          v === undefined || v === null || v === '' || (Array.isArray(v) && v.length === 0) ? Promise.reject(new Error(msg)) : Promise.resolve(),
      });
    }
  }
  if (field.max && (field.type === 'string' || field.type === 'text' || field.type === 'password')) {
    rules.push({ max: field.max, message: localized(field.messages?.max) || t('crud.maxLength', { label, max: field.max }) });
  }
  if (field.rules?.length) {
    // In the server's order, and only the first broken rule's message (a phone "123": 长度不为11位, not also 格式不正确).
    const compiled = field.rules.map((r) => ({ re: new RegExp(r.pattern), message: localized(r.message) || label }));
    rules.push({
      validator: (_r, v: unknown) => {
        if (v === undefined || v === null || v === '') return Promise.resolve();
        const broken = compiled.find((r) => !r.re.test(String(v)));
        return broken ? Promise.reject(new Error(broken.message)) : Promise.resolve();
      },
    });
  } else if (field.pattern) {
    rules.push({ pattern: new RegExp(field.pattern), message: localized(field.messages?.pattern) || label });
  }
  if (field.equals) {
    const other = field.equals;
    rules.push(({ getFieldValue }) => ({
      validator: (_r, v: unknown) =>
        !v || v === getFieldValue(other) ? Promise.resolve() : Promise.reject(new Error(localized(field.equalsMessage) || t('register.mismatch'))),
    }));
  }
  if (isDecimalField(field)) {
    rules.push({
      validator: (_r, v: unknown) => {
        const problem = decimalProblem(field, v);
        if (!problem) return Promise.resolve();
        const custom = problem.key === 'decimalMin' ? field.messages?.min : problem.key === 'decimalMax' ? field.messages?.max : undefined;
        return Promise.reject(new Error(localized(custom) || t(`crud.${problem.key}`, { label, ...problem })));
      },
    });
  }
  return rules;
}

/**
 * The form's fields with, after each one the metadata asks for twice (confirm: a new user's password), its
 * confirmation copy: a password input that must hold the same value (equals), required when the field is.
 */
export function withConfirmFields(fields: FieldMeta[]): FieldMeta[] {
  return fields.flatMap((f) =>
    f.confirm
      ? [f, { name: f.confirm.name, type: 'password', valueType: 'string', label: f.confirm.label, required: f.required, max: f.max, equals: f.name, equalsMessage: f.confirm.message, list: false }]
      : [f],
  );
}

/** Form.Item props converting between wire values (strings) and control values (dayjs, booleans). */
export function valueProps(field: FieldMeta): Partial<FormItemProps> {
  if (field.type === 'date' || field.type === 'datetime') {
    const fmt = field.type === 'date' ? DATE_FMT : DATETIME_FMT;
    return {
      getValueProps: (v: unknown) => ({ value: typeof v === 'string' && v ? dayjs(v) : undefined }),
      normalize: (d: Dayjs | null) => (d ? d.format(fmt) : ''),
    };
  }
  if (field.type === 'bool') {
    return {
      valuePropName: 'checked',
      getValueProps: (v: unknown) => ({ checked: v === true || v === 1 || v === '1' }),
    };
  }
  if (field.type === 'tree') {
    return {
      getValueProps: (v: unknown) => ({ value: v === null || v === undefined || v === '' || v === '0' ? undefined : String(v) }),
      // A cleared parent is the root (0); other tree fields send an empty value.
      normalize: (v: unknown) => (v === undefined || v === null ? (field.name === 'parentId' ? '0' : '') : v),
    };
  }
  if (field.type === 'dict' || field.type === 'id') {
    return { getValueProps: (v: unknown) => ({ value: v === null || v === undefined || v === '' ? undefined : String(v) }) };
  }
  return {};
}

/** A video link in a table: opened in a new tab, where the browser plays it. */
function VideoCell({ link }: { link: string }) {
  const { t } = useTranslation();
  return (
    <a href={link} target="_blank" rel="noreferrer">
      {t('crud.playVideo')}
    </a>
  );
}
