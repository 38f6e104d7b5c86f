"""Every refusal is one ephemeral, translated sentence, and changes nothing.

Each case compares, before and after: the table's version and committed snapshot, every
player's balance, the claims, the table message and the number of public messages."""

from __future__ import annotations

import re
from typing import Any

import discord
import pytest

from bot.errors import UserError
from bot.i18n import t
from tests.e2e.helpers import (
    Player,
    add_players,
    classic_table,
    embed_text,
    open_anyway,
    service,
    table_message,
)
from tests.sql import fetchone

# ----------------------------------------------------------------------------- helpers

GENERIC = ("That move is not possible now (", "The bank refused (", "Invalid table option (")


@pytest.fixture
def db_path(database_url: str) -> str:
    """This module runs on both databases (tests/conftest.py ``database_url``)."""
    return database_url


def reply(res: Any) -> str:
    """The ephemeral answer of an interaction (its response or, after a defer, a followup)."""
    assert res.ephemeral, "a refusal must be ephemeral"
    if res.response is not None and res.response.content:
        assert res.response.ephemeral
        return str(res.response.content)
    assert res.followups, "no answer"
    assert res.followups[-1].ephemeral
    return str(res.followups[-1].content)


def assert_sentence(text: str, expected: str | None = None) -> None:
    """One real sentence: no key, no placeholder, no generic fallback with a code."""
    assert text, "empty answer"
    assert "{" not in text and "}" not in text, text
    assert not re.fullmatch(r"[a-z_]+(\.[a-z0-9_]+)+", text), f"untranslated key: {text}"
    assert not text.startswith(GENERIC), f"generic fallback: {text}"
    # a capital, or an option's name (``decks must be between 1 and 8 (got 12).``)
    assert text[0].isupper() or text[0] in "`*«<" or re.match(r"[a-z_]+ ", text), text
    assert text.rstrip("*` ").endswith((".", "!", "?", ")")), text
    if expected is not None:
        assert text == expected


async def world_state(env: Any, guild: Any, thread: Any, table: Any, users: list[int]) -> Any:
    """Everything a refusal must leave as it was."""
    bank = service(env).bank
    balances = [await bank.balance(guild.id, u) for u in users]
    claims = sorted((c.user_id, c.amount) for c in await bank.claims(guild.id))
    public = [m.id for m in thread.history()]
    message = embed_text(table_message(thread, table)) if table.message_id else ""
    return (table.version, table.snapshot_json(), balances, claims, public, message)


class Unchanged:
    """``async with Unchanged(...)``: fail if the block changed the table or the bank."""

    def __init__(self, env: Any, guild: Any, thread: Any, table: Any, users: list[int]) -> None:
        self.args = (env, guild, thread, table, users)

    async def __aenter__(self) -> Unchanged:
        env, guild, _thread, _table, users = self.args
        # a refused join may open the player's bank account (with the starting balance):
        # open them first, so that only what the refusal itself changes is compared
        await service(env).ensure_guild(guild.id)
        for user in users:
            await service(env).bank.open_account(guild.id, user)
        self.before = await world_state(*self.args)
        return self

    async def __aexit__(self, *exc: Any) -> None:
        if exc[0] is None:
            assert await world_state(*self.args) == self.before, "a refusal changed something"
            expected_refusals(self.args[0])


def expected_refusals(env: Any) -> None:
    """Commands that refuse by raising a UserError (answered by the tree's error handler)
    are recorded by SimCord as bot errors: acknowledge them, and fail on anything else."""
    for error in env.errors:
        original = getattr(error, "original", error)
        assert isinstance(original, UserError), repr(error)


async def to_play(env: Any, thread: Any, table: Any, players: list[Player], cards: str) -> None:
    """Start a round on rigged cards and have every player bet 10."""
    table.game.rig(cards.split())
    await players[0].member.click(table_message(thread, table), label="Start")
    for p in players:
        await p.member.click(table_message(thread, table), label="Bet 10")
    assert table.game.phase.value == "playing", table.game.phase


# Dealt in order alice, bob, carol, dealer, twice: alice 10♠ 8♠ = 18, bob 9♥ 7♥ = 16,
# carol 5♣ 6♦ = 11, the dealer 10♦ and the hole card K♣; then 2♦ 5♠ 4♣...
ROUND = "TS 9H 5C TD 8S 7H 6D KC 2D 5S 4C 3C 2C"


