-- @a2a/postgres schema v3: running tasks are found by age, for the janitor's "running without a lease" check.
CREATE INDEX a2a_tasks_running_updated ON a2a_tasks (updated_at)
  WHERE state IN ('TASK_STATE_SUBMITTED', 'TASK_STATE_WORKING');
