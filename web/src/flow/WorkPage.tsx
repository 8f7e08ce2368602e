import { useMemo, useState } from 'react';
import { Tag } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { TFunction } from 'i18next';
import RowButton from '../resource/RowButton';
import { toast } from '../util/notify';
import { claimTask, startList, taskOf, workList, type Definition, type Params, type TaskRow, type WorkKind } from './api';
import FlowTable, { definitionColumns, type FlowFilter } from './FlowTable';
import { perform } from './perform';
import { ProgressDialog } from './ProcessProgress';
import { TaskDialog } from './TaskDialog';
import { announceTasksChanged } from './events';
import { LeaveForm } from './LeaveForm';
import { useCan } from './perm';
import type { InstanceRef } from './api';

/** The process key whose start opens the leave form; other processes start from their documents. */
export const LEAVE_KEY = 'leave';

const finished = (v: unknown) => v === true || v === 'finished';

function FinishedTag({ value, t }: { value: unknown; t: TFunction }) {
  return finished(value) ? <Tag color="green">{t('flow.finished')}</Tag> : <Tag color="blue">{t('flow.unfinished')}</Tag>;
}

/** The columns of a task list, by kind: what each list is about first. */
export function taskColumns(kind: Exclude<WorkKind, 'start'>, t: TFunction): ColumnsType<TaskRow> {
  const col = (key: keyof TaskRow & string, title: string, width?: number) => ({ key, dataIndex: key, title, width });
  const base = [col('processDefinitionName', t('flow.processName'), 180), col('title', t('flow.title'), 220), col('taskName', kind === 'send' ? t('flow.currentTask') : t('flow.taskName'), 160), col('categoryName', t('flow.category'), 110)];
  switch (kind) {
    case 'claim':
    case 'todo':
      return [...base, col('startUserName', t('flow.startUser'), 110), col('createTime', t('flow.createTime'), 170)];
    case 'send':
      return [...base, col('startTime', t('flow.startTime'), 170), { key: 'processIsFinished', dataIndex: 'processIsFinished', title: t('flow.state'), width: 100, render: (v: unknown) => <FinishedTag value={v} t={t} /> }];
    case 'done':
      return [
        ...base,
        col('startUserName', t('flow.startUser'), 110),
        col('endTime', t('flow.endTime'), 170),
        { key: 'processIsFinished', dataIndex: 'processIsFinished', title: t('flow.state'), width: 100, render: (v: unknown) => <FinishedTag value={v} t={t} /> },
      ];
  }
}

function taskFilters(t: TFunction): FlowFilter[] {
  return [{ kind: 'category', name: 'category' }, { kind: 'text', name: 'processDefinitionName', label: t('flow.processName') }, { kind: 'dates', from: 'beginDate', to: 'endDate' }];
}

/** The startable processes; starting the leave process opens its form. */
function StartList() {
  const { t } = useTranslation();
  const can = useCan();
  const [leave, setLeave] = useState(false);
  const columns = useMemo<ColumnsType<Definition>>(
    () => [
      ...definitionColumns(t),
      { key: 'deploymentTime', dataIndex: 'deploymentTime', title: t('flow.deployTime'), width: 170 },
    ],
    [t],
  );
  return (
    <>
      <FlowTable<Definition>
        listKey="work-start"
        fetch={(p: Params) => startList(p)}
        columns={columns}
        rowKey={(r) => r.id}
        filters={[{ kind: 'category', name: 'category' }, { kind: 'text', name: 'name', label: t('flow.processName') }]}
        actions={(r) =>
          can('work_start_start') && (
            <RowButton
              onClick={() => {
                if (r.key === LEAVE_KEY) setLeave(true);
                else toast.info(t('flow.startFromDocument'));
              }}
            >
              {t('flow.startProcess')}
            </RowButton>
          )
        }
        actionWidth={100}
      />
      <LeaveForm open={leave} onClose={() => setLeave(false)} />
    </>
  );
}

/** One of the claim, to-do, sent and done lists. */
function TaskList({ kind }: { kind: Exclude<WorkKind, 'start'> }) {
  const { t } = useTranslation();
  const client = useQueryClient();
  const can = useCan();
  const code = `work_${kind}`;
  const [open, setOpen] = useState<{ row: TaskRow; handle: boolean } | null>(null);
  const [progress, setProgress] = useState<InstanceRef | null>(null);
  const columns = useMemo(() => taskColumns(kind, t), [kind, t]);
  const claim = (row: TaskRow) =>
    perform(
      () => claimTask(taskOf(row)!),
      () => {
        announceTasksChanged();
        // the claimed task leaves this list for the to-do list, which may be open in another tab
        return client.invalidateQueries({ queryKey: ['flow', 'list'] });
      },
    );
  return (
    <>
      <FlowTable<TaskRow>
        listKey={`work-${kind}`}
        fetch={(p: Params) => workList(kind, p)}
        columns={columns}
        rowKey={(r) => taskOf(r) ?? r.processInstanceId}
        filters={taskFilters(t)}
        actionWidth={kind === 'todo' || kind === 'claim' ? 200 : 160}
        actions={(r) => (
          <>
            {kind === 'claim' && taskOf(r) && can('work_claim_claim') && <RowButton onClick={() => void claim(r)}>{t('flow.claim')}</RowButton>}
            {kind === 'todo' && taskOf(r) && can('work_todo_handle') && <RowButton onClick={() => setOpen({ row: r, handle: true })}>{t('flow.handle')}</RowButton>}
            {can(`${code}_view`) && <RowButton onClick={() => setOpen({ row: r, handle: false })}>{t('flow.detail')}</RowButton>}
            {can(`${code}_follow`) && <RowButton onClick={() => setProgress({ processInstanceId: r.processInstanceId })}>{t('flow.follow')}</RowButton>}
          </>
        )}
      />
      <TaskDialog row={open?.row ?? null} handle={open?.handle} onClose={() => setOpen(null)} />
      <ProgressDialog instance={progress} onClose={() => setProgress(null)} />
    </>
  );
}

/** /work/start, /work/claim, /work/todo, /work/send, /work/done: one page by list kind. */
export function WorkPage({ kind }: { kind: WorkKind }) {
  return kind === 'start' ? <StartList /> : <TaskList kind={kind} />;
}

export default WorkPage;

