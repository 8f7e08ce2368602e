/** Tells the top bar's to-do badge to count again (a task was completed, claimed or started). */
export const TASKS_CHANGED = 'bb-flow-tasks-changed';
export const announceTasksChanged = (): void => {
  window.dispatchEvent(new Event(TASKS_CHANGED));
};
