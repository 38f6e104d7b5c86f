"""Fewer steps (issue 38 point 8), end to end: "Same bet" and "Rebet ×2" on the table
message, in both languages, with their refusals."""

from __future__ import annotations

from typing import Any

import discord
import pytest

from bot.i18n import t
from bot.ui.render import bank as fmt
from tests.bank_audit import assert_audit_clean
from tests.e2e.helpers import add_players, answer_text, classic_table, table_message, table_of
from tests.e2e.recovery_helpers import restart


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


async def one_round_bet_10_and_20(env: Any) -> tuple[Any, Any, tuple[Any, Any]]:
    """A Black Jack table where alice bet 10 and bob 20 in round 1, both won (19 against
    18): round 2's bets are open."""
    _, _, thread, table, (alice, bob) = await classic_table(env, "alice", "bob")
    table.game.rig(["TH", "TC", "TD", "9S", "9C", "8H"])
    await alice.member.click(table_message(thread, table), label="Start")
    await alice.member.click(table_message(thread, table), label="Bet 10")
    await bob.member.click(table_message(thread, table), label="Bet 20")
    for p in (alice, bob):
        await p.member.click(table_message(thread, table), label=t("move.stand", "en"))
    return thread, table, (alice, bob)


async def test_rebet_double_is_a_bet_of_twice_the_last(simcord_env: Any) -> None:
    env = simcord_env
    thread, table, (alice, bob) = await one_round_bet_10_and_20(env)
    assert table.game.stacks == {alice.id: 210, bob.id: 120}  # both 19 against 18
    await bob.member.click(table_message(thread, table), label="Rebet ×2")
    await alice.member.click(table_message(thread, table), label="Same bet")
    assert table.game.bets == {alice.id: 10, bob.id: 40}
    assert table.game.stacks == {alice.id: 200, bob.id: 80}
    assert table.game.phase.value == "playing"  # the bets closed: dealt as for any bet


async def test_the_last_bet_survives_a_restart(simcord_env: Any, db_path: str) -> None:
    env = simcord_env
    thread, table, (_alice, bob) = await one_round_bet_10_and_20(env)
    await restart(env, db_path)
    table = table_of(env, thread)
    assert "Same bet" in labels(table_message(thread, table))
    await bob.member.click(table_message(thread, table), label="Same bet")
    assert table.game.bets == {bob.id: 20}


def admin_of(env: Any, guild: Any) -> Any:
    """A member with Manage Server."""
    role = guild.create_role("admin", permissions=discord.Permissions(manage_guild=True))
    return guild.add_member(env.create_user("boss"), roles=[role])


@pytest.mark.parametrize("locale", ["en", "fr"])
async def test_leave_and_collect_pays_the_stack_into_the_balance(
    simcord_env: Any, locale: str
) -> None:
    env = simcord_env
    guild, lobby, thread, table, (_, bob) = await classic_table(env, "alice", "bob", buy_in=150)
    bank_channel = guild.create_text_channel("bank")
    await admin_of(env, guild).slash(lobby, "bank setup", channel=bank_channel)
    bank = env.bot.bank
    assert await bank.balance(guild.id, bob.id) == 850
    await bob.member.slash(thread, "language", language=locale)
    collect = t("move.leave_collect", "en")  # the table speaks its opener's language
    assert labels(table_message(thread, table))[-2:] == ["Leave", collect]
    res = await bob.member.click(table_message(thread, table), label=collect)
    paid = t(
        "move.collect.paid",
        locale,
        amount=fmt.amount(150, locale),
        balance=fmt.amount(1000, locale),
    )
    assert answer_text(res) == paid
    news = bank_channel.history()[-1].content  # as /bank claim posts it
    assert news == f"🏦 <@{bob.id}> collects {fmt.amount(150, 'en')} at the bank (claim #1)."
    assert bob.id not in table.game.stacks
    assert await bank.balance(guild.id, bob.id) == 1000
    assert await bank.claims(guild.id, bob.id) == []
    # the plain Leave still leaves a claim for /bank claim
    await bob.member.slash(thread, "table join", buy_in=100)
    res = await bob.member.click(table_message(thread, table), label="Leave")
    assert answer_text(res) == t("move.left.stack", locale, amount=100)  # (no currency there)
    assert [c.amount for c in await bank.claims(guild.id, bob.id)] == [100]
    await assert_audit_clean(env.bot.db)


