"""REST calls per move: a button move costs one call (the interaction response edits the
table message); a round costs at most moves + private cards dealt + 2."""

from __future__ import annotations

import asyncio
from typing import Any

from tests.e2e.helpers import add_players, table_message, table_of, thread_of
from tests.e2e.recovery_helpers import fresh_render, shown

# alice 10♠ 8♠ = 18, bob 9♥ 7♥ = 16, carol 5♣ 6♦ = 11, the dealer 10♦ + K♣ (20); then 2♦...
ROUND = ["TS", "9H", "5C", "TD", "8S", "7H", "6D", "KC", "2D", "5S", "4C", "3C", "2C"]


def calls_since(env: Any, start: int) -> list[str]:
    return [f"{r.method} {r.path}" for r in env.http_requests[start:]]


async def three_players(env: Any) -> tuple[Any, Any, list[Any]]:
    guild = env.create_guild()
    lobby = guild.create_text_channel("casino")
    players = add_players(env, guild, "alice", "bob", "carol")
    await players[0].member.slash(lobby, "table open", game="blackjack")
    thread = thread_of(lobby)
    table = table_of(env, thread)
    for p in players[1:]:
        await p.member.slash(thread, "table join", buy_in=100)
    return thread, table, players


async def test_one_round_with_buttons_costs_one_call_per_move(simcord_env):
    env = simcord_env
    thread, table, (alice, bob, carol) = await three_players(env)
    table.game.rig(ROUND)
    start = len(env.http_requests)
    moves = [
        (alice, "Start"),
        (alice, "Bet 10"),
        (bob, "Bet 10"),
        (carol, "Bet 10"),
        (alice, "Stand"),
        (bob, "Hit"),  # 18
        (bob, "Stand"),
        (carol, "Stand"),  # the dealer plays, the round is settled, the next one starts
    ]
    per_move = []
    for player, label in moves:
        before = len(env.http_requests)
        res = await player.member.click(table_message(thread, table), label=label)
        assert not res.ephemeral
        per_move.append(calls_since(env, before))
    calls = calls_since(env, start)
    private_cards = 0  # Black Jack deals no private card
    summary = [c for c in calls if c == f"POST /channels/{thread.id}/messages"]
    assert len(summary) == 1  # the round summary, a separate message
    assert all(len(c) == 1 and c[0].endswith("/callback") for c in per_move[:-1]), per_move
    assert per_move[-1][0].endswith("/callback") and len(per_move[-1]) == 2, per_move[-1]
    assert len(calls) <= len(moves) + private_cards + 2, calls
    assert len(calls) == 9  # 8 interaction responses + 1 summary (reported in the docs)


async def test_a_slash_move_costs_two_calls(simcord_env):
    """A slash command must be answered (the ephemeral 'done'), and the table message is
    another message: an edit of it is a second call. The interaction response of a slash
    command cannot edit an existing message (UPDATE_MESSAGE is for components only). The
    answer goes first, so it never waits for the edit."""
    env = simcord_env
    thread, table, (alice, bob, carol) = await three_players(env)
    table.game.rig(ROUND)
    await alice.member.click(table_message(thread, table), label="Start")
    for p in (alice, bob, carol):
        await p.member.click(table_message(thread, table), label="Bet 10")
    before = len(env.http_requests)
    res = await alice.member.slash(thread, "stand")
    assert res.ephemeral
    calls = calls_since(env, before)
    assert len(calls) == 2, calls
    assert calls[0].endswith("/callback")
    assert calls[1].startswith(f"PATCH /channels/{thread.id}/messages/")


def slow_first_edit(env: Any, publisher: Any) -> asyncio.Event:
    """Make Discord slow to answer the next REST edit of a table message: it lands
    when the returned event is set."""
    landed = asyncio.Event()
    real = publisher.edit_table_message
    pending = [True]

    async def edit(table: Any, note: str | None = None) -> None:
        if pending:
            pending.clear()
            await env.external_wait(landed.wait(), reason="Discord has not answered the edit")
        await real(table, note)

    publisher.edit_table_message = edit
    return landed


async def test_edits_asked_while_one_is_in_flight_go_out_as_one(simcord_env):
    """A REST edit of the table message in flight: the edits the next moves ask for
    meanwhile wait for it, then go out as one edit of the latest state (3 slash bets while
    Discord is slow: 2 edits, not 3)."""
    env = simcord_env
    thread, table, (alice, bob, carol) = await three_players(env)
    table.game.rig(ROUND)
    await alice.member.click(table_message(thread, table), label="Start")
    publisher = env.bot.publisher
    landed = slow_first_edit(env, publisher)
    edit = f"PATCH /channels/{thread.id}/messages/{table.message_id}"
    before = len(env.http_requests)
    first = await alice.member.slash(thread, "bet", amount=10)
    assert publisher.edits.in_flight(table.id)  # alice's edit hangs...
    assert first.acknowledged  # ...but she has her answer: it went before the edit
    replies = []
    for p in (bob, carol):
        res = await p.member.slash(thread, "bet", amount=10)
        replies.append(res.response.content)
    assert table.game.phase.name == "PLAYING"  # the third bet dealt the cards
    assert calls_since(env, before).count(edit) == 0  # the first edit has not landed
    landed.set()
    await env.settle()
    replies.append(first.response.content)
    calls = calls_since(env, before)
    assert calls.count(edit) == 2, calls  # the slow one, then one with both other bets
    assert shown(table_message(thread, table)) == fresh_render(env, table)
    assert all("recorded" not in r for r in replies), replies  # each is told it is done
    assert not publisher.edits.in_flight(table.id)
