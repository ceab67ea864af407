-- @a2a/postgres schema v2: finished tasks are found by age for the retention sweep.
CREATE INDEX a2a_tasks_finished_updated ON a2a_tasks (updated_at)
  WHERE state IN ('TASK_STATE_COMPLETED', 'TASK_STATE_CANCELED', 'TASK_STATE_FAILED', 'TASK_STATE_REJECTED');
