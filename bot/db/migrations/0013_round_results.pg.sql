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

-- /stats chart and a player's rounds; /stats top of a week (all games, or one)
CREATE INDEX round_results_player ON round_results (guild_id, user_id, at);
CREATE INDEX round_results_week ON round_results (guild_id, at, user_id, net, outcome);
CREATE INDEX round_results_game_week ON round_results (guild_id, game, at, user_id, net, outcome);

-- A player's totals at one game of one guild, kept by the same move (an upsert), so
-- /stats player and the all-time /stats top read a few rows whatever the ledger's size.
CREATE TABLE round_totals (
    guild_id  BIGINT NOT NULL,
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
    PRIMARY KEY (guild_id, game, user_id)
);

CREATE INDEX round_totals_user ON round_totals (guild_id, user_id);
CREATE INDEX round_totals_net ON round_totals (guild_id, game, net);
