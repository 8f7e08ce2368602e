import { useEffect } from 'react';
import { Badge, Button, Tooltip } from 'antd';
import { CheckSquareOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import request from '../../api/request';
import type { R } from '../../api/types';
import { useUserStore } from '../../store/user';
import { findMenuByPath } from '../../store/menu';
import { TASKS_CHANGED } from '../../flow/events';

/** How often the badge counts again, besides when a task changes. */
export const TODO_POLL_MS = 60_000;

const countTasks = async () => (await request.get<R<{ todo: number; claim: number }>>('/api/blade-flow/work/todo-count')).data.data;

/**
 * The to-do badge of the top bar: the user's open tasks (to do and to claim) from work/todo-count, every
 * minute and whenever a task is completed, claimed or started here; opens the to-do list. Shown only to users
 * with the to-do menu.
 */
export default function TodoBadge() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const menuAll = useUserStore((s) => s.menuAll);
  const hasWork = Boolean(findMenuByPath(menuAll, '/work/todo'));
  const { data, refetch } = useQuery({ queryKey: ['flow', 'todo-count'], queryFn: countTasks, enabled: hasWork, refetchInterval: TODO_POLL_MS, retry: false });
  useEffect(() => {
    if (!hasWork) return;
    const on = () => void refetch();
    window.addEventListener(TASKS_CHANGED, on);
    return () => window.removeEventListener(TASKS_CHANGED, on);
  }, [hasWork, refetch]);
  if (!hasWork) return null;
  const todo = data?.todo ?? 0;
  const claim = data?.claim ?? 0;
  return (
    <Tooltip title={`${t('flow.todoBadge')}: ${todo} · ${t('flow.claimBadge')}: ${claim}`}>
      <Button type="text" aria-label={t('flow.todoBadge')} style={{ color: 'inherit' }} onClick={() => navigate('/work/todo')}>
        <Badge count={todo + claim} size="small" overflowCount={99} data-testid="todo-badge">
          <CheckSquareOutlined style={{ color: 'inherit' }} />
        </Badge>
      </Button>
    </Tooltip>
  );
}
