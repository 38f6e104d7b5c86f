"""Every change is said (issue 38 point 2), end to end through SimCord, in both languages:
a new host is told in a post that pings them; the table message says, under its status
line, the seats taken and freed, a player removed, the timers that played, a reshuffled
shoe and the bank passing on (Sept et demi), until the next round starts."""

from __future__ import annotations

from typing import Any

import pytest

from bot.engine.base import Phase
from bot.i18n import t
from tests.e2e.helpers import (
    add_players,
    embed_text,
    ping_requests,
    table_message,
    table_of,
    thread_of,
)

LANGS = ["en", "fr"]


async def open_at(env: Any, lang: str, game: str, *names: str, options: str | None = None):
    """A table whose language is ``lang`` (its host's), the first player hosting, the
    others seated."""
    guild = env.create_guild()
    lobby = guild.create_text_channel("casino")
    players = add_players(env, guild, *names)
    host = players[0]
    await host.member.slash(lobby, "language", language=lang)
    kwargs: dict[str, Any] = {"game": game}
    if options:
        kwargs["options"] = options
    await host.member.slash(lobby, "table open", **kwargs)
    thread = thread_of(lobby)
    table = table_of(env, thread)
    for p in players[1:]:
        await p.member.slash(thread, "table join")
    return thread, table, players


def shown(thread: Any, table: Any) -> str:
    return embed_text(table_message(thread, table))


def news(lang: str, key: str, emoji: str, **params: Any) -> str:
    return f"{emoji} " + t(key, lang, **params)


@pytest.mark.parametrize("lang", LANGS)
async def test_the_next_host_is_told_when_the_host_leaves(simcord_env, lang):
    env = simcord_env
    thread, table, (alice, bob, carol) = await open_at(env, lang, "blackjack", "a", "b", "c")
    start = len(env.http_requests)
    await alice.member.slash(thread, "table leave")
    assert table.game.host == bob.id and alice.id not in table.game.seated()
    # one post, pinging the new host alone (an edit never pings)
    notice = news(lang, "news.host", "👑", player=f"<@{bob.id}>")
    assert ping_requests(env, thread.id, start) == [{"content": notice, "users": [bob.id]}]
    assert news(lang, "news.left", "🚪", player=f"<@{alice.id}>") in shown(thread, table)
    assert carol.id in table.game.seated()
    # the new host hosts: bob closes the table
    closed = await bob.member.slash(thread, "table close")
    assert closed.response.content == t("move.done.close", "en")  # in his language
    assert not table.is_open


@pytest.mark.parametrize("lang", LANGS)
async def test_seats_taken_and_freed_and_a_removal_are_said_until_the_round(simcord_env, lang):
    env = simcord_env
    thread, table, (alice, bob, carol) = await open_at(env, lang, "blackjack", "a", "b", "c")
    joined = news(lang, "news.joined", "🪑", player=f"<@{carol.id}>")
    assert joined in shown(thread, table)
    (dave,) = add_players(env, thread.guild, "d")
    await dave.member.slash(thread, "table join")
    await alice.member.slash(thread, "table kick", player=bob.member)
    await carol.member.slash(thread, "table leave")
    text = shown(thread, table)
    removed = news(lang, "news.kicked", "🚪", player=f"<@{bob.id}>")
    left = news(lang, "news.left", "🚪", player=f"<@{carol.id}>")
    dave_joined = news(lang, "news.joined", "🪑", player=f"<@{dave.id}>")
    assert removed in text and left in text and dave_joined in text
    assert joined not in text  # the last three changes only
    assert news(lang, "news.left", "🚪", player=f"<@{bob.id}>") not in text  # not "left"
    # /table status shows the same
    status = await alice.member.slash(thread, "table status")
    assert removed in status.response.embeds[0].description
    # a new round starts them afresh
    await alice.member.click(table_message(thread, table), label=t("move.start", lang))
    assert table.game.phase is Phase.BETTING
    text = shown(thread, table)
    assert removed not in text and left not in text and dave_joined not in text


