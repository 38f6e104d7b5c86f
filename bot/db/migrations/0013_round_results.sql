-- Statistics (issue 39.3, bot/stats): one row per player per settled round, written by the
-- table service in the same transaction as the move that settled it (bot/stats/results.py),
-- and each player's running totals per game, upserted by the same move. Nothing is
-- backfilled: the statistics start at this upgrade (the ledger alone cannot tell a round's
-- outcome nor a natural).
--
--   staked     what the player bet in the round (Black Jack: every hand, doubles and
--              splits included; 0 for Sept et demi's banker and at Pirate 21, coins)
--   net        what the round changed to the player's money (0 at Pirate 21: coins are
--              not money)
--   outcome    won / lost / push: the sign of net (Pirate 21: took coins / lost / a void round)
--   is_natural a Black Jack or Casino 21 blackjack, a 7½ at Sept et demi, a two-card 21
--              at Pirate 21
--   at         the settling move's time (epoch seconds, UTC)
CREATE TABLE round_results (
    guild_id   INTEGER NOT NULL,
    table_id   INTEGER NOT NULL,
    round_no   INTEGER NOT NULL,
    user_id    INTEGER NOT NULL,
    game       TEXT NOT NULL,
    staked     INTEGER NOT NULL CHECK (staked >= 0),
    net        INTEGER NOT NULL,
    outcome    TEXT NOT NULL CHECK (outcome IN ('won', 'lost', 'push')),
    is_natural INTEGER NOT NULL CHECK (is_natural IN (0, 1)),
    at         REAL NOT NULL
);

-- a player's rounds, in order (the totals below can be recomputed from them)
CREATE INDEX round_results_player ON round_results (guild_id, user_id, at);

-- A player's totals at one game of one guild (and over every game: game '*'), all time
-- (week 0) and in each ISO week in UTC (week = ISO year * 100 + ISO week number: 202649),
-- upserted by the same move, so /stats player and /stats top read a few rows whatever the
-- ledger's size.
CREATE TABLE round_totals (
    guild_id  INTEGER NOT NULL,
    week      INTEGER NOT NULL,
    game      TEXT NOT NULL,
    user_id   INTEGER NOT NULL,
    rounds    INTEGER NOT NULL,
    won       INTEGER NOT NULL,
    lost      INTEGER NOT NULL,
    pushed    INTEGER NOT NULL,
    staked    INTEGER NOT NULL,
    net       INTEGER NOT NULL,
    naturals  INTEGER NOT NULL,
    best      INTEGER NOT NULL,
    PRIMARY KEY (guild_id, week, game, user_id)
);

CREATE INDEX round_totals_user ON round_totals (guild_id, user_id, week);
