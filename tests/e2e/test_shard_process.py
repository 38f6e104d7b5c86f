"""Processes on one database: a process serving some shards of a bot (``SHARD_COUNT=2``,
``SHARD_IDS=1``, PostgreSQL) under SimCord plays only its guilds and does not sync the
commands; a language chosen through one process applies in the others at once; and a
takeover mid-round (another process moved the table on) never plays from a stale copy."""

from __future__ import annotations

import discord
import pytest

from bot.app import CroupierBot, create_bot
from bot.bank import Bank
from bot.config import Settings
from bot.db import open_database
from bot.discord.scheduler import now
from bot.engine.base import Action, ActionKind
from bot.engine.shuffle import seeded_entropy
from bot.prefs import Prefs
from bot.shards import ShardLayout
from bot.tables import TableService
from tests.bank_audit import assert_audit_clean
from tests.conftest import NEEDS_PG
from tests.e2e.helpers import add_players, table_message, table_of, thread_of
from tests.e2e.recovery_helpers import click_move, play_round, stacks
from tests.sql import committed, fetchall


def shard_bot(url: str, shard_ids: tuple[int, ...] | None = (1,)) -> CroupierBot:
    """Shards ``shard_ids`` of 2 (None: every shard), as ``python -m bot`` builds it."""
    settings = Settings(token=None, database_url=url, shard_count=2, shard_ids=shard_ids)
    return create_bot(settings, entropy=seeded_entropy("e2e"))


async def round_under_way(env, guild, host_name: str, guest_name: str):
    """A Black Jack table in ``guild``: the host and a guest seated, the round started,
    the host's bet placed, the guest's to come."""
    lobby = guild.create_text_channel("casino")
    host, guest = add_players(env, guild, host_name, guest_name)
    await host.member.slash(lobby, "table open", game="blackjack")
    thread = thread_of(lobby)
    await guest.member.slash(thread, "table join", buy_in=100)
    table = table_of(env, thread)
    table.game.rig(["TS", "9H", "5C", "TD", "8S", "7H", "6D", "KC"])  # type: ignore[attr-defined]
    await host.member.click(table_message(thread, table), label="Start")
    await click_move(host.member, table_message(thread, table), "bet:10")
    return thread, [host, guest], table


def command_syncs(env) -> list:
    return [r for r in env.http_requests if r.method == "PUT" and r.path.endswith("/commands")]


@NEEDS_PG
class TestOneOfSeveralProcesses:
    @pytest.fixture
    def backend(self) -> str:
        return "postgresql"

    @pytest.fixture
    def simcord_bot(self, database_url: str) -> CroupierBot:
        return shard_bot(database_url)

    async def test_a_process_plays_its_shards_guilds(self, simcord_env, database_url):
        env = simcord_env
        bot = env.bot
        assert isinstance(bot, discord.AutoShardedClient)
        assert bot.shard_ids == [1] and bot.shard_count == 2
        assert command_syncs(env) == []  # shard 0's process syncs them for the application
        await bot.tree.sync()  # what shard 0 does

        guild = env.create_guild(shard_id=1)
        assert bot.layout.owns(guild.id) and not ShardLayout(2, (0,)).owns(guild.id)
        thread, (alice, bob), table = await round_under_way(env, guild, "alice", "bob")
        await click_move(bob.member, table_message(thread, table), "bet:20")
        await play_round(env, thread, [alice, bob], table)
        after_round = stacks(table)

        # a restart of the process comes back with the same table
        await env.restart_bot(shard_bot(database_url))
        again = table_of(env, thread)
        assert stacks(again) == after_round
        # the process serving shard 0 does not load it (nor fire its timers)
        other = await open_database(database_url)
        try:
            shard0 = TableService(other, Bank(other), clock=now, shards=(2, (0,)))
            assert await shard0.load_open_tables() == []
        finally:
            await other.close()
        res = await alice.member.slash(thread, "table close")
        assert res.ephemeral
        await assert_audit_clean(env.bot.db)

    async def test_a_language_chosen_through_one_process_applies_in_the_others(
        self, simcord_env, database_url
    ):
        env = simcord_env
        await env.bot.tree.sync()
        guild = env.create_guild(shard_id=1)
        lobby = guild.create_text_channel("casino")
        (alice,) = add_players(env, guild, "alice")
        # shard 0's process, as far as languages go: its own connections
        other = await open_database(database_url)
        shard0 = Prefs(other, shared=True)
        try:
            assert await shard0.locale(alice.id) is None
            res = await alice.member.slash(lobby, "language", language="fr")
            assert res.response.content == "Désormais, je vous réponds en français."
            rows = await fetchall(env.bot.db, "SELECT user_id, locale FROM user_prefs")
            assert [tuple(r) for r in rows] == [(alice.id, "fr")]
            assert await shard0.locale(alice.id) == "fr"  # at once, no cache in the way
            await shard0.set_locale(alice.id, "en")
            res = await alice.member.slash(lobby, "bank balance")
            assert res.response.content.startswith("Your balance")
        finally:
            await other.close()


@pytest.fixture
def simcord_bot(database_url: str) -> CroupierBot:
    return shard_bot(database_url, None)


async def test_a_takeover_mid_round_never_plays_from_a_stale_copy(simcord_env, database_url):
    """A rolling restart: bot A (under SimCord) has the table loaded mid-round; the old
    process B (its own connections, its own copy) still gets the guest's click and plays
    the bet. A's copy is now one move behind. The guest clicks the same bet on A's table
    message: A's write is refused, A reloads the table, and on the committed state the bet
    is already placed: no second bet, one refusal, the message brought up to date by the
    repair pass; then the round goes on to a clean audit."""
    env = simcord_env
    await env.bot.tree.sync()
    guild = env.create_guild()
    thread, (host, guest), table = await round_under_way(env, guild, "host", "guest")
    other = await open_database(database_url)
    try:
        old = TableService(other, Bank(other), clock=now, entropy=seeded_entropy("b"))
        [copy] = await old.load_open_tables()
        await old.act(copy.id, guest.id, Action(ActionKind.BET, guest.id, amount=20))
        version = copy.version
    finally:
        await other.close()
    stale = table_of(env, thread)
    assert stale.version == version - 1  # A's copy is one move behind the database
    balance = await env.bot.tables.bank.balance(guild.id, guest.id)

    message = table_message(thread, stale)
    res = await click_move(guest.member, message, "bet:20")
    fresh = table_of(env, thread)
    assert fresh is not stale and fresh.version == version  # reloaded, nothing written
    assert res.ephemeral  # a refusal for the guest alone: the bet is already in
    bets = await fetchall(
        env.bot.db,
        "SELECT COUNT(*) FROM bank_entries WHERE kind = 'bet' AND table_id = ?",
        (table.id,),
    )
    assert bets[0][0] == 2  # the host's and the guest's, once each
    assert await env.bot.tables.bank.balance(guild.id, guest.id) == balance
    assert await committed(env.bot.db, table.id) == (fresh.version, fresh.snapshot_json())

    await env.advance_time(20)  # the repair pass re-renders the reloaded table
    assert table_message(thread, fresh) is not None
    assert move_labels(table_message(thread, fresh)) != move_labels(message)
    await play_round(env, thread, [host, guest], fresh)
    assert any("results" in (m.content or "") for m in thread.history())
    await assert_audit_clean(env.bot.db)


def move_labels(message) -> list[str]:
    return [c.label for row in message.components for c in row.children]
