"""A ledger entry needs its guild's row, which stays, and (PostgreSQL) does not lock it:
one server's concurrent moves share no row lock (migration 0016, issue 35 point 3)."""

from __future__ import annotations

import asyncpg
import pytest

from bot.bank import Bank
from bot.db import Conn, Database, IntegrityError
from tests.bank.conftest import GUILD

_ENTRY = "INSERT INTO bank_entries (guild_id, kind, idem_key) VALUES (?, 'transfer', ?)"


async def _count(c: Conn, sql: str) -> int:
    row = await c.fetchone(sql)
    assert row is not None
    return int(row[0])


async def test_an_entry_of_a_guild_without_its_row_is_refused(db: Database) -> None:
    async def entry(c: Conn) -> None:
        await c.execute(_ENTRY, (4242, "no-such-guild"))

    with pytest.raises(IntegrityError):
        await db.write(entry)
    assert await db.read(_count, "SELECT COUNT(*) FROM bank_entries") == 0


async def test_a_guilds_row_is_neither_deleted_nor_renumbered(bank: Bank, db: Database) -> None:
    for sql in (
        f"DELETE FROM bank_guilds WHERE guild_id = {GUILD}",
        f"UPDATE bank_guilds SET guild_id = 7 WHERE guild_id = {GUILD}",
    ):

        async def change(c: Conn, sql: str = sql) -> None:
            await c.execute(sql)

        with pytest.raises(IntegrityError):
            await db.write(change)
    assert await db.read(_count, f"SELECT COUNT(*) FROM bank_guilds WHERE guild_id = {GUILD}") == 1


async def test_a_settings_change_still_updates_the_guilds_row(bank: Bank, db: Database) -> None:
    async def change(c: Conn) -> None:
        await c.execute(f"UPDATE bank_guilds SET starting_balance = 77 WHERE guild_id = {GUILD}")

    await db.write(change)
    sql = f"SELECT starting_balance FROM bank_guilds WHERE guild_id = {GUILD}"
    assert await db.read(_count, sql) == 77


async def test_an_entry_leaves_its_guilds_row_unlocked(db: Database) -> None:
    """While an entry's transaction is open, another may lock the guild's row at once: the
    old foreign key held a FOR KEY SHARE lock on it (every move of a server, together)."""
    if db.dialect != "postgresql":
        pytest.skip("SQLite has no row locks (one writer at a time)")
    await Bank(db).ensure_guild(GUILD)  # the bare entry below is no audit's business
    url = str(db.url)  # type: ignore[attr-defined]

    async def entry_then_lock(c: Conn) -> object:
        await c.execute(_ENTRY, (GUILD, "held-open"))
        other = await asyncpg.connect(url)
        try:
            return await other.fetchval(
                "SELECT guild_id FROM bank_guilds WHERE guild_id = $1 FOR UPDATE NOWAIT", GUILD
            )
        finally:
            await other.close()

    assert await db.write(entry_then_lock) == GUILD
