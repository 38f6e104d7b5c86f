"""The house's cover, checked at the bet whatever the cards (a payout the treasury could
not make would be refused exactly when the hidden cards pay: that refusal would show
them). On both databases: on PostgreSQL the cover is read in the statement that writes the
table's row."""

from __future__ import annotations

from typing import Any

import pytest

from bot.engine.base import Phase
from bot.i18n import t
from tests.bank_audit import assert_audit_clean
from tests.e2e.helpers import add_players, table_message, table_of, thread_of


@pytest.fixture
def db_path(database_url: str) -> str:
    """This module runs on both databases (tests/conftest.py ``database_url``)."""
    return database_url


async def house_left_with(env: Any, guild_id: int, amount: int) -> None:
    """An admin burns the treasury down to ``amount``."""
    bank = env.bot.bank
    await bank.burn(guild_id, await bank.balance(guild_id, None) - amount)


async def test_the_house_cover_is_checked_at_the_bet_whatever_the_cards(simcord_env):
    env = simcord_env
    guild = env.create_guild()
    lobby = guild.create_text_channel("casino")
    (alice,) = add_players(env, guild, "alice")
    await alice.member.slash(lobby, "table open", game="blackjack")  # alice brings 100
    thread = thread_of(lobby)
    table = table_of(env, thread)
    await alice.member.click(table_message(thread, table), label="Start")
    await house_left_with(env, guild.id, 25)
    natural = ["AS", "9D", "KH", "7C", "5C"]  # alice A♠ K♥: 30 from the house at once
    losing = ["5S", "9D", "6H", "TC", "2C"]  # alice 11 against 19: she plays on
    answers = []
    for cards in (natural, losing):
        table.game.rig(cards)  # type: ignore[attr-defined]
        version = table.version
        res = await alice.member.slash(thread, "bet", amount=20)
        answers.append(res.response.content)
        assert table.version == version and table.game.phase is Phase.BETTING
    # at worst: her 20 split into 4 hands, each doubled, all won (within her stack)
    needed = min(table.game.stacks[alice.id], 2 * 4 * 20)
    assert needed > 30  # more than the natural's 3:2, the only payout these cards make
    assert answers == [t("table.error.house_cannot_cover", "en", needed=needed)] * 2
    await env.bot.bank.mint(guild.id, needed - 25)  # the house can pay: the bet is taken
    table.game.rig(natural)  # type: ignore[attr-defined]
    res = await alice.member.slash(thread, "bet", amount=20)
    assert res.response.content.startswith(t("answer.bet", "en", amount=20))
    assert table.game.round == 2  # type: ignore[attr-defined]  # paid 3:2, next round
    await assert_audit_clean(env.bot.db)


async def test_casino21_house_cover_counts_the_bank_bust_bonus(simcord_env):
    env = simcord_env
    guild = env.create_guild()
    lobby = guild.create_text_channel("casino")
    alice, bob = add_players(env, guild, "alice", "bob")
    await alice.member.slash(lobby, "table open", game="casino21", options="min_bet=2")
    thread = thread_of(lobby)
    table = table_of(env, thread)
    await bob.member.slash(thread, "table join")
    await alice.member.click(table_message(thread, table), label="Start")
    await house_left_with(env, guild.id, 8)  # covers one bank-bust bonus (5), not two
    res = await alice.member.slash(thread, "bet", amount=2)  # wins 1, or the bonus: 5
    assert res.response.content.startswith(t("answer.bet", "en", amount=2) + "\n")
    res = await bob.member.slash(thread, "bet", amount=2)
    assert res.response.content == t("table.error.house_cannot_cover", "en", needed=10)
    await assert_audit_clean(env.bot.db)
