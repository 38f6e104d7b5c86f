"""Casino 21 money end to end: closing a table settles every seat exactly as a leave
(the welcome stake is forfeited below the wagering requirement), whatever closes it."""

from __future__ import annotations

import discord
import pytest

from bot.bank.models import DEFAULT_TREASURY
from bot.i18n import t
from tests.bank.ledger import casino_money
from tests.bank_audit import assert_audit_clean
from tests.e2e.helpers import add_players, service, table_of, thread_of


@pytest.fixture
def db_path(database_url: str) -> str:
    """This module runs on both databases (tests/conftest.py ``database_url``)."""
    return database_url


async def open_casino(env, *names, options=None):
    """A guild, a casino21 table opened by the first player, the others seated."""
    guild = env.create_guild()
    lobby = guild.create_text_channel("casino")
    players = add_players(env, guild, *names)
    kwargs = {"game": "casino21"}
    if options:
        kwargs["options"] = options
    await players[0].member.slash(lobby, "table open", **kwargs)
    thread = thread_of(lobby)
    table = table_of(env, thread)
    for p in players[1:]:
        res = await p.member.slash(thread, "table join")
        assert res.response.content == t("move.done.join", "en"), res.response.content
    return guild, lobby, thread, table, players


async def test_closing_before_the_wagering_requirement_pays_no_welcome_stake(simcord_env):
    env = simcord_env
    guild, _lobby, thread, _table, (alice, bob) = await open_casino(env, "alice", "bob")
    bank = service(env).bank
    assert await casino_money(env.bot.db, guild.id) == DEFAULT_TREASURY - 200  # two welcome stakes

    res = await alice.member.slash(thread, "table close")
    assert res.ephemeral
    final = thread.history()[-1].content
    assert "The table is closed" in final
    assert f"<@{bob.id}>: nothing waiting at the bank; 100 returns to the casino" in final
    for p in (alice, bob):
        res = await p.member.slash(thread, "bank claim")
        assert res.response.content == t("bank.claim.nothing", "en")
        assert await bank.spendable(guild.id, p.id) == 1000
    assert await bank.claims(guild.id) == []
    assert await casino_money(env.bot.db, guild.id) == DEFAULT_TREASURY
    await assert_audit_clean(env.bot.db)


def admin_of(env, guild, name="boss"):
    """A member with Manage Server (not seated anywhere)."""
    role = guild.create_role("admin", permissions=discord.Permissions(manage_guild=True))
    return guild.add_member(env.create_user(name), roles=[role])


async def play_a_round(thread, table, alice, bob):
    """Both bet 10: alice pushes (17 against 17), bob wins 5 (19). Below the requirement."""
    table.game.rig(["9S", "8H", "TH", "9D", "TC", "7C"])
    await alice.member.slash(thread, "table start")
    for p in (alice, bob):
        await p.member.slash(thread, "bet", amount=10)
    for p in (alice, bob):
        await p.member.slash(thread, "draw", count=0)
    stacks = {s.player: s.stack for s in table.game.public_view().seats}
    assert stacks == {alice.id: 100, bob.id: 105}


@pytest.mark.parametrize("how", ["host", "admin", "idle", "kick", "last_leave"])
async def test_every_close_settles_each_seat_as_a_leave(simcord_env, how):
    """Whatever empties the table, a player below the wagering requirement takes nothing of
    the welcome stake or its winnings away: the casino gets back all it gave."""
    env = simcord_env
    guild, _lobby, thread, table, (alice, bob) = await open_casino(
        env, "alice", "bob", options="auto_next=off"
    )
    bank = service(env).bank
    await play_a_round(thread, table, alice, bob)
    assert await casino_money(env.bot.db, guild.id) == DEFAULT_TREASURY - 205
    if how == "host":
        await alice.member.slash(thread, "table close")
    elif how == "admin":
        res = await admin_of(env, guild).slash(thread, "table close")
        assert res.ephemeral
    elif how == "idle":
        await env.advance_time(30 * 60 + 5)
    elif how == "kick":
        res = await alice.member.slash(thread, "table kick", player=bob.member)
        assert res.ephemeral
        kicked = thread.history()[-1].content
        assert (
            f"<@{bob.id}> leaves before betting 100: 105 returns to the casino,"
            " and nothing is left to collect." in kicked
        )
        assert service(env).table_in(thread.id) is not None
        await alice.member.slash(thread, "table close")
    else:
        for p in (bob, alice):
            res = await p.member.slash(thread, "table leave")
            await p.member.click(res.response.message, label="Leave anyway")
    assert service(env).table_in(thread.id) is None
    assert await bank.claims(guild.id) == []
    assert await casino_money(env.bot.db, guild.id) == DEFAULT_TREASURY
    await assert_audit_clean(env.bot.db)


async def test_a_close_after_the_wagering_requirement_pays_the_whole_stack(simcord_env):
    env = simcord_env
    guild, _lobby, thread, table, (alice, bob) = await open_casino(
        env, "alice", "bob", options="auto_next=off wager_requirement=100"
    )
    table.game.rig(["9S", "8H", "TH", "9D", "TC", "7C"])
    await alice.member.slash(thread, "table start")
    await alice.member.slash(thread, "bet", amount=10)
    await bob.member.slash(thread, "bet", amount=100)  # 19 against 17: +50
    for p in (alice, bob):
        await p.member.slash(thread, "draw", count=0)
    await alice.member.slash(thread, "table close")
    final = thread.history()[-1].content
    assert f"<@{bob.id}>: 150 waiting at the bank" in final
    assert f"<@{alice.id}>: nothing waiting at the bank; 100 returns to the casino" in final
    bank = service(env).bank
    assert [(c.user_id, c.amount) for c in await bank.claims(guild.id)] == [(bob.id, 150)]
    await assert_audit_clean(env.bot.db)


