-- The casino bank: accounts, an append-only double-entry ledger, seat counters and claims.
-- Only bot/bank writes these tables.

-- One row per guild the bank serves, with its money settings.
CREATE TABLE bank_guilds (
    guild_id             INTEGER PRIMARY KEY,
    -- minted to a player's account when it is opened (0 = players start with nothing)
    starting_balance     INTEGER NOT NULL DEFAULT 0 CHECK (starting_balance >= 0),
    -- a claim above this waits for an admin's approval (NULL = no limit)
    claim_approval_limit INTEGER CHECK (claim_approval_limit IS NULL OR claim_approval_limit >= 0),
    created_at           TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);

-- Accounts. kind:
--   issuer  the guild's mint: the other side of mint/burn entries; its balance is
--           -(minted - burned), the only account allowed below zero
--   house   the guild's treasury (the casino)
--   claims  the guild's escrow of pending claims (cash-outs waiting for /bank claim)
--   player  a member's balance (user_id)
--   seat    a player's stack at a table (table_id, user_id)
--   pot     a table's round escrow: bets waiting for settlement (table_id)
--   fund    a table's guarantee fund (table_id)
-- table_id / user_id are 0 when they do not apply (so the UNIQUE key works without NULLs).
-- table_id is the table service's id: deliberately no foreign key to its table.
CREATE TABLE bank_accounts (
    id         INTEGER PRIMARY KEY,
    guild_id   INTEGER NOT NULL REFERENCES bank_guilds (guild_id),
    kind       TEXT NOT NULL
               CHECK (kind IN ('issuer', 'house', 'claims', 'player', 'seat', 'pot', 'fund')),
    table_id   INTEGER NOT NULL DEFAULT 0,
    user_id    INTEGER NOT NULL DEFAULT 0,
    balance    INTEGER NOT NULL DEFAULT 0 CHECK (typeof(balance) = 'integer'),
    created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    CHECK (balance >= 0 OR kind = 'issuer'),
    CHECK (balance <= 0 OR kind <> 'issuer'),
    UNIQUE (guild_id, kind, table_id, user_id)
);

CREATE INDEX bank_accounts_leaderboard ON bank_accounts (guild_id, kind, balance);

-- The journal: one row per movement. idem_key makes every movement idempotent.
CREATE TABLE bank_entries (
    id         INTEGER PRIMARY KEY,
    guild_id   INTEGER NOT NULL REFERENCES bank_guilds (guild_id),
    kind       TEXT NOT NULL CHECK (kind IN (
                   'mint', 'burn', 'welcome_stake', 'buy_in', 'top_up', 'bet', 'payout',
                   'refund', 'loss', 'forfeit', 'fund_open', 'fund_close', 'cash_out',
                   'claim_paid', 'transfer', 'admin_adjust')),
    idem_key   TEXT NOT NULL UNIQUE,
    table_id   INTEGER,
    round_no   INTEGER,
    actor      INTEGER,
    reason     TEXT,
    created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);

-- Postings: amount > 0 credits the account (money in), amount < 0 debits it (money out).
-- Every entry's postings sum to zero (debits equal credits); the audit checks it.
CREATE TABLE bank_postings (
    id         INTEGER PRIMARY KEY,
    entry_id   INTEGER NOT NULL REFERENCES bank_entries (id),
    account_id INTEGER NOT NULL REFERENCES bank_accounts (id),
    amount     INTEGER NOT NULL CHECK (typeof(amount) = 'integer' AND amount <> 0)
);

CREATE INDEX bank_postings_entry ON bank_postings (entry_id);
CREATE INDEX bank_postings_account ON bank_postings (account_id, entry_id);

-- The ledger is append-only.
CREATE TRIGGER bank_entries_no_update BEFORE UPDATE ON bank_entries
BEGIN
    SELECT RAISE(ABORT, 'bank ledger is append-only');
END;

CREATE TRIGGER bank_entries_no_delete BEFORE DELETE ON bank_entries
BEGIN
    SELECT RAISE(ABORT, 'bank ledger is append-only');
END;

CREATE TRIGGER bank_postings_no_update BEFORE UPDATE ON bank_postings
BEGIN
    SELECT RAISE(ABORT, 'bank ledger is append-only');
END;

CREATE TRIGGER bank_postings_no_delete BEFORE DELETE ON bank_postings
BEGIN
    SELECT RAISE(ABORT, 'bank ledger is append-only');
END;

-- Per seat counters, kept by the bank from the postings (welcome stake once per player per
-- table; wagered drives the wagering requirement).
CREATE TABLE bank_seats (
    guild_id         INTEGER NOT NULL,
    table_id         INTEGER NOT NULL,
    user_id          INTEGER NOT NULL,
    welcome_received INTEGER NOT NULL DEFAULT 0,
    own_funds        INTEGER NOT NULL DEFAULT 0,
    wagered          INTEGER NOT NULL DEFAULT 0,
    forfeited        INTEGER NOT NULL DEFAULT 0,
    cashed_out       INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (guild_id, table_id, user_id)
) WITHOUT ROWID;

-- Claims: a cash-out waiting for /bank claim. status: pending (payable), held (above the
-- guild's claim_approval_limit: waits for an admin), paid. The money sits in the guild's
-- claims account until paid.
CREATE TABLE bank_claims (
    id            INTEGER PRIMARY KEY,
    guild_id      INTEGER NOT NULL REFERENCES bank_guilds (guild_id),
    user_id       INTEGER NOT NULL,
    table_id      INTEGER,
    amount        INTEGER NOT NULL CHECK (amount > 0),
    status        TEXT NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'held', 'paid')),
    entry_id      INTEGER NOT NULL REFERENCES bank_entries (id),
    paid_entry_id INTEGER REFERENCES bank_entries (id),
    approved_by   INTEGER,
    created_at    TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    paid_at       TEXT,
    CHECK ((status = 'paid') = (paid_entry_id IS NOT NULL))
);

CREATE INDEX bank_claims_user ON bank_claims (guild_id, user_id, status);

CREATE TRIGGER bank_claims_no_delete BEFORE DELETE ON bank_claims
BEGIN
    SELECT RAISE(ABORT, 'bank claims are kept');
END;
