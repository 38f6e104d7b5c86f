"""Nothing is lost across restarts: a fresh bot process on the same database reloads every
open table mid-round (all four games), re-attaches the buttons of the old table message,
re-arms the timers, and the game goes on to a clean audit."""

from __future__ import annotations

from typing import Any

import pytest

from bot.engine.base import ActionKind, Phase
from bot.tables import Table
from tests.bank_audit import assert_audit_clean
from tests.e2e.helpers import add_players, embed_text, service, table_message, table_of, thread_of
from tests.e2e.recovery_helpers import (
    click_move,
    escrow_seats,
    fresh_render,
    move_buttons,
    play_round,
    restart,
    shown,
    stacks,
)


@pytest.fixture
def db_path(database_url: str) -> str:
    """This module runs on both databases (tests/conftest.py ``database_url``)."""
    return database_url


BACK = "The croupier is back"


async def restart_and_check(env: Any, db_path: str, thread: Any, table: Table) -> Table:
    """Restart; the table comes back with the same state, version and buttons."""
    snapshot, version = table.game.to_dict(), table.version
    before = move_buttons(table_message(thread, table))
    deadline = table.deadline_due
    await restart(env, db_path)
    again = table_of(env, thread)
    assert again is not table  # a new process, a new object
    assert again.version == version and again.game.to_dict() == snapshot
    assert again.deadline_due == deadline
    message = table_message(thread, again)
    assert BACK in embed_text(message)
    assert move_buttons(message) == before  # the old buttons are the buttons
    return again


async def close_and_check(env: Any, thread: Any, host: Any, table: Table) -> None:
    """Close the table (between rounds): each seat is settled as a leave (Casino 21 below
    the wagering requirement: only own funds are kept); the audit is clean."""
    bank = service(env).bank
    expected = {p: s for p, s in stacks(table).items() if s}
    if expected:
        assert await escrow_seats(bank, table) == expected
    terms = getattr(table.game, "leave_terms", None)
    if terms is not None:  # (forfeit, keep)
        expected = {p: terms(p)[1] for p in expected if terms(p)[1]}
    res = await host.member.slash(thread, "table close")
    assert res.ephemeral
    assert service(env).table_in(thread.id) is None
    claims: dict[int, int] = {}
    for c in await bank.claims(table.guild_id):
        claims[c.user_id] = claims.get(c.user_id, 0) + c.amount
    assert claims == expected
    assert await escrow_seats(bank, table) == {}
    await assert_audit_clean(env.bot.db)


def world(env: Any, *names: str) -> Any:
    """A guild, a lobby channel and players."""
    guild = env.create_guild()
    lobby = guild.create_text_channel("casino")
    return guild, lobby, add_players(env, guild, *names)


async def test_classic_restart_during_bets(simcord_env, db_path):
    env = simcord_env
    _guild, lobby, (alice, bob, carol) = world(env, "alice", "bob", "carol")
    await alice.member.slash(lobby, "table open", game="blackjack")
    thread = thread_of(lobby)
    table = table_of(env, thread)
    for p in (bob, carol):
        await p.member.slash(thread, "table join", buy_in=100)
    table.game.rig(["TS", "9H", "5C", "TD", "8S", "7H", "6D", "KC", "7D", "5S"])  # type: ignore[attr-defined]
    await alice.member.click(table_message(thread, table), label="Start")
    await click_move(alice.member, table_message(thread, table), "bet:10")
    old = table_message(thread, table)
    table = await restart_and_check(env, db_path, thread, table)
    # the buttons of the message as it was before the restart still work
    await bob.member.click(old, custom_id=move_buttons(old)["bet:20"])
    await click_move(carol.member, table_message(thread, table), "bet:10")
    assert table.game.phase is Phase.PLAYING
    assert {p: s for p, s in stacks(table).items()} == {alice.id: 190, bob.id: 80, carol.id: 90}
    await play_round(env, thread, [alice, bob, carol], table)
    assert any("results" in (m.content or "") for m in thread.history())
    await close_and_check(env, thread, alice, table)


async def test_casino21_restart_with_a_pending_ace(simcord_env, db_path):
    env = simcord_env
    _guild, lobby, (alice, bob) = world(env, "alice", "bob")
    await alice.member.slash(lobby, "table open", game="casino21")
    thread = thread_of(lobby)
    table = table_of(env, thread)
    await bob.member.slash(thread, "table join")
    table.game.rig(["TS", "9H", "AS", "7H", "6D", "KC", "7D", "5S", "8C"])  # type: ignore[attr-defined]
    await alice.member.click(table_message(thread, table), label="Start")
    await click_move(alice.member, table_message(thread, table), "bet:10")
    await click_move(bob.member, table_message(thread, table), "bet:10")
    assert ActionKind.CHOOSE_ACE in table.game.legal_actions(bob.id)
    old = table_message(thread, table)
    assert "Ace = 11" in [b.label for row in old.components for b in row.children]
    table = await restart_and_check(env, db_path, thread, table)
    assert ActionKind.CHOOSE_ACE in table.game.legal_actions(bob.id)
    res = await bob.member.click(old, custom_id=move_buttons(old)["ace:11"])
    assert (
        res.response is None
        or res.response.content is None
        or "older" not in (res.response.content or "")
    )
    assert ActionKind.CHOOSE_ACE not in table.game.legal_actions(bob.id)
    await play_round(env, thread, [alice, bob], table)
    await close_and_check(env, thread, alice, table)


