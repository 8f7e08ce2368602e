export type I18nText = { zh?: string; en?: string };

export type FieldType =
  | 'string'
  | 'text'
  | 'html'
  | 'int'
  | 'decimal'
  | 'bool'
  | 'date'
  | 'datetime'
  | 'id'
  | 'dict'
  | 'password'
  | 'tree'
  | 'select'
  | 'image'
  | 'video';

/** The JSON type of a field's value on the wire (metadata valueType). */
export type ValueType = 'string' | 'int' | 'bool' | 'id' | 'datetime' | 'decimal';

/** One field of the resource metadata (GET /api/meta/resource). */
export interface FieldMeta {
  name: string;
  type: FieldType;
  /** JSON type the server reads and writes; absent in older metadata (treated as string). */
  valueType?: ValueType;
  label: I18nText;
  required?: boolean;
  messages?: Partial<Record<'required' | 'max' | 'min' | 'pattern', I18nText>>;
  max?: number;
  min?: number;
  pattern?: string;
  /** Format rules (server rules.go): a non-empty value must match each pattern in turn, else the first failing one's message. */
  rules?: FieldRule[];
  /** The form asks for the value twice (a password): the copy's field name, label and mismatch message. */
  confirm?: { name: string; label: I18nText; message: I18nText };
  /** A confirmation copy drawn by the form (withConfirmFields): its value must equal this field's, else equalsMessage. */
  equals?: string;
  equalsMessage?: I18nText;
  filter?: string;
  search?: boolean;
  sortable?: boolean;
  list?: boolean;
  form?: boolean;
  readonly?: boolean;
  /** The value a new row gets when the body leaves the field out (Go tag default=); the add form starts with it. */
  default?: string;
  dict?: string;
  dictBiz?: boolean;
  treeUrl?: string;
  /** A select field's choices: the rows of this list endpoint, labelled by selectLabel, valued by id. */
  selectUrl?: string;
  selectLabel?: string;
  span?: number;
  multiline?: boolean;
  /** Decimal fields: digits after the point; the server answers every value with exactly this many. */
  scale?: number;
  /** Decimal fields: inclusive bounds, as decimal strings. */
  minValue?: string;
  maxValue?: string;
  /** Decimal fields: the value must be > 0. */
  positive?: boolean;
  /** `service/name` of the resource whose row id the field holds. */
  ref?: string;
  /** The field is picked by remote search (the target is a large list). */
  remote?: Remote;
  /** A view column read from a referenced row: shown, never in the form nor submitted. */
  joined?: boolean;
  /** The field is the resource's document number (see ResourceMeta.number). */
  number?: boolean;
  /** Masked for all but the super user and write-only in forms; secretRows limits that to the rows whose field matches a key. */
  secret?: boolean;
  secretRows?: { field: string; keys: string[] };
}

/** A format rule of a text field (metadata rules): pattern as JavaScript and Go read it, and its zh/en message. */
export interface FieldRule {
  pattern: string;
  message: I18nText;
}

export type ResourceAction = 'list' | 'page' | 'detail' | 'submit' | 'remove' | 'export' | 'import' | string;

/** How a field is picked by remote search: `GET url?current=1&size=20&<searchParam>=<text>` answers a page. */
export interface Remote {
  url: string;
  valueField: string;
  labelField: string;
  codeField?: string;
  searchParam: string;
}

/** A named read endpoint: the base fields plus joined columns (`fields`, each `joined`). */
export interface ResourceView {
  name: string;
  /** Full path, `/api/<service>/<name>/<view>`. */
  path: string;
  paged: boolean;
  fields: FieldMeta[];
}

/** A named POST action over `ids` (`POST path?ids=...&<params>`). */
export interface Command {
  name: string;
  /** Tells apart commands sharing a name (effective / not effective). */
  key: string;
  path: string;
  label: I18nText;
  permission?: string;
  params?: Record<string, string | number | boolean>;
  confirm?: I18nText;
  /** The states a row must be in: its `field` value is one of `values`. */
  from?: { field: string; values: (string | number)[] };
  row?: boolean;
  toolbar?: boolean;
}

/** Child rows saved with the parent: the submit body and the detail carry them under `field`. */
export interface Lines {
  field: string;
  label: I18nText;
  meta: ResourceMeta;
  /** Decimal columns summed under the lines. */
  totals?: string[];
  /** Fills a line from a row of another list (the FEFO stock picker of an outbound document). */
  picker?: LinePicker;
}

/** A field's value must be one of `values` (a command's state, a declaration's condition). */
export interface FieldStates {
  field: string;
  values: (string | number)[];
}

