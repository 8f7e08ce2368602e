import type { ResourceMeta, Row } from './types';

/** audit_status keys of a document that went through approval: IN_APPROVAL, APPROVED, REJECTED. */
export const APPROVAL_STATES = [2, 3, 4];

/** Whether a resource's rows go through the approval workflow: it declares startProcess and names its table. */
export const hasApproval = (meta: ResourceMeta): boolean => Boolean(meta.table) && Boolean(meta.commands?.some((c) => c.name === 'startProcess'));

/**
 * The workflow business key `<table>:<id>` of a row whose approval can be followed (in approval, approved or
 * rejected), or undefined.
 */
export function approvalKey(meta: ResourceMeta, row: Row): string | undefined {
  if (!hasApproval(meta) || row.id === undefined || row.id === null) return undefined;
  const state = Number(row[meta.states?.field ?? 'status']);
  return APPROVAL_STATES.includes(state) ? `${meta.table}:${String(row.id)}` : undefined;
}
