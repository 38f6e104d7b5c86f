-- A server's ledger writes no longer share a lock on its bank_guilds row (issue 35 point
-- 3). Nothing changes on SQLite, which has no row locks (one writer at a time): its foreign
-- key bank_entries.guild_id -> bank_guilds stays. The PostgreSQL variant
-- (0016_guild_row_unlocked.pg.sql) replaces that foreign key by a check without a lock.
SELECT 1;
