-- A table's timers are derived from its committed row: the idle timeout from updated_at,
-- the turn or betting deadline from the snapshot's service state (deadline_due). A move
-- no longer rewrites a timers row, and a restart can never load a timer that disagrees
-- with the table it belongs to.
DROP INDEX table_timers_due;
DROP TABLE table_timers;
