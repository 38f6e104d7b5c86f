-- Guild settings and a key/value store for the bot itself.
CREATE TABLE guild_settings (
    guild_id        INTEGER PRIMARY KEY,
    locale          TEXT,
    currency_name   TEXT NOT NULL DEFAULT 'flouz',
    bank_channel_id INTEGER,
    created_at      TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);

CREATE TABLE bot_meta (
    key   TEXT PRIMARY KEY,
    value TEXT NOT NULL
);