# ----------------------------------------------------------------------------- moves


async def test_not_your_turn_not_seated_and_a_stranger_on_the_buttons(simcord_env):
    env = simcord_env
    guild, _lobby, thread, table, players = await classic_table(env, "alice", "bob", "carol")
    alice, bob, _carol = players
    (dave,) = add_players(env, guild, "dave")
    await to_play(env, thread, table, players, ROUND)
    assert table.game.to_act == alice.id
    users = [p.id for p in (*players, dave)]
    async with Unchanged(env, guild, thread, table, users):
        res = await bob.member.click(table_message(thread, table), label="Hit")
        assert_sentence(reply(res), t("illegal.not_your_turn", "en"))
        res = await bob.member.slash(thread, "stand")
        assert_sentence(reply(res), t("illegal.not_your_turn", "en"))
        res = await dave.member.click(table_message(thread, table), label="Hit")
        assert_sentence(reply(res), t("illegal.not_seated", "en"))
        res = await dave.member.slash(thread, "hit")
        assert_sentence(reply(res), t("illegal.not_seated", "en"))
        res = await dave.member.slash(thread, "hand")
        assert_sentence(reply(res), t("hand.not_seated", "en"))
        res = await dave.member.slash(thread, "bet", amount=10)
        assert_sentence(reply(res), t("illegal.not_seated", "en"))


async def test_bets_out_of_range_or_above_the_stack(simcord_env):
    env = simcord_env
    guild, _lobby, thread, table, players = await classic_table(
        env, "alice", "bob", options="min_bet=10 max_bet=200", buy_in=50
    )
    alice, bob = players
    await alice.member.click(table_message(thread, table), label="Start")
    users = [p.id for p in players]
    async with Unchanged(env, guild, thread, table, users):
        res = await bob.member.slash(thread, "bet", amount=5)
        text = reply(res)
        assert_sentence(text)
        assert "10" in text and text.startswith("The bet must be from")
        for amount in (0, -5):  # the table's range, up to the stack: not an internal limit
            res = await bob.member.slash(thread, "bet", amount=amount)
            assert_sentence(reply(res), t("illegal.bet_out_of_range", "en", min=10, max=50))
        res = await bob.member.slash(thread, "bet", amount=201)
        assert_sentence(reply(res))
        res = await bob.member.slash(thread, "bet", amount=60)  # stack 50
        assert_sentence(reply(res), t("illegal.insufficient_stack", "en", stack=50))
        # the modal's "other amount" path: not a number, then above the stack
        shown = await bob.member.click(table_message(thread, table), label="Other amount…")
        field = shown.modal["components"][0]["components"][0]["custom_id"]
        res = await bob.member.submit_modal(shown, {field: "lots"})
        assert_sentence(reply(res), t("table.error.amount_not_number", "en"))
        shown = await bob.member.click(table_message(thread, table), label="Other amount…")
        field = shown.modal["components"][0]["components"][0]["custom_id"]
        res = await bob.member.submit_modal(shown, {field: "60"})
        assert_sentence(reply(res), t("illegal.insufficient_stack", "en", stack=50))


async def test_the_same_button_twice_and_a_repeated_interaction(simcord_env):
    env = simcord_env
    guild, _lobby, thread, table, players = await classic_table(env, "alice", "bob", "carol")
    alice, bob, carol = players
    await to_play(env, thread, table, players, ROUND)
    await alice.member.click(table_message(thread, table), label="Stand")
    users = [p.id for p in players]

    # A double click: the second click carries the button of the message as it was. To
    # keep the old buttons on screen, Discord loses every edit of the first click (the
    # interaction response and the cog's fallback edit of the message).
    env.inject_error("POST", "/interactions/*/callback", status=500)
    env.inject_error("PATCH", f"/channels/{thread.id}/messages/*", status=500, times=None)
    before = table.version
    try:
        await bob.member.click(table_message(thread, table), label="Hit")  # 16 + 2♦ = 18
    finally:
        env.backend.faults.clear()
    assert table.version == before + 1  # the move counted although no edit went through
    old = table_message(thread, table)
    assert next(c.custom_id for row in old.components for c in row.children).startswith(
        f"cr:{table.id}:{before}:"
    )
    async with Unchanged(env, guild, thread, table, users):
        res = await bob.member.click(old, label="Hit")
        assert_sentence(reply(res), t("table.error.stale", "en"))
        assert "nothing was done" in reply(res)
    env.errors  # noqa: B018  (the lost edits were logged as errors: acknowledged)
    # the message is repaired by the next publish at the latest
    res = await bob.member.slash(thread, "stand")
    assert res.ephemeral and table.game.to_act == carol.id
    assert "2♦" in embed_text(table_message(thread, table))

    # A repeated interaction id (a redelivered interaction): refused, nothing done twice.
    row = await fetchone(
        env.bot.db,
        "SELECT interaction_id FROM table_actions WHERE interaction_id IS NOT NULL"
        " ORDER BY version DESC LIMIT 1",
    )
    seen_id = int(row["interaction_id"])
    backend = env.backend
    snowflake = backend.snowflake
    calls = {"n": 0}

    def once() -> int:
        calls["n"] += 1
        return seen_id if calls["n"] == 1 else snowflake()

    backend.snowflake = once
    try:
        async with Unchanged(env, guild, thread, table, users):
            res = await carol.member.slash(thread, "hit")  # legal for carol: her turn
            assert_sentence(reply(res), t("table.error.already_done", "en"))
    finally:
        backend.snowflake = snowflake
    assert calls["n"] >= 1


