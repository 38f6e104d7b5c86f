"""Another process holds the SQLite write lock while players act (issue 37): the loop never
waits for it, a write waits in ``asyncio.sleep`` up to the bound, then is refused with one
sentence; nothing is applied, nothing is lost, and timers are tried again until they fire.

The other process is real (``sqlite3`` in a child Python holding ``BEGIN IMMEDIATE``), as
an admin's ``sqlite3`` shell or a backup tool would be."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Iterator
from typing import Any

import pytest

from bot.engine.base import Phase
from bot.i18n import t
from bot.ui.render.bank import amount
from tests.bank_audit import assert_audit_clean, entry_count
from tests.db_lock import LockHolder
from tests.e2e.helpers import add_players, table_message
from tests.e2e.recovery_helpers import click_move
from tests.e2e.test_outages import classic_in_play


@pytest.fixture
def holders() -> Iterator[list[LockHolder]]:
    """The lock holders a test started; none outlives it."""
    started: list[LockHolder] = []
    yield started
    for holder in started:
        holder.kill()


def reply(res: Any) -> str:
    msg = res.followups[-1] if res.followups else res.response
    return str(msg.content or "")


async def stalls_while(coro: Any) -> tuple[Any, float]:
    """Run ``coro``; return its result and the worst lateness of a 5 ms ticker beside it
    (how long the event loop was held at a stretch)."""
    worst = 0.0
    running = True

    async def ticker() -> None:
        nonlocal worst
        loop = asyncio.get_running_loop()
        while running:
            before = loop.time()
            await asyncio.sleep(0.005)
            worst = max(worst, loop.time() - before - 0.005)

    task = asyncio.ensure_future(ticker())
    try:
        result = await coro
    finally:
        running = False
        await task
    return result, worst


async def test_a_short_lock_only_delays_the_writes_and_never_the_loop(
    simcord_env, db_path, holders
):
    env = simcord_env
    guild = env.create_guild()
    lobby = guild.create_text_channel("casino")
    alice, bob = add_players(env, guild, "alice", "bob")
    await alice.member.slash(lobby, "bank balance")  # her account opens
    holders.append(LockHolder(db_path, hold=0.4))
    started = time.monotonic()
    res, stall = await stalls_while(
        alice.member.slash(lobby, "bank give", user=bob.member, amount=250)
    )
    waited = time.monotonic() - started
    # the give waited for the lock (0.4 s) in asyncio.sleep, within the bound, then went
    assert res.ephemeral and amount(750, "en") in reply(res), reply(res)
    assert 0.2 < waited < env.bot.db.busy_bound
    assert stall < 0.2  # the loop went on (a blocking wait would hold it ~0.4 s)
    assert await env.bot.bank.balance(guild.id, bob.id) == 1250
    await assert_audit_clean(env.bot.db)


async def test_past_the_bound_a_move_is_refused_in_one_sentence_and_nothing_is_lost(
    simcord_env, db_path, holders
):
    env = simcord_env
    _guild, thread, (alice, bob), table = await classic_in_play(env)
    assert table.game.to_act == alice.id
    version, entries = table.version, await entry_count(env.bot.db)
    holder = LockHolder(db_path)
    holders.append(holder)

    started = time.monotonic()
    res, stall = await stalls_while(click_move(alice.member, table_message(thread, table), "hit"))
    waited = time.monotonic() - started
    bound = env.bot.db.busy_bound
    assert res.ephemeral and reply(res) == t("db.busy", "en")
    assert bound <= waited < bound + 1.0  # answered well inside Discord's 3 s
    assert stall < 0.2
    assert table.version == version and table.game.to_act == alice.id  # nothing applied

    # a read never waits for the lock (WAL): bob's balance answers at once (her own would
    # open her account if need be: a write)
    started = time.monotonic()
    res = await alice.member.slash(thread, "bank balance", user=bob.member)
    assert "balance" in reply(res) and time.monotonic() - started < 0.5

    # the lock is still held: the next write is refused at once, not after the bound again
    started = time.monotonic()
    res = await alice.member.slash(thread, "hit")
    assert reply(res) == t("db.busy", "en") and time.monotonic() - started < 0.5
    assert await entry_count(env.bot.db) == entries

    holder.release()  # nothing was lost: the move can be made now
    await click_move(alice.member, table_message(thread, table), "hit")
    assert table.version == version + 1
    await assert_audit_clean(env.bot.db)


async def test_a_timer_under_the_lock_fires_once_it_is_released(
    simcord_env, db_path, holders, caplog
):
    env = simcord_env
    _guild, _thread, (alice, bob), table = await classic_in_play(env)
    assert table.game.phase is Phase.PLAYING and table.game.to_act == alice.id
    version = table.version
    holder = LockHolder(db_path)
    holders.append(holder)
    await env.advance_time(91)  # alice's turn timer (90 s) is due: its write waits
    # the bound is on the loop's own clock, not SimCord's virtual one: let it pass for real
    await env.settle()
    assert table.version == version and table.game.to_act == alice.id
    assert env.bot.scheduler.retries  # kept to be tried again
    failed = [r for r in caplog.records if "timer" in r.getMessage() and "failed" in r.getMessage()]
    assert failed and all(r.levelname == "WARNING" and not r.exc_info for r in failed)
    holder.release()
    await env.advance_time(10)
    assert table.version == version + 1 and table.game.to_act == bob.id
    assert not env.bot.scheduler.retries
    await assert_audit_clean(env.bot.db)
