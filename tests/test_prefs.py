"""Prefs: a reader's language for a message sent with no interaction at hand."""

from __future__ import annotations

from bot.db import Database
from bot.prefs import Prefs
from tests.db_lock import LockHolder
from tests.sql import fetchall


async def test_the_reader_language_falls_back_from_choice_to_discord_to_the_guild(db: Database):
    prefs = Prefs(db)
    assert await prefs.reader_locale(1, "fr") == "fr"  # nothing known: the guild's default
    await prefs.seen(1, "en-US")
    assert await prefs.reader_locale(1, "fr") == "en"  # the last locale Discord gave
    await prefs.set_locale(1, "fr")
    assert await prefs.reader_locale(1, "en") == "fr"  # the /language choice first
    # stored: a new process (an empty cache) reads the same
    await prefs.set_locale(1, None)
    assert await Prefs(db).reader_locale(1, "fr") == "en"


async def test_a_locale_is_written_only_when_it_changes(db: Database):
    prefs = Prefs(db)
    writes = []
    original = db.write

    async def counted(fn, *args):  # type: ignore[no-untyped-def]
        writes.append(fn.__name__)
        return await original(fn, *args)

    db.write = counted  # type: ignore[method-assign]
    for _ in range(3):
        await prefs.seen(7, "fr")
    await Prefs(db).seen(7, "fr")  # another process: one read, no write
    assert writes == ["_store_seen"]
    await prefs.seen(7, "en-GB")
    assert writes == ["_store_seen", "_store_seen"]
    rows = await fetchall(db, "SELECT user_id, locale FROM user_locales")
    assert [tuple(row) for row in rows] == [(7, "en")]


async def test_a_locked_database_never_fails_the_lookup_of_a_language(db: Database, db_path):
    """Remembering Discord's locale is not worth refusing the interaction: while another
    process holds the write lock it is skipped (after the bound), and stored later."""
    db.busy_bound = 0.2  # type: ignore[attr-defined]
    prefs = Prefs(db)
    holder = LockHolder(db_path)
    try:
        await prefs.seen(8, "fr")  # waited the bound, then let go: no error
        assert await fetchall(db, "SELECT user_id FROM user_locales") == []
    finally:
        holder.release()
    await prefs.seen(8, "fr")
    rows = await fetchall(db, "SELECT user_id, locale FROM user_locales")
    assert [tuple(row) for row in rows] == [(8, "fr")]
