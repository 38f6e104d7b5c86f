-- Tables (one open table per channel or thread), their action log and their timers.
CREATE TABLE tables (
    id          INTEGER PRIMARY KEY,
    guild_id    INTEGER NOT NULL,
    channel_id  INTEGER NOT NULL,           -- the thread / forum post / channel of the table
    parent_id   INTEGER,                    -- the channel it was opened from
    message_id  INTEGER,                    -- the public table message
    game        TEXT NOT NULL,
    host_id     INTEGER NOT NULL,
    settings    TEXT NOT NULL,              -- JSON: pace, timers, locale, name
    state       TEXT NOT NULL,              -- JSON: the engine snapshot and service fields
    version     INTEGER NOT NULL DEFAULT 0,
    status      TEXT NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'closed')),
    created_at  REAL NOT NULL,
    updated_at  REAL NOT NULL,
    closed_at   REAL
);

CREATE UNIQUE INDEX tables_one_open_per_channel ON tables (channel_id) WHERE status = 'open';
CREATE INDEX tables_open ON tables (status) WHERE status = 'open';

-- Every applied action; interaction_id makes a repeated interaction do nothing.
CREATE TABLE table_actions (
    id             INTEGER PRIMARY KEY,
    table_id       INTEGER NOT NULL REFERENCES tables (id),
    version        INTEGER NOT NULL,        -- the table version this action produced
    user_id        INTEGER,
    interaction_id INTEGER UNIQUE,
    action         TEXT NOT NULL,           -- JSON
    at             REAL NOT NULL
);

CREATE INDEX table_actions_table ON table_actions (table_id, version);

-- Pending timers: at most one per (table, kind). A timer only fires if the table is still
-- at the version it was armed for.
CREATE TABLE table_timers (
    table_id INTEGER NOT NULL REFERENCES tables (id),
    kind     TEXT NOT NULL CHECK (kind IN ('deadline', 'idle')),
    due      REAL NOT NULL,
    version  INTEGER NOT NULL,
    PRIMARY KEY (table_id, kind)
);

CREATE INDEX table_timers_due ON table_timers (due);

-- Per-user preferences (the language of replies).
CREATE TABLE user_prefs (
    user_id INTEGER PRIMARY KEY,
    locale  TEXT
);
