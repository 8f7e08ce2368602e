import request from '../api/request';
import type { Page, R } from '../api/types';

/**
 * The workflow API (/api/blade-flow, /work/FLOW-API.md): lists, task actions, models, definitions,
 * instances, diagrams and histories. Ids travel as strings.
 */
export const FLOW = '/api/blade-flow';

export type Params = Record<string, string | number | undefined>;

async function get<T>(url: string, params?: Params): Promise<T> {
  return (await request.get<R<T>>(url, { params })).data.data;
}

async function post<T = unknown>(url: string, params?: Params, body: unknown = null): Promise<R<T>> {
  return (await request.post<R<T>>(url, body, { params })).data;
}

/** A deployed process definition (start-list, manager/list). */
export interface Definition {
  id: string;
  tenantId?: string;
  name: string;
  key: string;
  category?: string;
  categoryName?: string;
  version?: number;
  deploymentId?: string;
  resourceName?: string;
  suspensionState?: number;
  deploymentTime?: string;
  tenantIds?: string;
}

/** A task row of the claim, to-do, sent and done lists (api-contract §7). */
export interface TaskRow {
  taskId?: string;
  /** What the task is about: the document's title when a document started it. */
  title?: string;
  taskName?: string;
  taskDefinitionKey?: string;
  processInstanceId: string;
  processDefinitionId?: string;
  processDefinitionKey?: string;
  processDefinitionName?: string;
  processDefinitionVersion?: number;
  category?: string;
  categoryName?: string;
  businessId?: string;
  businessTable?: string;
  businessKey?: string;
  startUserId?: string;
  startUserName?: string;
  assignee?: string;
  assigneeName?: string;
  createTime?: string;
  startTime?: string;
  endTime?: string;
  claimTime?: string;
  processIsFinished?: boolean | string;
  comment?: string;
  [k: string]: unknown;
}

/** A running instance of follow/list. */
export interface InstanceRow {
  processInstanceId: string;
  processDefinitionId?: string;
  processDefinitionKey?: string;
  processDefinitionName?: string;
  processDefinitionVersion?: number;
  businessKey?: string;
  startUserId?: string;
  startUserName?: string;
  startTime?: string;
  taskNames?: string;
  suspensionState?: number;
}

export interface ModelRow {
  id: string;
  modelKey: string;
  name: string;
  description?: string;
  category?: string;
  xml?: string;
  version?: number;
  createTime?: string;
  updateTime?: string;
}

export interface HistoryRow {
  historyActivityId: string;
  historyActivityName?: string;
  historyActivityType?: string;
  assignee?: string;
  assigneeName?: string;
  createTime?: string;
  endTime?: string;
  historyActivityDurationTime?: string;
  comment?: string;
  pass?: boolean;
}

export type ActivityState = 'done' | 'active' | 'rejected';

export interface DiagramData {
  processInstanceId?: string;
  xml: string;
  finished?: boolean;
  result?: 'running' | 'approved' | 'rejected' | 'deleted';
  activities: { activityId: string; state: ActivityState }[];
  flows: string[];
}

export interface TaskDetail extends TaskRow {
  businessTable?: string;
  businessId?: string;
  resource?: { service: string; name: string; menuPath?: string };
}

export type WorkKind = 'start' | 'claim' | 'todo' | 'send' | 'done';

/** The task a row is about; a sent instance's row may carry none (an empty or zero id). */
export const taskOf = (row: Pick<TaskRow, 'taskId'> | null | undefined): string | undefined => (row?.taskId && row.taskId !== '0' ? row.taskId : undefined);

export const workList = (kind: Exclude<WorkKind, 'start'>, params: Params) => get<Page<TaskRow>>(`${FLOW}/work/${kind}-list`, params);
export const startList = (params: Params) => get<Page<Definition>>(`${FLOW}/work/start-list`, params);
export const claimTask = (taskId: string) => post(`${FLOW}/work/claim-task`, { taskId });
export const completeTask = async (body: { taskId: string; processInstanceId: string; flag: 'ok' | 'reject'; comment: string; variables?: Record<string, unknown> }) =>
  (await request.post<R<unknown>>(`${FLOW}/work/complete-task`, body)).data;
export const todoCount = () => get<{ todo: number; claim: number }>(`${FLOW}/work/todo-count`);
export const taskDetail = (taskId: string) => get<TaskDetail>(`${FLOW}/work/task-detail`, { taskId });