async def test_sept_et_demi_restart_during_a_swap_decision(simcord_env, db_path):
    env = simcord_env
    _guild, lobby, (alice, bob, carol) = world(env, "alice", "bob", "carol")
    await alice.member.slash(lobby, "table open", game="sept_et_demi", options="rounds=3")
    thread = thread_of(lobby)
    table = table_of(env, thread)
    for p in (bob, carol):
        await p.member.slash(thread, "table join")
    table.game.rig(["3S", "5H", "KD", "2C", "7H"])  # type: ignore[attr-defined]
    await alice.member.click(table_message(thread, table), label="Start")
    await click_move(bob.member, table_message(thread, table), "bet:25")
    await click_move(carol.member, table_message(thread, table), "bet:50")
    await bob.member.click(table_message(thread, table), label="Hit")
    legal = table.game.legal_actions(bob.id)
    assert ActionKind.SWAP in legal and ActionKind.SHOW in legal
    old = table_message(thread, table)
    labels = [b.label for row in old.components for b in row.children]
    assert "Show it" in labels
    table = await restart_and_check(env, db_path, thread, table)
    await bob.member.click(old, custom_id=move_buttons(old)["swap"])
    assert ActionKind.SWAP not in table.game.legal_actions(bob.id)
    await play_round(env, thread, [alice, bob, carol], table)
    await close_and_check(env, thread, alice, table)


async def test_pirate21_restart_during_a_turn(simcord_env, db_path):
    env = simcord_env
    guild, lobby, (alice, bob, carol) = world(env, "alice", "bob", "carol")
    await alice.member.slash(lobby, "table open", game="pirate21")
    thread = thread_of(lobby)
    table = table_of(env, thread)
    for p in (bob, carol):
        await p.member.click(table_message(thread, table), label="Join")
    pile = ["TS", "5C", "8S", "9H", "7D", "8D", "KC"] + ["2S", "3S", "4S", "5S", "6S", "7S"] * 3
    table.game.rig(pile, only=True)  # type: ignore[union-attr]
    await alice.member.click(table_message(thread, table), label="Start")
    to_act = table.game.to_act
    player = next(p for p in (alice, bob, carol) if p.id == to_act)
    old = table_message(thread, table)
    assert "Stand" in [b.label for row in old.components for b in row.children]
    table = await restart_and_check(env, db_path, thread, table)
    await player.member.click(old, custom_id=move_buttons(old)["stand"])
    assert table.game.to_act != to_act
    await play_round(env, thread, [alice, bob, carol], table)
    await close_and_check(env, thread, alice, table)
    assert await service(env).bank.balance(guild.id, alice.id) in (0, 1000)  # coins, no money


async def test_a_deadline_that_passed_while_down_fires_at_once(
    simcord_env, db_path, monkeypatch: pytest.MonkeyPatch
):
    env = simcord_env
    _guild, lobby, (alice, bob) = world(env, "alice", "bob")
    await alice.member.slash(lobby, "table open", game="blackjack")
    thread = thread_of(lobby)
    table = table_of(env, thread)
    await bob.member.slash(thread, "table join", buy_in=100)
    await alice.member.click(table_message(thread, table), label="Start")
    await click_move(alice.member, table_message(thread, table), "bet:10")
    assert table.game.phase is Phase.BETTING and table.deadline_due is not None
    due = table.deadline_due
    # "down": a bot whose scheduler never starts runs while the bet deadline passes
    from bot.discord.scheduler import Scheduler

    monkeypatch.setattr(Scheduler, "start", lambda self: None)
    await restart(env, db_path)
    assert not env.bot.scheduler.loop.is_running()
    await env.advance_time(due - env.now().timestamp() + 30)
    assert table_of(env, thread).game.phase is Phase.BETTING  # nothing fired meanwhile
    monkeypatch.undo()
    await restart(env, db_path)
    table = table_of(env, thread)
    await env.advance_time(2)  # one tick of the timer loop
    assert table.game.phase is not Phase.BETTING  # bob sat the round out: the deal went on
    assert table.version > 4
    await play_round(env, thread, [alice, bob], table)
    await close_and_check(env, thread, alice, table)


async def test_a_table_message_matches_a_fresh_render_after_restart(simcord_env, db_path):
    env = simcord_env
    _guild, lobby, (alice, bob) = world(env, "alice", "bob")
    await alice.member.slash(lobby, "table open", game="blackjack")
    thread = thread_of(lobby)
    table = table_of(env, thread)
    await bob.member.slash(thread, "table join", buy_in=100)
    table = await restart_and_check(env, db_path, thread, table)
    await alice.member.click(table_message(thread, table), label="Start")
    assert shown(table_message(thread, table)) == fresh_render(env, table)
    await assert_audit_clean(env.bot.db)
