"""A shard process of a sharded bot (``SHARD_COUNT=2``, shard 1) under SimCord: it gets
only its own guilds, keeps them in its own database file, does not sync the commands
(shard 0 does), keeps users' languages in the file every shard shares, and comes back
from a restart on the same file."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import discord
import pytest
import simcord

from bot.app import CroupierBot, create_bot
from bot.config import Settings
from bot.db import SqliteDatabase
from bot.engine.shuffle import seeded_entropy
from bot.prefs import Prefs
from bot.shards import LAYOUT_KEY, ShardLayout, users_database_path
from tests.bank_audit import assert_audit_clean
from tests.e2e.helpers import add_players, table_message, table_of, thread_of
from tests.e2e.recovery_helpers import click_move, play_round, stacks
from tests.sql import fetchall, fetchone


def shard_bot(db_path: str, shard: int = 1) -> CroupierBot:
    """A shard of 2, as ``python -m bot run --shard N`` builds it."""
    settings = Settings(token=None, database_path=db_path, shard_count=2, shard_id=shard)
    return create_bot(settings, entropy=seeded_entropy("e2e"))


@pytest.fixture
def simcord_bot(db_path: str) -> CroupierBot:
    return shard_bot(db_path)


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


async def test_a_shard_plays_its_guilds_on_a_file_of_its_own(simcord_env, db_path):
    env = simcord_env
    bot = env.bot
    assert isinstance(bot, discord.AutoShardedClient)
    assert bot.shard_ids == [1] and bot.shard_count == 2
    shard_file = ShardLayout(1, 2).database_path(db_path)
    assert bot.db.path == shard_file and shard_file.endswith("croupier.shard-1-of-2.sqlite3")
    row = await fetchone(bot.db, "SELECT value FROM bot_meta WHERE key = ?", (LAYOUT_KEY,))
    assert row is not None and row[0] == "1/2"

    assert command_syncs(env) == []  # shard 0's process syncs them for the application
    await bot.tree.sync()  # what shard 0 does

    guild = env.create_guild(shard_id=1)
    assert bot.layout.owns(guild.id) and not ShardLayout(0, 2).owns(guild.id)
    thread, (alice, bob), table = await round_under_way(env, guild, "alice", "bob")
    await click_move(bob.member, table_message(thread, table), "bet:20")
    await play_round(env, thread, [alice, bob], table)
    after_round = stacks(table)

    # a restart of the shard comes back on the same file, with the same table
    await env.restart_bot(shard_bot(db_path))
    assert env.bot.db.path == shard_file
    again = table_of(env, thread)
    assert stacks(again) == after_round
    assert not Path(db_path).exists()  # nothing was ever written to a one-file database
    await assert_audit_clean(env.bot.db)
    res = await alice.member.slash(thread, "table close")
    assert res.ephemeral
    await assert_audit_clean(env.bot.db)
    guilds = await fetchall(env.bot.db, "SELECT DISTINCT guild_id FROM bank_accounts")
    assert [r[0] for r in guilds] == [guild.id]


async def test_a_language_chosen_on_one_shard_reaches_the_others(simcord_env, db_path):
    env = simcord_env
    await env.bot.tree.sync()
    guild = env.create_guild(shard_id=1)
    lobby = guild.create_text_channel("casino")
    (alice,) = add_players(env, guild, "alice")

    # shard 0's process, as far as languages go: its own connection to the shared file
    other = await SqliteDatabase.open(users_database_path(db_path))
    shard0 = Prefs(other, shared=True)
    try:
        assert await shard0.locale(alice.id) is None  # now cached: nobody chose yet

        res = await alice.member.slash(lobby, "language", language="fr")
        assert res.response.content == "Désormais, je vous réponds en français."
        # the choice is in the shared file, not in the shard's own
        with sqlite3.connect(users_database_path(db_path)) as conn:
            assert conn.execute("SELECT user_id, locale FROM user_prefs").fetchall() == [
                (alice.id, "fr")
            ]
        own = await fetchone(env.bot.db, "SELECT COUNT(*) FROM user_prefs")
        assert own is not None and own[0] == 0

        # shard 0 had cached "no choice", yet sees the other process's commit at once
        assert await shard0.locale(alice.id) == "fr"

        # and the other way: shard 0 sets English, shard 1 answers in English
        await shard0.set_locale(alice.id, "en")
        res = await alice.member.slash(lobby, "bank balance")
        assert res.response.content.startswith("Your balance")
    finally:
        await other.close()


async def test_a_casino_split_mid_round_goes_on_in_each_shard(tmp_path):
    """The operator's path: a one-file bot with a round under way in two servers, stopped;
    ``python -m bot split --shards 2``; then each shard process finishes its server's
    round from the buttons of the old table messages. Nothing is lost: every balance and
    every table is where it was, and each file's audit is clean."""
    from bot.shards import shard_of
    from tests.test_cli import run

    db_path = str(tmp_path / "data" / "croupier.sqlite3")
    one_file = create_bot(database_path=db_path, entropy=seeded_entropy("e2e"))
    async with simcord.run(one_file) as env:
        played = {}
        for shard in (0, 1):
            guild = env.create_guild()
            for _ in range(10):  # ids carry the time: try again a millisecond later
                if shard_of(guild.id, 2) == shard:
                    break
                await env.advance_time(0.001)
                guild = env.create_guild()
            assert shard_of(guild.id, 2) == shard
            thread, players, table = await round_under_way(
                env, guild, f"host{shard}", f"guest{shard}"
            )
            played[shard] = (guild, thread, players, table.id, stacks(table))
        balances = {
            shard: await env.bot.tables.bank.balance(guild.id, players[0].id)
            for shard, (guild, _t, players, _id, _s) in played.items()
        }

        # the operator stops the bot (its file and lock are let go), then splits
        await env.bot.db.close()
        env.bot._file_lock.release()
        res = run("split", "--shards", "2", "--db", db_path, cwd=tmp_path)
        assert res.returncode == 0, res.stderr
        assert "Next: set SHARD_COUNT=2" in res.stdout

        for shard in (1, 0):
            guild, thread, (host, guest), table_id, before = played[shard]
            await env.restart_bot(shard_bot(db_path, shard))
            assert env.bot.db.path == ShardLayout(shard, 2).database_path(db_path)
            await env.bot.tree.sync()
            table = table_of(env, thread)
            assert table.id == table_id and stacks(table) == before  # mid-round, as it was
            bank = env.bot.tables.bank
            assert await bank.balance(guild.id, host.id) == balances[shard]
            # the old message's buttons work on the shard: the guest bets, the round ends
            await click_move(guest.member, table_message(thread, table), "bet:20")
            await play_round(env, thread, [host, guest], table)
            assert any("results" in (m.content or "") for m in thread.history())
            await assert_audit_clean(env.bot.db)
            # the shard's file holds its own server only
            rows = await fetchall(env.bot.db, "SELECT DISTINCT guild_id FROM bank_accounts")
            assert [r[0] for r in rows] == [guild.id]
