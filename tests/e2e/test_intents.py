"""The bot asks Discord for the ``guilds`` intent only (issue 27, point 2), and everything
it does still works end to end: slash commands, buttons, threads, forum posts, DMs. SimCord
delivers only the gateway events of the declared intents, as Discord does: the players'
chat in a table thread and the bot's own message edits never reach the bot."""

from __future__ import annotations

from typing import Any

import discord

from bot.app import INTENTS
from tests.e2e.helpers import (
    add_players,
    answer_text,
    embed_text,
    table_message,
    table_of,
    thread_of,
)


def dropped(env: Any, event: str) -> int:
    """How many ``event`` gateway events SimCord did not deliver (intent not declared)."""
    return sum(1 for kind, name, _ in env.backend.transcript if kind == "DROPPED" and name == event)


def delivered(env: Any, event: str) -> int:
    """How many ``event`` gateway events reached the bot (SimCord notes each event it
    emits as GATEWAY, then DROPPED if the bot did not subscribe to it)."""
    sent = sum(1 for kind, name, _ in env.backend.transcript if kind == "GATEWAY" and name == event)
    return sent - dropped(env, event)


async def test_the_bot_declares_the_guilds_intent_only(simcord_env):
    assert discord.Intents(guilds=True) == INTENTS
    assert simcord_env.bot.intents == discord.Intents(guilds=True)


async def test_threads_buttons_and_dms_work_without_message_events(simcord_env):
    env = simcord_env
    guild = env.create_guild()
    lobby = guild.create_text_channel("casino")
    alice, bob = add_players(env, guild, "alice", "bob")
    res = await alice.member.slash(lobby, "table open", game="sept_et_demi")  # a thread
    assert res.ephemeral
    thread = thread_of(lobby)
    table = table_of(env, thread)
    assert (await bob.member.slash(thread, "table join")).ephemeral
    table.game.rig(["3S", "4D", "2C"])  # bob 3♠, the bank 4♦, then bob's hit 2♣
    await alice.member.click(table_message(thread, table), label="Start")  # a button
    assert "3♠" in "\n".join(m.content for m in bob.dms())  # a DM
    await bob.member.click(table_message(thread, table), label="Bet 25")
    res = await bob.member.click(table_message(thread, table), label="Hit")
    assert "2♣" in answer_text(res)  # an ephemeral follow-up of his own click
    assert f"v{table.version}" in embed_text(table_message(thread, table))
    await bob.member.send(thread, "nice card!")  # chat in the table's thread
    # Discord would push every message and every edit (the bot's own included) with the
    # message intents; without them none of it reaches the bot
    assert dropped(env, "MESSAGE_CREATE") >= 1 and delivered(env, "MESSAGE_CREATE") == 0
    assert dropped(env, "MESSAGE_UPDATE") >= 3 and delivered(env, "MESSAGE_UPDATE") == 0
    assert delivered(env, "INTERACTION_CREATE") >= 5 and delivered(env, "THREAD_CREATE") == 1


async def test_a_forum_post_table_works_with_the_guilds_intent(simcord_env):
    env = simcord_env
    guild = env.create_guild()
    lobby = guild.create_text_channel("hall")
    forum = guild.create_forum_channel("casino")
    alice, bob = add_players(env, guild, "alice", "bob")
    res = await alice.member.slash(lobby, "table open", game="blackjack", name="Tapis", where=forum)
    assert res.ephemeral
    post = thread_of(forum)
    table = table_of(env, post)
    assert table.message_id in [m.id for m in post.history()]
    assert (await bob.member.slash(post, "table join", buy_in=100)).ephemeral
    await alice.member.click(table_message(post, table), label="Start")
    assert table.game.phase.name == "BETTING"
    assert dropped(env, "MESSAGE_CREATE") >= 1 and delivered(env, "MESSAGE_CREATE") == 0