/**
 * A line picker (server resource.LinePicker): `GET url?<header params>&<match params>` answers rows (a page, or a
 * plain list). Kind `stock`: a line's button lists the stock buckets of its material in FEFO order; picking one
 * copies `fill` (line field <- row field) into the line, which shows its bucket's available quantity, a larger
 * `qtyField` refused inline. Kind `lines`: a button above the lines lists the rows the document may take; each one
 * ticked becomes a line (`fill`), a row already taken (`key`) is not offered again, and the line keeps the row's
 * `availableField`, a larger `qtyField` refused inline.
 */
export interface LinePicker {
  kind: 'stock' | 'lines' | string;
  url: string;
  /** List parameter <- header field, each required before the picker opens. */
  header: Record<string, string>;
  /** List parameter <- header field, sent when set. */
  optional?: Record<string, string>;
  /** List parameters read from the line: the first must have a value, the others narrow the list when set. */
  match?: { param: string; field: string }[];
  /** Line field <- picked row's field. */
  fill: Record<string, string>;
  /** The row field identifying what a `lines` pick takes. */
  key?: string;
  /** Line fields only the picker fills, drawn as the text of another line field (copied from the row). */
  shown?: Record<string, string>;
  qtyField?: string;
  availableField?: string;
  /** The line's unit field: the available quantity is in the row's unit, compared only when the line's is the same. */
  unitField?: string;
  /** The list parameter of a typed keyword. */
  search?: string;
  columns: PickerColumn[];
  /** Only documents whose header field has one of the values take from stock. */
  when?: FieldStates;
}

/** A column of a picker's list: the row's fields joined by a space, a decimal with its scale and unit. */
export interface PickerColumn {
  fields: string[];
  label: I18nText;
  scale?: number;
  dict?: string;
  unit?: string;
  width?: number;
}

/** Rows another resource keeps about a document, listed read-only on its detail view (its stock ledger rows). */
export interface RelatedRows {
  label: I18nText;
  /** `service/name` of the resource whose metadata draws the rows. */
  resource: string;
  /** Full list path (a paged view). */
  path: string;
  params?: Record<string, string>;
  /** The list parameter given the document's id. */
  key: string;
  when?: FieldStates;
}

/** A printable document: the print view's signature boxes. */
export interface PrintSpec {
  signatures: I18nText[];
}

/** The rows form a tree: `GET path/tree` (or `path/lazy-tree?parentId=`) answers its nodes. */
export interface TreeSpec {
  parentField: string;
  labelField: string;
  lazy?: boolean;
}

/** A field filled from the tenant's code rule when a row is inserted with it empty. */
export interface NumberSpec {
  field: string;
  manual?: boolean;
  bizType: string;
}

/** How other resources pick one of these rows (copied into their fields' `remote`). */
export interface Lookup {
  url: string;
  labelField: string;
  codeField?: string;
  searchParam: string;
}

/**
 * The state rules of a resource whose rows move through states (server Spec.States): the integer state
 * `field`, and the states a row may be edited and removed in (an empty list: none). Resources without
 * states send none, and their rows may be edited and removed in any state.
 */
export interface StateRules {
  field: string;
  initial?: number;
  edit?: (number | string)[];
  remove?: (number | string)[];
}

export interface ResourceMeta {
  name: string;
  service: string;
  path: string;
  /** The resource's table: a row's workflow business key is `<table>:<id>`. */
  table?: string;
  menuCode: string;
  label: I18nText;
  paged?: boolean;
  fields: FieldMeta[];
  actions: ResourceAction[];
  permissions: Partial<Record<'add' | 'edit' | 'delete' | 'view' | 'export' | 'import', string>> & Record<string, string | undefined>;
  views?: ResourceView[];
  /** The view the screen's table reads; absent: list/page. */
  listView?: string;
  commands?: Command[];
  lines?: Lines;
  /** Further line sets the resource's own hooks save (a production plan's required materials). */
  extraLines?: Lines[];
  related?: RelatedRows[];
  print?: PrintSpec;
  tree?: TreeSpec;
  number?: NumberSpec;
  lookup?: Lookup;
  states?: StateRules;
  /** A screen of a resource shown under a further menu: the field values its rows have (text). A new row starts with them and the form keeps them. */
  fixed?: Record<string, string>;
}

export interface DictItem {
  id?: string;
  dictKey: string;
  dictValue: string;
  sort?: number;
}

export type Row = Record<string, unknown> & { id?: string; version?: number };
