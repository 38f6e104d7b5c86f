-- The action log is the table's history between two snapshots: a move that is not a
-- snapshot point writes only its table_actions row, not the tables row. One row per
-- (table, version): the second writer of a version (a stale copy of the table in another
-- process during a takeover) is refused by this index, as the tables row's
-- WHERE version = ? refused it when every move rewrote that row.
DROP INDEX table_actions_table;

CREATE UNIQUE INDEX table_actions_one_per_version ON table_actions (table_id, version);
