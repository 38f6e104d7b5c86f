"""Interactive reads never wait for a long one (issue 37): while an audit holds the long
reads' connection, players use /bank and it answers at once; the audit then finishes.

The audit is held on purpose, deterministically: a gate read on the long connection first
(SQLite: it blocks that connection's thread; PostgreSQL: its connection, awaiting), then
the bank's real audit queued behind it."""

from __future__ import annotations

import asyncio
import threading
import time
from typing import Any

import pytest

from bot.db import Conn
from tests.e2e.helpers import add_players, embed_text


@pytest.fixture
def db_path(database_url: str) -> str:
    """This module runs on both databases (tests/conftest.py ``database_url``)."""
    return database_url


class Gate:
    """A long read that holds its connection until :meth:`open` is called."""

    def __init__(self, dialect: str) -> None:
        self.dialect = dialect
        self.started = threading.Event()
        self._go = threading.Event()
        self._async_go = asyncio.Event()

    async def read(self, conn: Conn) -> int:
        row = await conn.fetchone("SELECT COUNT(*) FROM bank_entries")
        self.started.set()
        if self.dialect == "sqlite":  # on the long reader's own thread: block it there
            assert self._go.wait(20), "the gate was never opened"
        else:  # on the loop: hold the connection, not the loop
            await asyncio.wait_for(self._async_go.wait(), 20)
        return int(row[0])

    def open(self) -> None:
        self._go.set()
        self._async_go.set()


def reply(res: Any) -> str:
    msg = res.followups[-1] if res.followups else res.response
    return embed_text(msg)


async def test_bank_answers_while_an_audit_holds_the_long_reads(simcord_env):
    env = simcord_env
    db = env.bot.db
    guild = env.create_guild()
    lobby = guild.create_text_channel("casino")
    alice, bob = add_players(env, guild, "alice", "bob")
    await alice.member.slash(lobby, "bank give", user=bob.member, amount=50)

    gate = Gate(db.dialect)
    held = asyncio.ensure_future(db.read_long(gate.read))
    while not gate.started.is_set():
        await asyncio.sleep(0.001)
    audit = asyncio.ensure_future(env.bot.bank.audit(guild.id))  # queued behind the gate
    try:
        started = time.monotonic()
        for who, command, kwargs in (
            (alice, "bank balance", {}),
            (bob, "bank balance", {"user": alice.member}),
            (bob, "bank history", {}),
            (alice, "bank top", {}),
        ):
            res = await who.member.slash(lobby, command, **kwargs)
            assert res.response is not None and reply(res), command
        assert "950" in reply(await alice.member.slash(lobby, "bank balance"))
        assert time.monotonic() - started < 5  # none waited for the 20 s gate
        await asyncio.sleep(0.05)
        assert not held.done() and not audit.done()  # the long reads are still held
    finally:
        gate.open()
    assert await held >= 1
    report = await audit
    assert report.ok, report.format()
