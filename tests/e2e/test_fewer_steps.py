"""Fewer steps (issue 38 point 8), end to end: "Same bet" and "Rebet ×2" on the table
message, in both languages, with their refusals."""

from __future__ import annotations

from typing import Any

import pytest

from bot.i18n import t
from tests.bank_audit import assert_audit_clean
from tests.e2e.helpers import add_players, classic_table, table_message


def labels(message: Any) -> list[str]:
    """The labels of a message's buttons, in display order."""
    return [c.label for row in message.components for c in row.children]


async def first_round(env: Any, thread: Any, table: Any, players: list[Any], locale: str) -> None:
    """Round 1: the first player bets 20 and wins (19 against 18), the second bets 20 and
    loses (16), the third sits out."""
    alice, bob, carol = players
    table.game.rig(["TH", "TC", "TD", "9S", "6S", "8H"])
    await alice.member.click(table_message(thread, table), label=t("move.start", locale))
    for p in (alice, bob):
        await p.member.click(table_message(thread, table), label=t("move.bet_n", locale, amount=20))
    await carol.member.click(table_message(thread, table), label=t("move.sit_out", locale))
    for p in (alice, bob):
        await p.member.click(table_message(thread, table), label=t("move.stand", locale))
    assert table.game.round == 2 and table.game.phase.value == "betting"


@pytest.mark.parametrize("locale", ["en", "fr"])
async def test_same_bet_and_rebet_double(simcord_env: Any, locale: str) -> None:
    env = simcord_env
    guild = env.create_guild()
    lobby = guild.create_text_channel("casino")
    alice, bob, carol = players = add_players(env, guild, "alice", "bob", "carol")
    stranger = add_players(env, guild, "dave")[0]
    for p in (*players, stranger):
        await p.member.slash(lobby, "language", language=locale)
    await alice.member.slash(lobby, "table open", game="blackjack", options="max_bet=30")
    thread = lobby.threads[-1]
    table = env.bot.tables.table_in(thread.id)
    await bob.member.slash(thread, "table join", buy_in=30)
    await carol.member.slash(thread, "table join", buy_in=100)
    same, double = t("move.rebet_same", locale), t("move.rebet_double", locale)
    assert same not in labels(table_message(thread, table))  # nobody bet yet

    await first_round(env, thread, table, players, locale)
    message = table_message(thread, table)
    assert labels(message)[:2] == [same, double]  # first, above the quick bets
    assert len(message.components) <= 5 and all(len(r.children) <= 5 for r in message.components)
    stacks = dict(table.game.stacks)
    assert stacks == {alice.id: 220, bob.id: 10, carol.id: 100}

    # alice: x2 is 40, over the table's 30; the same bet is taken
    res = await alice.member.click(message, label=double)
    want = t("table.error.rebet_bet_out_of_range", locale, amount=40, min=10, max=30)
    assert res.ephemeral and res.response.content == want
    assert table.game.bets == {}
    await alice.member.click(table_message(thread, table), label=same)
    assert table.game.bets == {alice.id: 20} and table.game.stacks[alice.id] == 200
    # bob lost: his stack of 10 does not cover 20
    res = await bob.member.click(table_message(thread, table), label=same)
    want = t("table.error.rebet_insufficient_stack", locale, needed=20, stack=10)
    assert res.ephemeral and res.response.content == want
    # carol sat out: no last bet; a stranger is not seated
    res = await carol.member.click(table_message(thread, table), label=same)
    assert res.ephemeral and res.response.content == t("table.error.no_last_bet", locale)
    res = await stranger.member.click(table_message(thread, table), label=double)
    assert res.ephemeral and res.response.content == t("illegal.not_seated", locale)
    assert table.game.bets == {alice.id: 20}
    # bob bets all he has; the buttons go once nobody waited for bet last round
    await bob.member.click(table_message(thread, table), label=t("move.bet_n", locale, amount=10))
    assert same not in labels(table_message(thread, table))
    await assert_audit_clean(env.bot.db)


async def test_rebet_double_is_a_bet_of_twice_the_last(simcord_env: Any) -> None:
    env = simcord_env
    _, _, thread, table, (alice, bob) = await classic_table(env, "alice", "bob")
    table.game.rig(["TH", "TC", "TD", "9S", "9C", "8H"])
    await alice.member.click(table_message(thread, table), label="Start")
    await alice.member.click(table_message(thread, table), label="Bet 10")
    await bob.member.click(table_message(thread, table), label="Bet 20")
    for p in (alice, bob):
        await p.member.click(table_message(thread, table), label=t("move.stand", "en"))
    assert table.game.stacks == {alice.id: 210, bob.id: 120}  # both 19 against 18
    await bob.member.click(table_message(thread, table), label="Rebet ×2")
    await alice.member.click(table_message(thread, table), label="Same bet")
    assert table.game.bets == {alice.id: 10, bob.id: 40}
    assert table.game.stacks == {alice.id: 200, bob.id: 80}
    assert table.game.phase.value == "playing"  # the bets closed: dealt as for any bet
