"""Round numbers never skip: a round nobody bet in is said in the thread, in the table's
language, whether everyone sat out or the bet timer ran out."""

from __future__ import annotations

from typing import Any

import pytest

from bot.engine.base import Phase
from bot.i18n import t
from tests.e2e.helpers import add_players, public_texts, table_message, table_of, thread_of

SIT_OUT = {"en": "Sit out", "fr": t("move.sit_out", "fr")}


async def seated_table(env: Any, game: str, locale: str) -> tuple[Any, Any, list[Any]]:
    guild = env.create_guild()
    lobby = guild.create_text_channel("casino")
    players = add_players(env, guild, "alice", "bob")
    for p in players:
        await p.member.slash(lobby, "language", language=locale)
    await players[0].member.slash(lobby, "table open", game=game)
    thread = thread_of(lobby)
    await players[1].member.slash(thread, "table join")
    return thread, table_of(env, thread), players


async def everyone_sits_out(thread: Any, table: Any, players: list[Any], locale: str) -> None:
    by_id = {p.id: p for p in players}
    while table.game.phase is Phase.BETTING:
        player = by_id[table.game.waiting[0]]
        await player.member.click(table_message(thread, table), label=SIT_OUT[locale])


@pytest.mark.parametrize("locale", ["en", "fr"])
@pytest.mark.parametrize("game", ["blackjack", "casino21"])
async def test_a_round_nobody_bet_in_is_said(simcord_env, game, locale):
    thread, table, players = await seated_table(simcord_env, game, locale)
    host = players[0]
    for n in (1, 2):
        await host.member.slash(thread, "table start")
        assert table.game.round == n
        await everyone_sits_out(thread, table, players, locale)
        assert table.game.phase is Phase.BETWEEN_ROUNDS
    voids = [text for text in public_texts(thread) if t("table.round_void", locale, n=1) in text]
    assert len(voids) == 1  # said once, in the table's language
    texts = "\n".join(public_texts(thread))
    assert texts.index(t("table.round_void", locale, n=1)) < texts.index(
        t("table.round_void", locale, n=2)
    )
    await host.member.slash(thread, "table start")
    assert t("table.round", locale, n=3) in embed_status(thread, table)


def embed_status(thread: Any, table: Any) -> str:
    return table_message(thread, table).embeds[0].description or ""


async def test_a_bet_timer_nobody_answered_is_said_too(simcord_env):
    env = simcord_env
    thread, table, players = await seated_table(env, "blackjack", "en")
    await players[0].member.slash(thread, "table start")
    await env.advance_time(61)  # the 60 s bet timer: everyone sits out
    assert table.game.phase is Phase.BETWEEN_ROUNDS
    assert t("table.round_void", "en", n=1) in public_texts(thread)
