-- PostgreSQL variant of 0001_initial.sql (same tables and columns). Discord ids need 64
-- bits: BIGINT where SQLite's INTEGER is 64-bit already. strftime() is SQLite's way to
-- write "now" as text; this one function gives PostgreSQL the same, so the SQL of the
-- services (created_at, paid_at) is the same on both databases.
CREATE FUNCTION strftime(fmt TEXT, what TEXT) RETURNS TEXT
    LANGUAGE sql STABLE
    AS $$ SELECT to_char(clock_timestamp() AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') $$;

CREATE TABLE guild_settings (
    guild_id        BIGINT PRIMARY KEY,
    locale          TEXT,
    currency_name   TEXT NOT NULL DEFAULT 'flouz',
    bank_channel_id BIGINT,
    created_at      TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);

CREATE TABLE bot_meta (
    key   TEXT PRIMARY KEY,
    value TEXT NOT NULL
);
