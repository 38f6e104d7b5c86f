-- An admin may reject a claim held for approval (/bank reject, with a reason): the money
-- that waited in the claims account goes back to the treasury in one ledger entry
-- (rejected_entry_id), and the claim is closed as 'rejected'. PostgreSQL changes the
-- CHECK constraints in place (SQLite rebuilds the table).
ALTER TABLE bank_claims DROP CONSTRAINT bank_claims_status_check;

ALTER TABLE bank_claims ADD CONSTRAINT bank_claims_status_check
    CHECK (status IN ('pending', 'held', 'paid', 'rejected'));

ALTER TABLE bank_claims ADD COLUMN rejected_entry_id BIGINT REFERENCES bank_entries (id);

ALTER TABLE bank_claims ADD COLUMN reject_reason TEXT;

ALTER TABLE bank_claims ADD CONSTRAINT bank_claims_rejected_check
    CHECK ((status = 'rejected') = (rejected_entry_id IS NOT NULL));