@pytest.mark.parametrize("lang", LANGS)
async def test_timers_that_played_are_said(simcord_env, lang):
    env = simcord_env
    thread, table, (alice, bob, carol) = await open_at(env, lang, "blackjack", "a", "b", "c")
    # alice 10♠ 5♣, bob 9♥ 8♠, the dealer 10♦ 7♥ (carol sits out)
    table.game.rig(["TS", "9H", "TD", "5C", "8S", "7H", "6D", "KC", "2D", "5S"])
    await alice.member.click(table_message(thread, table), label=t("move.start", lang))
    await alice.member.slash(thread, "bet", amount=10)
    await bob.member.slash(thread, "bet", amount=10)
    await env.advance_time(table.settings.bet_timer + 1)
    sat_out = news(lang, "news.timeout.sat_out", "⏱", players=f"<@{carol.id}>")
    assert table.game.phase is Phase.PLAYING and sat_out in shown(thread, table)
    assert table.game.to_act == alice.id
    await env.advance_time(table.settings.turn_timer + 1)
    assert table.game.to_act == bob.id
    stood = news(lang, "news.timeout.stand", "⏱", players=f"<@{alice.id}>")
    assert stood in shown(thread, table) and sat_out in shown(thread, table)
    # a move of bob's own is no timer's: his stand says nothing of the kind
    await bob.member.slash(thread, "stand")
    assert news(lang, "news.timeout.stand", "⏱", players=f"<@{bob.id}>") not in shown(thread, table)


async def play_round(thread: Any, table: Any, players: list[Any]) -> None:
    """Everyone bets 10, declines insurance and stands."""
    for p in players:
        await p.member.slash(thread, "bet", amount=10)
    if table.game.phase is Phase.INSURANCE:  # the dealer shows an ace
        for p in players:
            await p.member.slash(thread, "insurance", take=False)
    while table.game.phase is Phase.PLAYING:
        player = next(p for p in players if p.id == table.game.to_act)
        await player.member.slash(thread, "stand")


@pytest.mark.parametrize("lang", LANGS)
async def test_a_reshuffled_shoe_is_said(simcord_env, lang):
    env = simcord_env
    options = "decks=1 penetration=0.5"
    thread, table, players = await open_at(env, lang, "blackjack", "a", "b", options=options)
    reshuffled = news(lang, "news.reshuffled", "🔀")
    await players[0].member.click(table_message(thread, table), label=t("move.start", lang))
    assert reshuffled not in shown(thread, table)  # the first shoe is no reshuffle
    for _ in range(10):
        if table.game.shuffles > 1:
            break
        await play_round(thread, table, players)
        if table.game.shuffles == 1:
            assert reshuffled not in shown(thread, table)
    assert table.game.shuffles == 2 and table.game.phase is Phase.BETTING
    assert reshuffled in shown(thread, table)
    await play_round(thread, table, players)  # the next round's message no longer says it
    assert table.game.shuffles == 2 and reshuffled not in shown(thread, table)


@pytest.mark.parametrize("lang", LANGS)
async def test_the_bank_passing_on_is_said(simcord_env, lang):
    env = simcord_env
    thread, table, (alice, bob, carol) = await open_at(env, lang, "sept_et_demi", "a", "b", "c")
    # bob 3♠, carol 5♥, the bank 4♦; both stand, the bank stands on 4
    table.game.rig(["3S", "5H", "4D"])
    await alice.member.click(table_message(thread, table), label=t("move.start", lang))
    assert table.game.banker == alice.id
    passes = news(lang, "news.banker", "🏦", player=f"<@{bob.id}>")
    assert passes not in shown(thread, table)
    for p in (bob, carol):
        await p.member.slash(thread, "bet", amount=10)
    for p in (bob, carol):
        await p.member.slash(thread, "stand")
    await alice.member.slash(thread, "stand")  # the bank's turn: it stands
    assert table.game.round == 2 and table.game.banker == bob.id
    assert passes in shown(thread, table)


