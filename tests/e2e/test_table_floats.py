"""A float per table, end to end (issue 35): the admin's scenario of a small treasury and
three Black Jack tables, the refusals at opening and at a welcome stake, the refills and
the credits, and what the bank channel and the host read of them."""

from __future__ import annotations

from typing import Any

import discord
import pytest

from bot.i18n import t
from bot.ui.render.bank import amount
from tests.bank.ledger import casino_money, float_of
from tests.bank_audit import assert_audit_clean
from tests.e2e.helpers import add_players, table_message, table_of, thread_of
from tests.sql import fetchone

BJ = "max_bet=100 max_hands=2"  # a float of 4 x 400 (100 split in two, each doubled)


@pytest.fixture
def db_path(database_url: str) -> str:
    """This module runs on both databases (tests/conftest.py ``database_url``)."""
    return database_url


def admin_of(env: Any, guild: Any) -> Any:
    role = guild.create_role("admin", permissions=discord.Permissions(manage_guild=True))
    return guild.add_member(env.create_user("boss"), roles=[role])


async def treasury_writes(env: Any, guild_id: int) -> int:
    """The postings of the guild's treasury (every write of its row posts one)."""
    row = await fetchone(
        env.bot.db,
        "SELECT COUNT(*) FROM bank_postings p JOIN bank_accounts a ON a.id = p.account_id"
        " WHERE a.guild_id = ? AND a.kind = 'house' AND a.table_id = 0",
        (guild_id,),
    )
    assert row is not None
    return int(row[0])


async def a_small_casino(env: Any, treasury: int) -> tuple[Any, Any, Any]:
    """A guild whose treasury holds ``treasury``, with a bank channel; its admin."""
    guild = env.create_guild()
    bank_channel = guild.create_text_channel("banque")
    boss = admin_of(env, guild)
    lobby = guild.create_text_channel("hall")
    await boss.slash(lobby, "bank setup", channel=bank_channel)
    bank = env.bot.bank
    await bank.burn(guild.id, await bank.balance(guild.id, None) - treasury)
    return guild, bank_channel, boss


async def test_three_tables_on_a_small_treasury_settle_every_round(simcord_env):
    env = simcord_env
    guild, bank_channel, boss = await a_small_casino(env, 200)
    alice, bob, carol = add_players(env, guild, "alice", "bob", "carol")
    await bob.member.slash(guild.create_text_channel("x"), "language", language="fr")
    lobbies = [guild.create_text_channel(f"table-{i}") for i in range(3)]

    # the float does not fit: the table does not open, one sentence names what is missing
    for player, locale in ((alice, "en"), (bob, "fr")):
        res = await player.member.slash(lobbies[0], "table open", game="blackjack", options=BJ)
        said = t(
            "table.error.float_short",
            locale,
            lacking=1400,
            needed=1600,
            treasury=200,
            option="max_bet",
        )
        assert (res.followups[-1] if res.followups else res.response).content == said
    assert env.bot.tables.open_tables() == []
    assert await env.bot.bank.balance(guild.id, None) == 200

    await boss.slash(lobbies[0], "bank mint", amount=4600)
    tables = []
    for player, lobby in zip((alice, bob, carol), lobbies, strict=True):
        await player.member.slash(lobby, "table open", game="blackjack", options=BJ)
        thread = thread_of(lobby)
        table = table_of(env, thread)
        assert await float_of(env.bot.db, guild.id, table.id) == 1600
        tables.append((player, thread, table))
    assert await env.bot.bank.balance(guild.id, None) == 0  # every float drawn
    fills = [m.content for m in bank_channel.history() if "for its float" in m.content]
    assert len(fills) == 3 and all(amount(1600, "en") in f for f in fills)
    res = await boss.slash(lobbies[0], "bank audit")  # the floats are the casino's money
    audit = (res.followups[-1] if res.followups else res.response).content
    assert "Bank audit OK" in audit and f"the tables' floats: {amount(4800, 'en')}" in audit

    # each player bets 100 (at worst 200 from the house, within the stack) and wins 100
    writes = await treasury_writes(env, guild.id)
    for player, thread, table in tables:
        await player.member.slash(thread, "table start")
        table.game.rig(["TS", "9D", "QH", "8C"])  # type: ignore[attr-defined]
        stack = table.game.stacks[player.id]  # type: ignore[attr-defined]
        await player.member.slash(thread, "bet", amount=100)
        res = await player.member.slash(thread, "stand")
        won = (t("answer.round_net", lang, n=1, net="+100") for lang in ("en", "fr"))
        assert any(line in res.response.content for line in won)  # no refusal: paid
        assert table.game.round == 2  # type: ignore[attr-defined]  # settled, next round
        assert table.game.stacks[player.id] == stack + 100  # type: ignore[attr-defined]
        assert await float_of(env.bot.db, guild.id, table.id) == 1500
    assert await treasury_writes(env, guild.id) == writes  # the settlements left it alone
    assert await env.bot.bank.balance(guild.id, None) == 0

    for player, thread, _table in tables:
        await player.member.slash(thread, "table close")
    credits = [m.content for m in bank_channel.history() if "returns" in m.content]
    assert len(credits) == 3 and all(amount(1500, "en") in c for c in credits)
    assert await env.bot.bank.balance(guild.id, None) == 4500  # 4,800 less the 3 wins
    assert await casino_money(env.bot.db, guild.id) == 4500  # nothing left in a float
    await assert_audit_clean(env.bot.db)