export const modelList = (params: Params) => get<Page<ModelRow>>(`${FLOW}/model/list`, params);
export const modelDetail = (id: string) => get<ModelRow>(`${FLOW}/model/detail`, { id });
export const modelSubmit = async (m: Partial<ModelRow>) => (await request.post<R<ModelRow>>(`${FLOW}/model/submit`, m)).data.data;
export const modelRemove = (ids: string[]) => post(`${FLOW}/model/remove`, { ids: ids.join(',') });
export const modelDeploy = (modelId: string, category: string, tenantIds: string[]) =>
  post(`${FLOW}/model/deploy`, { modelId, category, tenantIds: tenantIds.join(',') });

export const managerList = (params: Params) => get<Page<Definition>>(`${FLOW}/manager/list`, params);
export const changeState = (processId: string, state: 'active' | 'suspend') => post(`${FLOW}/manager/change-state`, { state, processId });
export const deleteDeployment = (deploymentIds: string[]) => post(`${FLOW}/manager/delete-deployment`, { deploymentIds: deploymentIds.join(',') });
/** A document type (flow_route entry) and the process its documents go through in the caller's tenant. */
export interface RouteBinding {
  route: string;
  label: string;
  processKey: string;
  bound: boolean;
}
export const routeBindings = (processId: string) => get<RouteBinding[]>(`${FLOW}/manager/routes`, { processId });
export const bindRoutes = (processId: string, routes: string[]) => post(`${FLOW}/manager/bind`, { processId, routes: routes.join(',') });
export const definitionXml = (processId: string) => get<{ xml: string }>(`${FLOW}/manager/definition-xml`, { processId });

/** Multipart upload of BPMN files; onProgress gets 0-100. */
export async function deployUpload(files: File[], category: string, tenantIds: string[], onProgress?: (pct: number) => void) {
  const form = new FormData();
  files.forEach((f) => form.append('files', f, f.name));
  form.append('category', category);
  form.append('tenantIds', tenantIds.join(','));
  return (
    await request.post<R<unknown>>(`${FLOW}/manager/deploy-upload`, form, {
      onUploadProgress: (e) => onProgress?.(e.total ? Math.round((e.loaded * 100) / e.total) : 0),
    })
  ).data;
}

export const followList = (params: Params) => get<Page<InstanceRow>>(`${FLOW}/follow/list`, params);
export const deleteInstance = (processInstanceId: string, deleteReason: string) =>
  post(`${FLOW}/follow/delete-process-instance`, { processInstanceId, deleteReason });

/** Which instance a diagram or history is of: an instance id, or the latest instance of a business key. */
export type InstanceRef = { processInstanceId: string } | { businessKey: string };

export const processDiagram = (ref: InstanceRef) => get<DiagramData>(`${FLOW}/process/diagram`, ref);
export const historyList = (ref: InstanceRef) => get<HistoryRow[]>(`${FLOW}/process/history-flow-list`, ref);

/** Days travel as a decimal string (decimals are never floats on the wire). */
export const startLeave = async (body: { startTime: string; endTime: string; days: string; reason: string; taskUser: string }) =>
  (await request.post<R<unknown>>('/api/blade-desk/process/leave/start-process', body)).data;

/** Users for the pickers: /api/blade-user/page?realName= (a page). */
export interface UserRow {
  id: string;
  account?: string;
  realName?: string;
  name?: string;
}
export const searchUsers = (text: string) => get<Page<UserRow>>('/api/blade-user/page', { current: 1, size: 20, realName: text || undefined });

export interface RoleRow {
  id: string;
  roleName: string;
  roleAlias: string;
  children?: RoleRow[];
}
export const roleList = () => get<RoleRow[]>('/api/blade-system/role/list');

export interface TenantRow {
  tenantId: string;
  tenantName: string;
}
/** Tenants to deploy to (the super tenant's list; others are refused and deploy to their own). */
export async function tenantList(): Promise<TenantRow[]> {
  const d = await get<Page<TenantRow> | TenantRow[]>('/api/blade-system/tenant/list', { current: 1, size: 1000 });
  return Array.isArray(d) ? d : (d?.records ?? []);
}

/** Roles flattened from the role tree. */
export async function roles(): Promise<RoleRow[]> {
  const out: RoleRow[] = [];
  const walk = (list: RoleRow[] | undefined) => list?.forEach((r) => (out.push(r), walk(r.children)));
  walk(await roleList());
  return out;
}
