export type I18nText = { zh?: string; en?: string };

export type FieldType =
  | 'string'
  | 'text'
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
  | 'image';

/** The JSON type of a field's value on the wire (metadata valueType). */
export type ValueType = 'string' | 'int' | 'bool' | 'id' | 'datetime';

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
  filter?: string;
  search?: boolean;
  sortable?: boolean;
  list?: boolean;
  form?: boolean;
  readonly?: boolean;
  dict?: string;
  dictBiz?: boolean;
  treeUrl?: string;
  /** A select field's choices: the rows of this list endpoint, labelled by selectLabel, valued by id. */
  selectUrl?: string;
  selectLabel?: string;
  span?: number;
  multiline?: boolean;
  /** Masked for all but the super user and write-only in forms; secretRows limits that to the rows whose field matches a key. */
  secret?: boolean;
  secretRows?: { field: string; keys: string[] };
}

export type ResourceAction = 'list' | 'page' | 'detail' | 'submit' | 'remove' | 'export' | string;

export interface ResourceMeta {
  name: string;
  service: string;
  path: string;
  menuCode: string;
  label: I18nText;
  tree?: boolean;
  paged?: boolean;
  fields: FieldMeta[];
  actions: ResourceAction[];
  permissions: Partial<Record<'add' | 'edit' | 'delete' | 'view' | 'export', string>> & Record<string, string | undefined>;
}

export interface DictItem {
  id?: string;
  dictKey: string;
  dictValue: string;
  sort?: number;
}

export type Row = Record<string, unknown> & { id?: string; version?: number };
