-- An admin may reject a claim held for approval (/bank reject, with a reason): the money
-- that waited in the claims account goes back to the treasury in one ledger entry
-- (rejected_entry_id), and the claim is closed as 'rejected'. SQLite cannot change a
-- CHECK constraint in place: the table is rebuilt with its rows, ids kept.
CREATE TABLE bank_claims_new (
    id                INTEGER PRIMARY KEY,
    guild_id          INTEGER NOT NULL REFERENCES bank_guilds (guild_id),
    user_id           INTEGER NOT NULL,
    table_id          INTEGER,
    amount            INTEGER NOT NULL CHECK (amount > 0),
    status            TEXT NOT NULL DEFAULT 'pending'
                      CHECK (status IN ('pending', 'held', 'paid', 'rejected')),
    entry_id          INTEGER NOT NULL REFERENCES bank_entries (id),
    paid_entry_id     INTEGER REFERENCES bank_entries (id),
    approved_by       INTEGER,
    created_at        TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    paid_at           TEXT,
    rejected_entry_id INTEGER REFERENCES bank_entries (id),
    reject_reason     TEXT,
    CHECK ((status = 'paid') = (paid_entry_id IS NOT NULL)),
    CHECK ((status = 'rejected') = (rejected_entry_id IS NOT NULL))
);

INSERT INTO bank_claims_new (id, guild_id, user_id, table_id, amount, status, entry_id,
                             paid_entry_id, approved_by, created_at, paid_at)
SELECT id, guild_id, user_id, table_id, amount, status, entry_id, paid_entry_id,
       approved_by, created_at, paid_at
FROM bank_claims;

DROP TABLE bank_claims;

ALTER TABLE bank_claims_new RENAME TO bank_claims;

CREATE INDEX bank_claims_user ON bank_claims (guild_id, user_id, status);

CREATE TRIGGER bank_claims_no_delete BEFORE DELETE ON bank_claims
BEGIN
    SELECT RAISE(ABORT, 'bank claims are kept');
END;
