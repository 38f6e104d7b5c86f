"""Timers on SimCord's virtual clock: a player who does not bet sits out (60 s live), one
who does not act stands (90 s), an idle table closes itself (30 min live) with refunds and
claims, and forum pace gives 24 h."""

from __future__ import annotations

from typing import Any

import pytest

from tests.bank_audit import assert_audit_clean
from tests.e2e.helpers import classic_table, embed_text, service, table_message


@pytest.fixture
def db_path(database_url: str) -> str:
    """This module runs on both databases (tests/conftest.py ``database_url``)."""
    return database_url


# alice 10♠ 8♠ = 18, bob 9♥ 7♥ = 16, carol 5♣ 6♦ = 11, the dealer 10♦ + K♣; then 2♦ 5♠...
ROUND = ["TS", "9H", "5C", "TD", "8S", "7H", "6D", "KC", "2D", "5S", "4C", "3C", "2C"]
# two players only (carol sits out): alice 10♠ 5♣, bob 9♥ 8♠, the dealer 10♦ 7♥
TWO = ["TS", "9H", "TD", "5C", "8S", "7H", "6D", "KC", "2D", "5S"]


async def classic(env: Any, options: str | None = None) -> tuple[Any, Any, Any, list[Any]]:
    guild, _lobby, thread, table, players = await classic_table(
        env, "alice", "bob", "carol", options=options
    )
    return guild, thread, table, players


def in_hands(table: Any) -> set[int]:
    return {h.player for h in table.game.public_view().own.hands}


async def test_bet_timer_sits_out_and_turn_timer_stands(simcord_env):
    env = simcord_env
    _guild, thread, table, (alice, bob, carol) = await classic(env)
    table.game.rig(TWO)
    await alice.member.click(table_message(thread, table), label="Start")
    await alice.member.click(table_message(thread, table), label="Bet 10")
    await bob.member.click(table_message(thread, table), label="Bet 10")
    await env.advance_time(55)
    assert table.game.phase.value == "betting"  # 60 s: not yet
    await env.advance_time(6)
    assert table.game.phase.value == "playing"
    assert in_hands(table) == {alice.id, bob.id}  # carol sat the round out
    assert table.game.stacks[carol.id] == 100
    # alice (15) does not act: after 90 s she stands and the turn goes to bob
    assert table.game.to_act == alice.id
    await env.advance_time(85)
    assert table.game.to_act == alice.id
    await env.advance_time(6)
    assert table.game.to_act == bob.id
    (hand,) = [h for h in table.game.public_view().own.hands if h.player == alice.id]
    assert len(hand.cards) == 2 and hand.status in ("stood", "stand", "standing")
    # bob is silent too: the round is played out by the timers alone
    await env.advance_time(91)
    assert table.game.round == 2 or table.game.phase.value == "between_rounds"
    assert any("results" in m.content for m in thread.history())
    await assert_audit_clean(env.bot.db)


async def test_idle_table_closes_itself_with_refunds_and_claims(simcord_env):
    env = simcord_env
    # long move timers, so that the round is still in play when the idle timer fires
    guild, thread, table, (alice, bob, carol) = await classic(
        env, options="bet_seconds=7200 turn_seconds=7200"
    )
    table.game.rig(ROUND)
    await alice.member.click(table_message(thread, table), label="Start")
    await alice.member.click(table_message(thread, table), label="Bet 10")
    await bob.member.click(table_message(thread, table), label="Bet 20")
    await carol.member.click(table_message(thread, table), label="Bet 50")
    assert table.game.phase.value == "playing"
    await env.advance_time(30 * 60 - 5)
    assert service(env).table_in(thread.id) is table
    await env.advance_time(6)
    assert service(env).table_in(thread.id) is None  # closed by itself
    bank = service(env).bank
    claims = {c.user_id: c.amount for c in await bank.claims(guild.id)}
    assert claims == {alice.id: 200, bob.id: 100, carol.id: 100}  # the bets refunded
    assert not table_message(thread, table).components  # no buttons on a closed table
    assert "closed" in thread.history()[-1].content
    await assert_audit_clean(env.bot.db)


async def test_forum_pace_gives_a_day(simcord_env):
    env = simcord_env
    _guild, thread, table, (alice, bob, carol) = await classic(env, options="pace=forum")
    assert table.settings.bet_timer == table.settings.turn_timer == 24 * 3600
    table.game.rig(TWO)
    await alice.member.click(table_message(thread, table), label="Start")
    await alice.member.click(table_message(thread, table), label="Bet 10")
    await bob.member.click(table_message(thread, table), label="Bet 10")
    due = table.deadline_due
    assert due is not None and f"<t:{int(due)}:R>" in embed_text(table_message(thread, table))
    await env.advance_time(24 * 3600 - 60)
    assert table.game.phase.value == "betting"  # a live table would have moved on long ago
    await env.advance_time(61)
    assert table.game.phase.value == "playing" and carol.id not in in_hands(table)
    # the turn at forum pace: 24 h too
    assert table.game.to_act == alice.id
    await env.advance_time(23 * 3600)
    assert table.game.to_act == alice.id
    await env.advance_time(3600 + 1)
    assert table.game.to_act == bob.id


async def test_a_move_does_not_wake_the_timer_loop_for_nothing(simcord_env):
    """discord.py counts the loop's interval from its last iteration: a move long after that
    iteration, arming a deadline sooner than the loop's planned wake-up, must plan the
    wake-up at the deadline, not in the past (the loop would run at once, for nothing)."""
    env = simcord_env
    _guild, thread, table, (alice, _bob, _carol) = await classic(env)
    loop = env.bot.scheduler.loop
    await env.advance_time(100)  # the loop sleeps (nothing due for 30 min: the idle timer)
    ticks = loop.current_loop
    await alice.member.click(table_message(thread, table), label="Start")  # bets: 60 s
    assert loop.current_loop == ticks
    await env.advance_time(55)
    assert loop.current_loop == ticks and table.game.phase.value == "betting"
    await env.advance_time(6)  # the bet deadline wakes it, and fires
    assert loop.current_loop == ticks + 1 and table.game.phase.value != "betting"
