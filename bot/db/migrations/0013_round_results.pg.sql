-- PostgreSQL variant of 0013_round_results.sql (read that file for what each column holds):
-- 64-bit ids and amounts.
CREATE TABLE round_results (
    guild_id   BIGINT NOT NULL,
    table_id   BIGINT NOT NULL,
    round_no   BIGINT NOT NULL,
    user_id    BIGINT NOT NULL,
    game       TEXT NOT NULL,
    staked     BIGINT NOT NULL CHECK (staked >= 0),
    net        BIGINT NOT NULL,
    outcome    TEXT NOT NULL CHECK (outcome IN ('won', 'lost', 'push')),
    is_natural SMALLINT NOT NULL CHECK (is_natural IN (0, 1)),
    at         DOUBLE PRECISION NOT NULL
);

-- a player's rounds, in order (the totals below can be recomputed from them)
CREATE INDEX round_results_player ON round_results (guild_id, user_id, at);

-- A player's totals at one game of one guild (and over every game: game '*'), all time
-- (week 0) and in each ISO week in UTC (week = ISO year * 100 + ISO week number: 202649),
-- upserted by the same move, so /stats player and /stats top read a few rows whatever the
-- ledger's size.
CREATE TABLE round_totals (
    guild_id  BIGINT NOT NULL,
    week      INTEGER NOT NULL,
    game      TEXT NOT NULL,
    user_id   BIGINT NOT NULL,
    rounds    BIGINT NOT NULL,
    won       BIGINT NOT NULL,
    lost      BIGINT NOT NULL,
    pushed    BIGINT NOT NULL,
    staked    BIGINT NOT NULL,
    net       BIGINT NOT NULL,
    naturals  BIGINT NOT NULL,
    best      BIGINT NOT NULL,
    PRIMARY KEY (guild_id, week, game, user_id)
);

CREATE INDEX round_totals_user ON round_totals (guild_id, user_id, week);
