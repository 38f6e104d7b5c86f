"""PostgreSQL's side of a lock held by another process (issue 37): a row lock held past
``lock_timeout`` refuses the write with the same sentence as SQLite's bound; nothing is
applied, and the move goes through once the lock is gone. The server waits, not the loop."""

from __future__ import annotations

import time

import asyncpg
import pytest

from bot.db.postgres import LOCK_TIMEOUT_MS
from bot.i18n import t
from bot.ui.render.bank import amount
from tests.bank_audit import assert_audit_clean, entry_count
from tests.conftest import NEEDS_PG
from tests.e2e.helpers import add_players


@pytest.fixture(params=[pytest.param("postgresql", marks=NEEDS_PG)])
def backend(request: pytest.FixtureRequest) -> str:
    """PostgreSQL only (SQLite's side: test_db_lock.py)."""
    return str(request.param)


@pytest.fixture
def db_path(database_url: str) -> str:
    return database_url


async def test_a_row_lock_past_lock_timeout_is_refused_and_nothing_is_lost(simcord_env, db_path):
    env = simcord_env
    guild = env.create_guild()
    lobby = guild.create_text_channel("casino")
    alice, bob = add_players(env, guild, "alice", "bob")
    await alice.member.slash(lobby, "bank balance")
    await bob.member.slash(lobby, "bank balance")
    entries = await entry_count(env.bot.db)

    other = await asyncpg.connect(db_path)  # another process's transaction
    try:
        lock = other.transaction()
        await lock.start()
        await other.execute(
            "SELECT balance FROM bank_accounts WHERE guild_id = $1 AND user_id = $2 FOR UPDATE",
            guild.id,
            alice.id,
        )
        started = time.monotonic()
        res = await alice.member.slash(lobby, "bank give", user=bob.member, amount=250)
        waited = time.monotonic() - started
        assert res.ephemeral and res.response.content == t("db.busy", "en")
        assert LOCK_TIMEOUT_MS / 1000 <= waited < LOCK_TIMEOUT_MS / 1000 + 1.0
        assert await entry_count(env.bot.db) == entries  # nothing applied
        await lock.rollback()
    finally:
        await other.close()

    res = await alice.member.slash(lobby, "bank give", user=bob.member, amount=250)
    assert amount(750, "en") in res.response.content
    assert await env.bot.bank.balance(guild.id, bob.id) == 1250
    await assert_audit_clean(env.bot.db)
