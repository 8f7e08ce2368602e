import { getData, postQuery } from './common';
import { splitIds } from './tree';
import { useUserStore } from '../store/user';

/** User actions of spec §7: grant roles, reset passwords, enable or disable, platform details. */
export const grantUserRoles = (userIds: string[], roleIds: string[]) =>
  postQuery('/blade-user/grant', { userIds: userIds.join(','), roleIds: roleIds.join(',') });

/**
 * The roles all the users hold (one user: its roles), read from their details rather than from list rows
 * that a grant may have outdated: the role dialog opens with them ticked. tenantId: the users' tenant
 * when they share one (the super user's list holds every tenant's users).
 */
export async function heldRoles(userIds: string[]): Promise<{ roles: string[]; tenantId?: string }> {
  const users = await Promise.all(userIds.map((id) => getData<{ roleId?: string; tenantId?: string } | null>('/blade-user/detail', { id })));
  const [first, ...rest] = users.map((u) => splitIds(u?.roleId));
  const tenants = new Set(users.map((u) => u?.tenantId ?? ''));
  return { roles: (first ?? []).filter((r) => rest.every((roles) => roles.includes(r))), tenantId: tenants.size === 1 ? [...tenants][0] || undefined : undefined };
}

/**
 * The query of a role, department or post list for a user of tenantId: none for the signed-in user's own
 * tenant, tenantId for another (only the super user sees other tenants' users; the server lists that
 * tenant's rows for it).
 */
export function tenantQuery(tenantId: unknown): Record<string, string> | undefined {
  const t = typeof tenantId === 'string' ? tenantId : '';
  return t && t !== useUserStore.getState().tenantId ? { tenantId: t } : undefined;
}

export const resetPasswords = (userIds: string[]) => postQuery('/blade-user/reset-password', { userIds: userIds.join(',') });

/** enabledStatus 1 enables, 0 disables (the user's status column). */
export const setEnabled = (ids: string[], enabled: boolean) =>
  postQuery('/blade-user/enabledStatus', { ids: ids.join(','), enabledStatus: enabled ? 1 : 0 });

/** The list parameters of the user page: the chosen department (and its children, server side), and only the registrations waiting for approval (status 2). */
export function userListParams(deptId: string | undefined, pendingOnly = false): Record<string, string | undefined> {
  return { deptId: deptId || undefined, status: pendingOnly ? '2' : undefined };
}

/** Whether a user row is a registration waiting for approval (status 2). */
export const isPending = (status: unknown): boolean => Number(status) === 2;

/** Whether a user row is enabled (status 1). */
export const isEnabled = (status: unknown): boolean => Number(status) === 1;