NATURAL = ["AS", "9D", "KH", "7C"]  # the player's A♠ K♥: paid 3:2 at once


async def test_a_float_run_low_is_refilled_and_a_short_treasury_is_told_once(simcord_env):
    env = simcord_env
    guild, bank_channel, boss = await a_small_casino(env, 160)
    (alice,) = add_players(env, guild, "alice")
    lobby = guild.create_text_channel("casino")
    # a float of 4 x 40 (10 split in two, each doubled); one round's worst case 40
    await alice.member.slash(
        lobby, "table open", game="blackjack", options="min_bet=1 max_bet=10 max_hands=2"
    )
    thread = thread_of(lobby)
    table = table_of(env, thread)
    assert await env.bot.bank.balance(guild.id, None) == 0
    await alice.member.click(table_message(thread, table), label="Start")
    for _ in range(9):  # nine naturals of 10, 15 each: the float holds 160 - 135 = 25
        table.game.rig(NATURAL)  # type: ignore[attr-defined]
        res = await alice.member.slash(thread, "bet", amount=10)
        assert res.response.content.startswith(t("answer.bet", "en", amount=10))
    assert await float_of(env.bot.db, guild.id, table.id) == 25
    # the round that started then asked the empty treasury for 135: the host is told at
    # the table, the admins in the bank channel
    said = t(
        "table.float.refill_failed",
        "en",
        host=alice.member.mention,
        lacking=amount(135, "en"),
        needed=amount(135, "en"),
        treasury=amount(0, "en"),
        available=amount(25, "en"),
    )
    assert [m.content for m in thread.history()].count(said) == 1
    assert "could not refill its float" in bank_channel.history()[-1].content
    # a bet of 10 could win 40 (split, doubled): refused before any card, with what fits
    res = await alice.member.slash(thread, "bet", amount=10)
    refusal = t("table.error.float_cannot_cover", "en", available=25, needed=40, most=6)
    assert res.response.content == refusal
    table.game.rig(NATURAL)  # type: ignore[attr-defined]
    res = await alice.member.slash(thread, "bet", amount=6)  # 9 from the float: 16 left
    assert res.response.content.startswith(t("answer.bet", "en", amount=6))
    assert [m.content for m in thread.history()].count(said) == 1  # not told twice
    assert sum("could not refill" in m.content for m in bank_channel.history()) == 1

    await boss.slash(lobby, "bank mint", amount=1000)
    table.game.rig(NATURAL)  # type: ignore[attr-defined]
    await alice.member.slash(thread, "bet", amount=4)  # 6 more: the next round refills
    news = bank_channel.history()[-1].content
    assert "for its float" in news and amount(150, "en") in news and amount(160, "en") in news
    assert await float_of(env.bot.db, guild.id, table.id) == 160
    await assert_audit_clean(env.bot.db)


async def test_a_table_opened_before_floats_gets_its_float_at_its_next_round(simcord_env):
    env = simcord_env
    guild, bank_channel, _boss = await a_small_casino(env, 10_000)
    (alice,) = add_players(env, guild, "alice")
    lobby = guild.create_text_channel("casino")
    await alice.member.slash(lobby, "table open", game="blackjack", options=BJ)
    thread = thread_of(lobby)
    table = table_of(env, thread)
    await old_table(env, guild.id, table)
    res = await alice.member.slash(thread, "table status")
    assert res.ephemeral
    table = table_of(env, thread)
    assert not table.has_float and await float_of(env.bot.db, guild.id, table.id) == 0

    await alice.member.click(table_message(thread, table), label="Start")  # round 1
    assert table.has_float and await float_of(env.bot.db, guild.id, table.id) == 1600
    assert await env.bot.bank.balance(guild.id, None) == 10_000 - 1600
    assert "for its float" in bank_channel.history()[-1].content
    table.game.rig(["TS", "9D", "QH", "8C"])  # type: ignore[attr-defined]
    await alice.member.slash(thread, "bet", amount=100)
    res = await alice.member.slash(thread, "stand")
    assert t("answer.round_net", "en", n=1, net="+100") in res.response.content
    assert await float_of(env.bot.db, guild.id, table.id) == 1500  # paid from the float
    await alice.member.slash(thread, "table close")
    assert await env.bot.bank.balance(guild.id, None) == 10_000 - 100
    await assert_audit_clean(env.bot.db)


async def old_table(env: Any, guild_id: int, table: Any) -> None:
    """Make ``table`` one stored before floats existed: its float back in the treasury, its
    snapshot without the float's mark, and the bot restarted on it."""
    from bot.bank.core import credit_float

    async def undo(c: Any) -> None:
        await credit_float(c, guild_id, table.id, f"undo:{table.id}")
        table.has_float = False
        await c.execute(
            "UPDATE tables SET state = ? WHERE id = ?", (table.snapshot_json(), table.id)
        )

    await env.bot.db.write(undo)
    await env.bot.tables.load()