# ---------------------------------------------------------------- own funds (top-ups)


async def test_own_funds_only_once_the_welcome_stake_is_spent(simcord_env):
    env = simcord_env
    guild, _lobby, thread, table, (alice, bob) = await open_casino(env, "alice", "bob")
    bank = service(env).bank
    res = await bob.member.slash(thread, "table top-up", amount=50)
    assert res.ephemeral
    assert res.response.content == t("illegal.top_up_too_early", "en", stack=100, min=10)
    assert res.response.content == (
        "You can add your own funds only once the welcome stake is spent: "
        "your stack (100) must be below the minimum bet (10)."
    )
    await bob.member.slash(thread, "table leave")  # no forfeit asked yet: nothing moved
    stacks = {s.player: s.stack for s in table.game.public_view().seats}
    assert stacks == {alice.id: 100, bob.id: 100}
    assert await bank.spendable(guild.id, bob.id) == 1000
    # a seat that brings a welcome stake takes no buy-in either
    (carol,) = add_players(env, guild, "carol")
    res = await carol.member.slash(thread, "table join", buy_in=50)
    assert res.response.content == t("illegal.buy_in_with_welcome", "en", welcome=100)
    assert len(table.game.seats) == 2
    await assert_audit_clean(env.bot.db)


# round 2's first cards: no ace, no pair to 21 (whatever the shoe's order, no Black Jack
# ends the round before the test's moves)
ROUND_GOES_ON = ["9D", "7C", "8S", "6H", "5S", "4C"]


async def lose_everything(thread, table, alice, bob):
    """Round 1: bob bets his whole stack (100) and loses it (15 against the bank's 18);
    his draw ends the round. The answer to that draw."""
    table.game.rig(["9S", "8H", "TH", "5D", "TC", "8C"])
    await alice.member.slash(thread, "table start")
    await alice.member.slash(thread, "bet", amount=10)  # 17 against 18: loses 10
    await bob.member.slash(thread, "bet", amount=100)
    await alice.member.slash(thread, "draw", count=0)
    return await bob.member.slash(thread, "draw", count=0)


@pytest.mark.parametrize("settled_by", ["bob", "a timer"])
async def test_a_player_at_zero_is_told_privately_and_may_top_up(simcord_env, settled_by):
    env = simcord_env
    guild, _lobby, thread, table, (alice, bob) = await open_casino(env, "alice", "bob")
    await bob.member.slash(thread, "language", language="fr")
    before = len(bob.dms())
    if settled_by == "bob":
        res = await lose_everything(thread, table, alice, bob)
        # told in the answer to his own command, not by DM (issue 36), nor twice
        assert not res.followups
        told = [res.response.content]
        assert not bob.dms()[before:]
    else:  # bob's turn times out: no click of his, a DM
        table.game.rig(["9S", "8H", "TH", "5D", "TC", "8C"])
        await alice.member.slash(thread, "table start")
        await alice.member.slash(thread, "bet", amount=10)
        await bob.member.slash(thread, "bet", amount=100)
        await alice.member.slash(thread, "draw", count=0)
        await env.advance_time(table.settings.turn_timer + 1)
        told = [m.content for m in bob.dms()[before:]]
    # still seated at 0; the next round started by itself and waits for his bet
    seats = {s.player: s for s in table.game.public_view().seats}
    assert seats[bob.id].stack == 0 and table.game.round == 2
    assert len(told) == 1, told
    assert t("casino21.dm_stack_empty", "fr") in told[0]  # his language, not the table's
    assert "Votre tapis est vide" in told[0]
    assert not any("tapis est vide" in (m.content or "") for m in thread.history())
    assert not any("stack is empty" in (m.content or "") for m in thread.history())

    res = await bob.member.slash(thread, "table top-up", amount=30)
    topped = t("answer.topped_up", "fr", amount=30, stack=30)
    assert res.ephemeral and res.response.content == topped
    res = await bob.member.slash(thread, "table top-up", amount=30)  # 30 >= the minimum bet
    assert res.response.content == t("illegal.top_up_too_early", "fr", stack=30, min=10)
    table.game.rig(ROUND_GOES_ON)
    await alice.member.slash(thread, "bet", amount=10)
    await bob.member.slash(thread, "bet", amount=10)
    assert {s.player for s in table.game.seats} == {alice.id, bob.id}
    assert table.game.turn == 2  # the bets closed with bob in play
    # what he keeps if he leaves now: his own funds not yet lost, never the welcome stake
    assert table.game.leave_terms(bob.id) == (0, 20)
    bank = service(env).bank
    assert await bank.spendable(guild.id, bob.id) == 970
    await assert_audit_clean(env.bot.db)


@pytest.mark.parametrize("closes", ["timer", "host"])
async def test_a_player_at_zero_leaves_when_the_bets_close(simcord_env, closes):
    env = simcord_env
    guild, _lobby, thread, table, (alice, bob) = await open_casino(env, "alice", "bob")
    await lose_everything(thread, table, alice, bob)
    table.game.rig(ROUND_GOES_ON)
    await alice.member.slash(thread, "bet", amount=10)
    assert table.game.turn == 1  # the bets wait for bob: he may still top up
    if closes == "timer":
        await env.advance_time(61)
    else:
        await alice.member.slash(thread, "end-turn")
    assert [s.player for s in table.game.seats] == [alice.id]
    assert t("casino21.left_empty", "en", player=f"<@{bob.id}>") in [
        m.content for m in thread.history()
    ]
    bank = service(env).bank
    assert [c for c in await bank.claims(guild.id) if c.user_id == bob.id] == []
    await assert_audit_clean(env.bot.db)