@pytest.mark.parametrize("lang", LANGS)
async def test_a_table_the_idle_timer_closed_says_why(simcord_env, lang):
    env = simcord_env
    options = "bet_seconds=7200 turn_seconds=7200"  # the idle timer fires first
    thread, table, (alice, _bob) = await open_at(env, lang, "blackjack", "a", "b", options=options)
    await alice.member.click(table_message(thread, table), label=t("move.start", lang))
    await alice.member.slash(thread, "bet", amount=10)  # a round in play: refunded
    await env.advance_time(table.settings.idle_timer + 1)
    assert not table.is_open
    minutes = table.settings.idle_timer // 60
    said = "⏱ " + t("news.closed_idle_refunded", lang, minutes=minutes)
    final = thread.history()[-1].content
    assert final.startswith(said + "\n") and t("table.closed_title", lang) in final
    assert sum(said in (m.content or "") for m in thread.history()) == 1


async def test_a_table_closed_by_its_host_says_no_timer(simcord_env):
    env = simcord_env
    thread, _table, (alice, _bob) = await open_at(env, "en", "blackjack", "a", "b")
    await alice.member.slash(thread, "table close")
    assert not any("Nobody played" in (m.content or "") for m in thread.history())


@pytest.mark.parametrize("lang", LANGS)
async def test_a_top_up_a_void_round_and_a_refund_are_said(simcord_env, lang):
    env = simcord_env
    thread, table, (alice, bob) = await open_at(env, lang, "blackjack", "a", "b")
    res = await bob.member.slash(thread, "table top-up", amount=50)
    assert res.response.content == t("answer.topped_up", "en", amount=50, stack=250)
    topped = news(lang, "news.topped_up", "💰", player=f"<@{bob.id}>", amount=50)
    assert topped in shown(thread, table)
    # nobody bets: the round is not played, and the table says so
    await alice.member.click(table_message(thread, table), label=t("move.start", lang))
    await env.advance_time(table.settings.bet_timer + 1)
    void = t("table.round_void", lang, n=1)  # said once, in a post of its own
    assert table.game.phase is Phase.BETWEEN_ROUNDS and table.game.round == 1
    assert [m.content for m in thread.history()].count(void) == 1
    # the host closes the table in the middle of a round: its bets come back, said so
    await alice.member.click(table_message(thread, table), label=t("move.next_round", lang))
    await alice.member.slash(thread, "bet", amount=10)
    await alice.member.slash(thread, "table close")
    final = thread.history()[-1].content
    assert final.startswith("↩ " + t("news.refunded", lang) + "\n")
    assert t("news.closed_idle", lang, minutes=30) not in final


@pytest.mark.parametrize("lang", LANGS)
async def test_a_casino21_turn_the_timer_ended_is_said(simcord_env, lang):
    env = simcord_env
    thread, table, (alice, bob) = await open_at(env, lang, "casino21", "a", "b")
    # alice 10♠ 9♥, bob 5♣ 10♦, the bank 6♦ + hole K♣, then 8♣: 24
    table.game.rig(["TS", "9H", "5C", "TD", "6D", "KC", "8C"])
    await alice.member.click(table_message(thread, table), label=t("move.start", lang))
    await alice.member.slash(thread, "bet", amount=10)
    await bob.member.slash(thread, "bet", amount=10)
    await alice.member.slash(thread, "draw", count=0)
    assert table.game.round == 1
    await env.advance_time(table.settings.turn_timer + 1)  # bob never draws
    assert table.game.round == 2  # the bank played, the next round began
    text = shown(thread, table)
    assert news(lang, "news.timeout.turn", "⏱") in text
    assert news(lang, "news.timeout.stand", "⏱", players=f"<@{bob.id}>") in text
