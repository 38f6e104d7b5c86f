-- Daily pay (issue 39.6, bot/bank/daily.py) and players' client seeds (issue 39.7,
-- bot/fairness.py).
--
-- /bank setup daily_amount daily_hours: the pay (0 = off, the default) and its period.
-- /bank daily pays it from the treasury as a 'transfer' entry house -> player with the
-- reason 'daily pay' (a new entry kind would need bank_entries rebuilt on SQLite: its
-- kind CHECK cannot be altered); the audit proves those entries go from the guild's
-- treasury to one of its members (bot/bank/proof.py).
ALTER TABLE bank_guilds ADD COLUMN daily_amount INTEGER NOT NULL DEFAULT 0
    CHECK (daily_amount >= 0);
ALTER TABLE bank_guilds ADD COLUMN daily_hours INTEGER NOT NULL DEFAULT 24
    CHECK (daily_hours BETWEEN 1 AND 8760);

-- Once per period per member: this row moves forward in the pay's own transaction, only
-- when the last pay is a whole period old, so two clicks at once pay once.
CREATE TABLE bank_daily (
    guild_id     INTEGER NOT NULL,
    user_id      INTEGER NOT NULL,
    last_paid_at REAL NOT NULL,
    entry_id     INTEGER NOT NULL,
    PRIMARY KEY (guild_id, user_id)
);

-- Each player's client seed (random until /fairness seed sets one), mixed into the order
-- of every shoe shuffled while they are seated.
CREATE TABLE user_seeds (
    user_id INTEGER PRIMARY KEY,
    seed    TEXT NOT NULL
);