async def test_leave_and_collect_over_the_approval_limit_waits_for_an_admin(
    simcord_env: Any,
) -> None:
    env = simcord_env
    guild, lobby, thread, table, (_, bob) = await classic_table(env, "alice", "bob", buy_in=80)
    await admin_of(env, guild).slash(lobby, "bank setup", channel=lobby, claim_approval_limit=50)
    res = await bob.member.click(table_message(thread, table), label="Leave and collect")
    want = " ".join(
        [t("move.collect.left", "en"), t("move.collect.held", "en", amount=fmt.amount(80, "en"))]
    )
    assert answer_text(res) == want
    bank = env.bot.bank
    assert await bank.balance(guild.id, bob.id) == 920  # nothing paid without the admin
    assert [(c.amount, c.status) for c in await bank.claims(guild.id, bob.id)] == [(80, "held")]
    await assert_audit_clean(env.bot.db)


async def test_pirate21_has_no_leave_and_collect(simcord_env: Any) -> None:
    env = simcord_env
    guild = env.create_guild()
    lobby = guild.create_text_channel("casino")
    (alice,) = add_players(env, guild, "alice")
    await alice.member.slash(lobby, "table open", game="pirate21")
    thread = lobby.threads[-1]
    table = env.bot.tables.table_in(thread.id)
    assert "Leave and collect" not in labels(table_message(thread, table))  # coins, no money


async def test_leave_and_collect_asks_before_a_forfeit(
    simcord_env: Any,
) -> None:
    env = simcord_env
    guild = env.create_guild()
    lobby = guild.create_text_channel("casino")
    alice, bob = add_players(env, guild, "alice", "bob")
    await alice.member.slash(lobby, "table open", game="casino21", options="auto_next=off")
    thread = lobby.threads[-1]
    table = env.bot.tables.table_in(thread.id)
    await bob.member.slash(thread, "table join")  # a welcome stake of 100
    table.game.rig(["9S", "8H", "TH", "9D", "TC", "7C"])
    await alice.member.slash(thread, "table start")
    await alice.member.slash(thread, "bet", amount=10)
    await bob.member.slash(thread, "bet", amount=50)  # 19 against 17: +25
    for p in (alice, bob):
        await p.member.slash(thread, "draw", count=0)
    assert table.game.stacks[bob.id] == 125
    bank = env.bot.bank
    res = await bob.member.click(table_message(thread, table), label="Leave and collect")
    want = t("illegal.forfeit_needs_confirmation", "en", requirement=100, forfeit=125, keep=0)
    assert res.ephemeral and res.response.content == want  # asked first: nothing moved
    assert bob.id in table.game.stacks
    res = await bob.member.click(res.response.message, label=t("move.leave_confirm", "en"))
    assert res.response.content == t("move.left.forfeit_all", "en", forfeit=125, amount=0)
    assert bob.id not in table.game.stacks
    assert await bank.spendable(guild.id, bob.id) == 1000  # the welcome stake was never his
    assert await bank.claims(guild.id, bob.id) == []
    await assert_audit_clean(env.bot.db)


