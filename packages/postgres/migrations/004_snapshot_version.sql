-- @a2a/postgres schema v4: an artifact or message append may leave `task` behind (the log holds the event), so a
-- long stream does not rewrite its whole task on every chunk. NULL: `task` is at `version`; else the version `task`
-- is at, and readers apply the log's events after it.
ALTER TABLE a2a_tasks ADD COLUMN snapshot_version bigint;