# ----------------------------------------------------------------------------- seats


async def test_join_refusals_balance_full_table_and_round_in_play(simcord_env):
    env = simcord_env
    names = ["p1", "p2", "p3", "p4", "p5", "p6", "p7"]
    guild, _lobby, thread, table, players = await classic_table(env, *names, buy_in=20)
    assert len(table.game.seats) == 7
    (late, poor) = add_players(env, guild, "late", "poor")
    users = [p.id for p in (*players, late, poor)]
    async with Unchanged(env, guild, thread, table, users):
        res = await late.member.slash(thread, "table join", buy_in=20)
        assert_sentence(reply(res), t("illegal.table_full", "en"))
        message = table_message(thread, table)  # a full table offers no Join button
        assert "Join" not in [c.label for row in message.components for c in row.children]
    # room again: one leaves; then a buy-in above the balance (1000) is refused
    await players[-1].member.slash(thread, "table leave")
    users.append(players[-1].id)
    async with Unchanged(env, guild, thread, table, users):
        res = await poor.member.slash(thread, "table join", buy_in=5000)
        assert_sentence(reply(res))
    # a round in play: joining waits for the end of the round
    table.game.rig(ROUND.split())
    await players[0].member.click(table_message(thread, table), label="Start")
    async with Unchanged(env, guild, thread, table, users):
        res = await late.member.slash(thread, "table join", buy_in=20)
        assert_sentence(reply(res), t("table.error.join_between_rounds", "en"))


async def test_wrong_channel_options_and_bot_permissions(simcord_env):
    env = simcord_env
    guild = env.create_guild()
    lobby = guild.create_text_channel("casino")
    (alice,) = add_players(env, guild, "alice")
    bank = service(env).bank
    # a move outside any table
    res = await alice.member.slash(lobby, "hit")
    assert_sentence(reply(res), t("table.error.no_table_here", "en"))
    res = await alice.member.slash(lobby, "hand")
    assert_sentence(reply(res), t("table.error.no_table_here", "en"))
    # options out of range, unknown, badly written
    res = await alice.member.slash(lobby, "table open", game="blackjack", options="decks=12")
    text = reply(res)
    assert_sentence(text, "decks must be between 1 and 8 (got 12).")
    res = await alice.member.slash(lobby, "table open", game="blackjack", options="colour=red")
    text = reply(res)
    assert_sentence(text)
    assert text.startswith("Unknown option `colour`") and text.count("min_bet") == 1
    res = await alice.member.slash(lobby, "table open", game="blackjack", options="decks")
    assert_sentence(reply(res))
    assert not lobby.threads and not service(env).open_tables()
    # the bot may not create threads in this channel
    locked = guild.create_text_channel(
        "locked", overwrites={guild.me: discord.PermissionOverwrite(create_public_threads=False)}
    )
    res = await alice.member.slash(locked, "table open", game="blackjack")
    lacking = "“Create Public Threads”"  # named, before anything is created
    expected = t("table.error.bot_missing", "en", where=f"<#{locked.id}>", perms=lacking)
    assert_sentence(reply(res), expected)
    assert not locked.threads and not service(env).open_tables()
    assert await bank.balance(guild.id, alice.id) in (0, 1000)  # nothing was taken
    assert not await bank.claims(guild.id)
    expected_refusals(env)


