-- The leaderboard index covers player accounts only. Every bet and payout changes the
-- balance of a seat and of a pot (escrow accounts), and with the full index each of those
-- changes also rewrote an index entry: about 4.7 pages written per bet instead of 1.05.
-- The leaderboard query names kind = 'player' literally, so it still uses this index.
DROP INDEX bank_accounts_leaderboard;
CREATE INDEX bank_accounts_leaderboard ON bank_accounts (guild_id, balance) WHERE kind = 'player';