@pytest.mark.parametrize("locale", ["en", "fr"])
async def test_a_second_table_is_asked_about_first(simcord_env: Any, locale: str) -> None:
    env = simcord_env
    guild = env.create_guild()
    lobby = guild.create_text_channel("casino")
    alice, bob = add_players(env, guild, "alice", "bob")
    await alice.member.slash(lobby, "language", language=locale)
    await alice.member.slash(lobby, "table open", game="blackjack")
    first = lobby.threads[-1]
    # the same host again: a question, nothing opened yet
    res = await alice.member.slash(lobby, "table open", game="casino21")
    asked = t("table.second.ask_one", locale, tables=f"<#{first.id}>", count=1)
    assert res.ephemeral and res.response.content == asked
    go, cancel = t("table.second.open", locale), t("table.second.cancel", locale)
    assert labels(res.response.message) == [go, cancel]
    assert len(lobby.threads) == 1
    done = await alice.member.click(res.response.message, label=cancel)
    assert done.response.content == t("table.second.cancelled", locale)
    (question,) = [m for m in lobby.history(viewer=alice.member) if m.id == res.response.id]
    assert labels(question) == [] and len(lobby.threads) == 1  # its buttons went
    # asked again, opened anyway: the table the command asked for
    res = await alice.member.slash(lobby, "table open", game="casino21", name="Deux")
    done = await alice.member.click(res.response.message, label=go)
    assert done.response.content == t("table.second.opening", locale)
    second = lobby.threads[-1]
    assert len(lobby.threads) == 2 and second.name == "Deux"
    table = env.bot.tables.table_in(second.id)
    assert table is not None and table.game_key == "casino21" and table.host_id == alice.id
    opened = t("table.opened", locale, where=second.mention)
    assert [m.content for m in done.followups] == [opened]
    # two tables now; a question left unanswered expires
    res = await alice.member.slash(lobby, "table open", game="blackjack")
    links = f"<#{first.id}>, <#{second.id}>"
    assert res.response.content == t("table.second.ask_many", locale, tables=links, count=2)
    await env.advance_time(301)
    mine = [m for m in lobby.history(viewer=alice.member) if m.id == res.response.id]
    assert mine[0].content == t("table.second.expired", locale)
    assert labels(mine[0]) == [] and len(lobby.threads) == 2
    # another player is not asked
    res = await bob.member.slash(lobby, "table open", game="blackjack")
    assert len(lobby.threads) == 3


async def test_a_table_kept_over_a_restart_is_asked_about(simcord_env: Any, db_path: str) -> None:
    env = simcord_env
    guild = env.create_guild()
    lobby = guild.create_text_channel("casino")
    (alice,) = add_players(env, guild, "alice")
    await alice.member.slash(lobby, "table open", game="blackjack")
    first = lobby.threads[-1]
    await restart(env, db_path)  # a new process: the table comes back from its row
    res = await alice.member.slash(lobby, "table open", game="blackjack")
    asked = t("table.second.ask_one", "en", tables=f"<#{first.id}>", count=1)
    assert res.response.content == asked and len(lobby.threads) == 1


@pytest.mark.parametrize("locale", ["en", "fr"])
async def test_bank_top_counts_balances_and_says_so(simcord_env: Any, locale: str) -> None:
    env = simcord_env
    guild, lobby, _, _, (alice, bob) = await classic_table(env, "alice", "bob", buy_in=300)
    (carol,) = add_players(env, guild, "carol")
    await carol.member.slash(lobby, "language", language=locale)
    await carol.member.slash(lobby, "bank balance")  # an account of 1,000
    res = await carol.member.slash(lobby, "bank top")
    (embed,) = res.response.embeds
    assert not res.ephemeral
    # alice and bob sit with 200 and 300: their balances, 800 and 700, rank them
    want = [
        t("bank.top.line", locale, rank=1, user=f"<@{carol.id}>", amount=fmt.amount(1000, locale)),
        t("bank.top.line", locale, rank=2, user=f"<@{alice.id}>", amount=fmt.amount(800, locale)),
        t("bank.top.line", locale, rank=3, user=f"<@{bob.id}>", amount=fmt.amount(700, locale)),
    ]
    assert embed.description.splitlines() == want
    assert embed.footer.text == t("bank.top.balances_only", locale)