async def test_close_and_kick_need_the_host_or_manage_server(simcord_env):
    env = simcord_env
    guild, _lobby, thread, table, players = await classic_table(env, "alice", "bob")
    alice, bob = players
    perms = discord.Permissions(manage_guild=True)
    manager_role = guild.create_role("croupiers", permissions=perms)
    manager = env.create_user("manager")
    boss = guild.add_member(manager, roles=[manager_role])
    users = [alice.id, bob.id, boss.id]
    async with Unchanged(env, guild, thread, table, users):
        res = await bob.member.slash(thread, "table close")
        assert_sentence(reply(res), t("table.error.not_host", "en"))
        res = await bob.member.slash(thread, "table kick", player=alice.member)
        assert_sentence(reply(res), t("table.error.not_host", "en"))
    # a server manager may kick and close
    res = await boss.slash(thread, "table kick", player=bob.member)
    assert res.ephemeral
    assert bob.id not in table.game.seats
    res = await boss.slash(thread, "table close")
    assert res.ephemeral
    assert service(env).table_in(thread.id) is None
    claims = {c.user_id: c.amount for c in await service(env).bank.claims(guild.id)}
    assert claims == {alice.id: 200, bob.id: 100}


# ----------------------------------------------------------------------------- French


async def test_refusals_in_french(simcord_env):
    env = simcord_env
    guild, lobby, thread, table, players = await classic_table(env, "alice", "bob", "carol")
    _alice, bob, _carol = players
    (dave,) = add_players(env, guild, "dave")
    for p in (bob, dave):
        res = await p.member.slash(lobby, "language", language="fr")
        assert res.ephemeral
    await to_play(env, thread, table, players, ROUND)
    users = [p.id for p in (*players, dave)]
    async with Unchanged(env, guild, thread, table, users):
        res = await bob.member.click(table_message(thread, table), label="Hit")
        text = reply(res)
        assert_sentence(text, t("illegal.not_your_turn", "fr"))
        assert text != t("illegal.not_your_turn", "en")
        res = await dave.member.slash(thread, "hit")
        assert_sentence(reply(res), t("illegal.not_seated", "fr"))
        res = await bob.member.slash(thread, "table close")
        assert_sentence(reply(res), t("table.error.not_host", "fr"))
        res = await dave.member.slash(thread, "hand")
        assert_sentence(reply(res), t("hand.not_seated", "fr"))
    res = await dave.member.slash(lobby, "table open", game="blackjack", options="decks=12")
    assert_sentence(reply(res), "decks doit être compris entre 1 et 8 (valeur donnée\u00a0: 12).")
    res = await dave.member.slash(lobby, "hit")
    assert_sentence(reply(res), t("table.error.no_table_here", "fr"))
    expected_refusals(env)


async def test_a_command_for_another_games_move_names_this_games_commands(simcord_env):
    """``/hit`` at Casino 21 (drawn with ``/draw``), ``/draw`` at Black Jack: the answer
    names the game and its own move commands, in the reader's language, and changes
    nothing."""
    env = simcord_env
    guild, _lobby, thread, table, players = await classic_table(env, "alice", "bob")
    alice, bob = players
    lobby21 = guild.create_text_channel("casino21")
    await open_anyway(alice.member, lobby21, game="casino21")  # her second table
    thread21 = lobby21.threads[-1]
    table21 = service(env).table_in(thread21.id)
    assert table21 is not None
    await bob.member.slash(thread21, "table join")
    await bob.member.slash(thread21, "language", language="fr")
    users = [alice.id, bob.id]
    async with Unchanged(env, guild, thread21, table21, users):
        res = await alice.member.slash(thread21, "hit")
        assert_sentence(
            reply(res),
            "That move does not exist in Casino 21: play with /draw, /ace, /end-turn.",
        )
        res = await bob.member.slash(thread21, "double")
        assert_sentence(
            reply(res),
            "Ce coup n'existe pas dans ce jeu (Casino 21)\u00a0: jouez avec"
            " /draw, /ace, /end-turn.",
        )
    async with Unchanged(env, guild, thread, table, users):
        res = await alice.member.slash(thread, "draw", count=1)
        text = reply(res)
        assert_sentence(text)
        assert text.startswith("That move does not exist in Black Jack: play with /hit, /stand")
