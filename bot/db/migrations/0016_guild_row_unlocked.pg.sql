-- A server's ledger writes no longer share a lock on its bank_guilds row (issue 35 point
-- 3). The foreign key bank_entries.guild_id -> bank_guilds made every entry's INSERT
-- share-lock its guild's row (FOR KEY SHARE) until the commit. One server's concurrent
-- moves then held that one row's lock together: PostgreSQL made a MultiXact (a list of
-- lockers, written to its own log and rewritten into the row) for most moves, about 600
-- per 1,000 moves with one server against 17 with 100 (`bench backends --servers 1,100`).
--
-- The same guarantee without the lock: a trigger refuses an entry whose guild has no row
-- (a foreign key violation, as before), and a guild's row can no longer be deleted nor
-- change its id, so the row the trigger saw stays there. A guild's row is never deleted
-- (its accounts' foreign keys refuse it already) and its settings' updates are not
-- affected. The accounts' and claims' foreign keys stay: they are written when a player
-- joins or leaves, not at every move.
ALTER TABLE bank_entries DROP CONSTRAINT bank_entries_guild_id_fkey;

CREATE FUNCTION bank_entry_guild() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF NOT EXISTS (SELECT 1 FROM bank_guilds WHERE guild_id = NEW.guild_id) THEN
        RAISE EXCEPTION 'bank entry of guild % which has no bank_guilds row', NEW.guild_id
            USING ERRCODE = 'foreign_key_violation';
    END IF;
    RETURN NEW;
END
$$;

CREATE TRIGGER bank_entries_guild BEFORE INSERT ON bank_entries
    FOR EACH ROW EXECUTE FUNCTION bank_entry_guild();
CREATE TRIGGER bank_guilds_no_delete BEFORE DELETE ON bank_guilds
    FOR EACH ROW EXECUTE FUNCTION bank_append_only('bank guilds are kept');
CREATE TRIGGER bank_guilds_same_id BEFORE UPDATE OF guild_id ON bank_guilds
    FOR EACH ROW WHEN (OLD.guild_id <> NEW.guild_id)
    EXECUTE FUNCTION bank_append_only('a bank guild keeps its id');
