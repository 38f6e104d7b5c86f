-- The bank audit's checkpoints (bot/bank/proof.py): a clean audit records what it proved,
-- so the next one proves only the entries after it. Append-only, like the ledger; the full
-- audit (python -m bot audit --full) recomputes the last checkpoint from the entries.
--
-- One row per audit: its scope (a guild, or NULL for every guild), the last entry it
-- covered (every entry with id <= last_entry_id), and the checkpoint it extended (NULL:
-- a full audit, proved from the first entry).
CREATE TABLE bank_audits (
    id            INTEGER PRIMARY KEY,
    guild_id      INTEGER,
    last_entry_id INTEGER NOT NULL CHECK (last_entry_id >= 0),
    parent_id     INTEGER REFERENCES bank_audits (id),
    created_at    TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);

-- What the audit proved of each guild of its scope, up to its last entry:
--   entries, postings  how many of the guild's entries (and their postings) it covered
--   minted, burned     the money minted and burned by them (the issuer's side excepted)
--   ledger_digest      the sum, modulo 2^256, of one term per block of 4096 entry ids:
--                      the BLAKE2b-256 of the guild's entries (every column) in that
--                      block: a changed, removed or added old entry changes it (hex)
--   balance_digest     the sum, modulo 2^256, of weight(account) * balance over the
--                      guild's accounts at last_entry_id (weight: the BLAKE2b-256 of the
--                      account's id): the balances it proved, in one number (hex)
CREATE TABLE bank_audit_guilds (
    audit_id       INTEGER NOT NULL REFERENCES bank_audits (id),
    guild_id       INTEGER NOT NULL,
    entries        INTEGER NOT NULL CHECK (entries >= 0),
    postings       INTEGER NOT NULL CHECK (postings >= 0),
    minted         INTEGER NOT NULL,
    burned         INTEGER NOT NULL,
    ledger_digest  TEXT NOT NULL,
    balance_digest TEXT NOT NULL,
    PRIMARY KEY (audit_id, guild_id)
);

CREATE INDEX bank_audit_guilds_guild ON bank_audit_guilds (guild_id, audit_id);

CREATE TRIGGER bank_audits_no_update BEFORE UPDATE ON bank_audits
BEGIN
    SELECT RAISE(ABORT, 'bank audit checkpoints are append-only');
END;

CREATE TRIGGER bank_audits_no_delete BEFORE DELETE ON bank_audits
BEGIN
    SELECT RAISE(ABORT, 'bank audit checkpoints are append-only');
END;

CREATE TRIGGER bank_audit_guilds_no_update BEFORE UPDATE ON bank_audit_guilds
BEGIN
    SELECT RAISE(ABORT, 'bank audit checkpoints are append-only');
END;

CREATE TRIGGER bank_audit_guilds_no_delete BEFORE DELETE ON bank_audit_guilds
BEGIN
    SELECT RAISE(ABORT, 'bank audit checkpoints are append-only');
END;
