/** BladeX envelope `{code, success, msg, data}`. */
export interface R<T> {
  code: number;
  success: boolean;
  msg: string;
  data: T;
}

/** Paged data `{records, total, size, current, pages}`. */
export interface Page<T> {
  records: T[];
  total: number;
  size: number;
  current: number;
  pages: number;
}

export type Query = Record<string, string | number | boolean | undefined | null>;

export interface RequestMeta {
  /** false: do not send the bearer token. */
  isToken?: boolean;
  /** Tenant-Id header (token requests). */
  tenantId?: string;
}

declare module 'axios' {
  interface AxiosRequestConfig {
    meta?: RequestMeta;
  }
}
