-- PostgreSQL variant of 0015_daily_pay_client_seeds.sql (read that file): BIGINT ids and
-- amounts, DOUBLE PRECISION times.
ALTER TABLE bank_guilds ADD COLUMN daily_amount BIGINT NOT NULL DEFAULT 0
    CHECK (daily_amount >= 0);
ALTER TABLE bank_guilds ADD COLUMN daily_hours INTEGER NOT NULL DEFAULT 24
    CHECK (daily_hours BETWEEN 1 AND 8760);

CREATE TABLE bank_daily (
    guild_id     BIGINT NOT NULL,
    user_id      BIGINT NOT NULL,
    last_paid_at DOUBLE PRECISION NOT NULL,
    entry_id     BIGINT NOT NULL,
    PRIMARY KEY (guild_id, user_id)
);

CREATE TABLE user_seeds (
    user_id BIGINT PRIMARY KEY,
    seed    TEXT NOT NULL
);
