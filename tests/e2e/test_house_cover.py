"""The house's cover, checked at the bet against the table's float whatever the cards (a
payout the float could not make would be refused exactly when the hidden cards pay: that
refusal would show them). On both databases: on PostgreSQL the cover is read in the
statement that writes the table's action row."""

from __future__ import annotations

from typing import Any

import pytest

from bot.engine.base import Phase
from bot.i18n import t
from tests.bank.ledger import float_of
from tests.bank_audit import assert_audit_clean
from tests.e2e.helpers import add_players, table_message, table_of, thread_of


@pytest.fixture
def db_path(database_url: str) -> str:
    """This module runs on both databases (tests/conftest.py ``database_url``)."""
    return database_url


async def seated_table(
    env: Any,
    game: str,
    options: str,
    names: tuple[str, ...],
    top_up: int = 0,
    min_casino21_bet: int | None = None,
    **join: Any,
) -> tuple[Any, Any, Any, Any]:
    """A table of ``game`` opened by the first player, the others seated, started (the
    server's Casino 21 floor lowered first, to ``min_casino21_bet``)."""
    guild = env.create_guild()
    lobby = guild.create_text_channel("casino")
    players = add_players(env, guild, *names)
    if min_casino21_bet is not None:  # bets where the bank-bust bonus matters
        await env.bot.tables.ensure_guild(guild.id)  # as the bot sets a server up
        await env.bot.bank.configure_guild(guild.id, min_casino21_bet=min_casino21_bet)
    await players[0].member.slash(lobby, "table open", game=game, options=options)
    thread = thread_of(lobby)
    table = table_of(env, thread)
    for p in players[1:]:
        res = await p.member.slash(thread, "table join", **join)
        assert res.response.content == t("move.done.join", "en"), res.response.content
    if top_up:  # the host sat down with the default buy-in
        await players[0].member.slash(thread, "table top-up", amount=top_up)
    await players[0].member.click(table_message(thread, table), label="Start")
    return guild, thread, table, players


async def test_the_float_cover_is_checked_at_the_bet_whatever_the_cards(simcord_env):
    env = simcord_env
    names = ("alice", "bob", "carol", "dave", "erin")
    guild, thread, table, players = await seated_table(
        env, "blackjack", "max_bet=50 max_hands=2", names, top_up=100, buy_in=200
    )
    # four rounds of one maximum bet split in two, each doubled, all won: 4 x 200
    assert await float_of(env.bot.db, guild.id, table.id) == 800
    for p, bet in zip(players[:4], (50, 50, 50, 30), strict=True):
        res = await p.member.slash(thread, "bet", amount=bet)
        assert res.response.content.startswith(t("answer.bet", "en", amount=bet))
    # at worst: 200 + 200 + 200 + 120 (30 split in two, each doubled, within the stack)
    erin = players[4]
    natural = ["AS", "9D", "KH", "7C", "5C", "6D", "2S", "3S", "4S", "8S", "9S", "TS"]
    losing = ["5S", "9D", "6H", "TC", "2C", "6D", "2S", "3S", "4S", "8S", "9S", "TS"]
    answers = []
    for cards in (natural, losing):
        table.game.rig(cards)  # type: ignore[attr-defined]
        version = table.version
        res = await erin.member.slash(thread, "bet", amount=50)
        answers.append(res.response.content)
        assert table.version == version and table.game.phase is Phase.BETTING
    refusal = t("table.error.float_cannot_cover", "en", available=800, needed=920, most=20)
    assert answers == [refusal] * 2
    res = await erin.member.slash(thread, "bet", amount=20)  # what it still covers
    assert res.response.content.startswith(t("answer.bet", "en", amount=20))
    assert table.game.phase is not Phase.BETTING
    await assert_audit_clean(env.bot.db)


async def test_casino21_float_cover_counts_the_bank_bust_bonus(simcord_env):
    env = simcord_env
    names = ("alice", "bob", "carol", "dave", "erin")
    options = "min_bet=2 max_bet=2 welcome_stake=0"
    guild, thread, table, players = await seated_table(
        env, "casino21", options, names, buy_in=20, min_casino21_bet=2
    )
    assert await float_of(env.bot.db, guild.id, table.id) == 20  # 4 rounds of the bonus, 5
    for p in players[:4]:  # each bet wins 1, or the bonus: 5
        res = await p.member.slash(thread, "bet", amount=2)
        assert res.response.content.startswith(t("answer.bet", "en", amount=2))
    res = await players[4].member.slash(thread, "bet", amount=2)
    assert res.response.content == t(
        "table.error.float_cannot_cover_any", "en", available=20, needed=25
    )
    await assert_audit_clean(env.bot.db)
