import { useEffect, useMemo, useState, type CSSProperties, type UIEvent } from 'react';
import { Select, Spin } from 'antd';
import { useInfiniteQuery, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { getRefRow, searchRemote } from './api';
import type { FieldMeta, Remote, Row } from './types';

/** How long typing must pause before the search goes out. */
export const SEARCH_DELAY_MS = 300;

/** Distance from the bottom of the option list (px) at which the next page is fetched. */
const LOAD_MORE_WITHIN = 40;

const present = (v: unknown): boolean => v !== undefined && v !== null && v !== '';

/** The id a reference field holds, or undefined for none (empty, or 0 as BladeX writes "no row"). */
export const refId = (v: unknown): string | undefined => (present(v) && String(v) !== '0' ? String(v) : undefined);

/** An option's text: `code label` of the row (the label alone when there is no code). */
export function remoteOptionLabel(remote: Remote, row: Row): string {
  const text = [remote.codeField ? row[remote.codeField] : undefined, row[remote.labelField]].filter(present).map(String).join(' ');
  return text || String(row[remote.valueField || 'id'] ?? '');
}

/**
 * The names a reference field's joined label column may have: `<field>Name` or, for an `...Id`
 * field, `<field without Id>Name` (materialId: materialName). A name among `own`, the row's own
 * (not joined) fields, is not one: a storage location's warehouseName is its own name, not the
 * name of its warehouseId.
 */
export function joinedLabelNames(field: FieldMeta, own?: ReadonlySet<string>): string[] {
  const base = field.name.replace(/Id$/, '');
  const names = base !== field.name ? [`${field.name}Name`, `${base}Name`] : [`${field.name}Name`];
  return own ? names.filter((n) => !own.has(n)) : names;
}

/** The label a row already carries for its reference field (see joinedLabelNames). */
export function joinedLabel(field: FieldMeta, row: Row | undefined, own?: ReadonlySet<string>): string | undefined {
  if (!row) return undefined;
  const hit = joinedLabelNames(field, own).map((n) => row[n]).find(present);
  return hit === undefined ? undefined : String(hit);
}

/** A label known for one id: the joined label of the row being edited, valid while the field still holds that id. */
export interface KnownLabel {
  id: string;
  label: string;
}

/** The joined label of a row's reference, tied to the id it names. */
export function knownLabelOf(field: FieldMeta, row: Row | undefined, own?: ReadonlySet<string>): KnownLabel | undefined {
  const id = refId(row?.[field.name]);
  const label = joinedLabel(field, row, own);
  return id && label ? { id, label } : undefined;
}

/** Cache key of a referenced row; a picked option's row is put there, so its label needs no request. */
const refKey = (field: FieldMeta, id: string | undefined) => ['ref', field.ref, id];

/**
 * Tells a reference field the label of an id it is given from elsewhere (a stock bucket's position): the
 * referenced row as its remote search would answer it, so its label needs no request.
 */
export function primeRefRow(client: QueryClient, field: FieldMeta, id: string, code: unknown, label: unknown): void {
  const remote = field.remote;
  if (!remote || !present(label)) return;
  const row: Row = { id, [remote.labelField]: label };
  if (remote.codeField && present(code)) row[remote.codeField] = code;
  client.setQueryData(refKey(field, id), row);
}

/** The label of a reference: the one already known (joined column), else the referenced row's (picked or fetched). */
export function useRefLabel(field: FieldMeta, id: string | undefined, known: string | undefined): string | undefined {
  const { data } = useQuery({
    queryKey: refKey(field, id),
    queryFn: () => getRefRow(field.ref!, id!),
    // Without a remote search there is no label field to read from the row.
    enabled: Boolean(id && !known && field.ref && field.remote),
    staleTime: 5 * 60_000,
  });
  if (known) return known;
  return data && field.remote ? remoteOptionLabel(field.remote, data) : undefined;
}

/** A reference field's table cell: the row's joined label, else the referenced row's, else the id. */
export function RefCell({ field, value, row, own }: { field: FieldMeta; value: unknown; row?: Row; own?: ReadonlySet<string> }) {
  const id = refId(value);
  const label = useRefLabel(field, id, row ? joinedLabel(field, row, own) : undefined);
  return <>{id ? (label ?? id) : ''}</>;
}

/**
 * The form control of a reference whose target declares no remote search (no Lookup): there is nothing to
 * pick from, so it shows the row's joined label (else the id) read-only, and nothing for none (0).
 */
export function RefInput({ value, known, id, style }: { field: FieldMeta; value?: unknown; known?: KnownLabel; id?: string; style?: CSSProperties }) {
  const ref = refId(value);
  const label = known && known.id === ref ? known.label : ref;
  return (
    <Select<string>
      id={id}
      style={style}
      disabled
      value={ref}
      options={ref ? [{ value: ref, label: label ?? ref }] : []}
      suffixIcon={null}
    />
  );
}

interface RemoteSelectProps {
  field: FieldMeta;
  value?: unknown;
  onChange?: (id: string | null) => void;
  /** The label of the row's stored value when the row carries it (see knownLabelOf). */
  known?: KnownLabel;
  disabled?: boolean;
  placeholder?: string;
  id?: string;
  status?: '' | 'error' | 'warning';
  style?: CSSProperties;
}

interface Option {
  value: string;
  label: string;
  row?: Row;
}

/**
 * A select over a large list (materials, customers): what the user types is searched on the server
 * (`remote.url` with `remote.searchParam`), 20 rows at a time, the next page fetched when the list is
 * scrolled to its end. Nothing is fetched until the list is opened; the current value shows its
 * label from the row or from the referenced row's detail.
 */
export default function RemoteSelect({ field, value, onChange, known, ...rest }: RemoteSelectProps) {
  const remote = field.remote!;
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [open, setOpen] = useState(false);
  const [typed, setTyped] = useState('');
  const [text, setText] = useState('');
  useEffect(() => {
    const timer = setTimeout(() => setText(typed.trim()), SEARCH_DELAY_MS);
    return () => clearTimeout(timer);
  }, [typed]);

  const search = useInfiniteQuery({
    queryKey: ['remote', remote.url, remote.searchParam, text],
    queryFn: ({ pageParam }) => searchRemote(remote, text, pageParam),
    initialPageParam: 1,
    getNextPageParam: (last) => (last.current < last.pages ? last.current + 1 : undefined),
    enabled: open,
    staleTime: 30_000,
  });

  const id = refId(value);
  const currentLabel = useRefLabel(field, id, known && known.id === id ? known.label : undefined);
  const options = useMemo(() => {
    const seen = new Set<string>();
    const out: Option[] = [];
    for (const page of search.data?.pages ?? []) {
      for (const r of page.records) {
        const v = String(r[remote.valueField || 'id']);
        if (seen.has(v)) continue;
        seen.add(v);
        out.push({ value: v, label: remoteOptionLabel(remote, r), row: r });
      }
    }
    // The current value among the options, so that the select shows its label, not its id; not
    // while a search runs, where it would stand among rows that do not match.
    if (id && !seen.has(id) && text === '') out.unshift({ value: id, label: currentLabel ?? id });
    return out;
  }, [search.data, remote, id, currentLabel, text]);

  const { hasNextPage, isFetchingNextPage, fetchNextPage } = search;
  const onPopupScroll = (e: UIEvent<HTMLDivElement>) => {
    const el = e.currentTarget;
    if (hasNextPage && !isFetchingNextPage && el.scrollTop + el.clientHeight >= el.scrollHeight - LOAD_MORE_WITHIN) void fetchNextPage();
  };

  return (
    <Select<string, Option>
      {...rest}
      allowClear
      showSearch={{ filterOption: false, onSearch: setTyped }}
      value={id}
      options={options}
      onOpenChange={(o) => {
        setOpen(o);
        if (!o) setTyped('');
      }}
      onChange={(v, option) => {
        const chosen = Array.isArray(option) ? option[0] : option;
        if (v !== undefined && chosen?.row) queryClient.setQueryData(refKey(field, v), chosen.row);
        onChange?.(v ?? null);
      }}
      loading={search.isFetching}
      notFoundContent={search.isFetching ? <Spin size="small" /> : t('crud.remoteEmpty')}
      onPopupScroll={onPopupScroll}
      popupRender={(menu) => (
        <>
          {menu}
          {isFetchingNextPage && (
            <div style={{ textAlign: 'center', padding: 4 }}>
              <Spin size="small" />
            </div>
          )}
        </>
      )}
    />
  );
}
