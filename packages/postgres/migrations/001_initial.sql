-- @a2a/postgres schema v1. Documented in README.md ("Schema").

-- Bumped on every status change: the ListTasks order (newest status first) and its cursor.
CREATE SEQUENCE a2a_task_list_seq;

CREATE TABLE a2a_tasks (
  id               text PRIMARY KEY,
  owner            text NOT NULL,
  context_id       text NOT NULL,
  state            text NOT NULL,
  status_timestamp text COLLATE "C" NOT NULL DEFAULT '',
  version          bigint NOT NULL,
  list_seq         bigint NOT NULL DEFAULT nextval('a2a_task_list_seq'),
  task             json NOT NULL,
  created_at       timestamptz NOT NULL DEFAULT now(),
  updated_at       timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX a2a_tasks_owner_list ON a2a_tasks (owner, list_seq DESC);
CREATE INDEX a2a_tasks_owner_context_list ON a2a_tasks (owner, context_id, list_seq DESC);

CREATE TABLE a2a_task_events (
  task_id    text NOT NULL REFERENCES a2a_tasks (id) ON DELETE CASCADE,
  seq        bigint NOT NULL,
  kind       text NOT NULL,
  state      text NOT NULL,
  event      json NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (task_id, seq)
);

CREATE TABLE a2a_push_configs (
  task_id              text NOT NULL REFERENCES a2a_tasks (id) ON DELETE CASCADE,
  id                   text NOT NULL,
  config               json NOT NULL,
  last_delivered_seq   bigint NOT NULL DEFAULT 0,
  health               text,
  consecutive_failures integer NOT NULL DEFAULT 0,
  last_error           text,
  created_at           timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (task_id, id)
);

CREATE TABLE a2a_execution_leases (
  task_id     text PRIMARY KEY,
  instance_id text NOT NULL,
  expires_at  timestamptz NOT NULL
);
CREATE INDEX a2a_execution_leases_instance ON a2a_execution_leases (instance_id);
CREATE INDEX a2a_execution_leases_expiry ON a2a_execution_leases (expires_at);
