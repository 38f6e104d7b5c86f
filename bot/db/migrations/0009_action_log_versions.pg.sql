-- PostgreSQL variant of 0009_action_log_versions.sql (read that file for why): the same
-- index; on PostgreSQL a concurrent writer of the same version waits for the first one's
-- commit, then is refused.
DROP INDEX table_actions_table;

CREATE UNIQUE INDEX table_actions_one_per_version ON table_actions (table_id, version);
