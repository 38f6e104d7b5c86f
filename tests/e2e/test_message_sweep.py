"""Issue 26 point 7 with issue 27's intents: the bot receives no message events, so a
table message deleted while its table stands still is found by the sweep of idle table
messages (one GET per idle table per hour); its thread is still there, so the table
message is posted again and the table goes on (issue 36 point 7).
"""

from __future__ import annotations

from typing import Any

from bot.discord.publisher import MESSAGE_CHECK_AGE
from bot.discord.scheduler import SWEEP_EVERY
from bot.engine.base import Phase
from tests.bank_audit import assert_audit_clean
from tests.e2e.helpers import add_players, service, table_message, table_of, thread_of
from tests.e2e.recovery_helpers import fresh_render, shown
from tests.sql import fetchone


def message_gets(env: Any, channel_id: int, message_id: int) -> int:
    """How many times the bot fetched that message."""
    path = f"/channels/{channel_id}/messages/{message_id}"
    return sum(1 for r in env.http_requests if r.method == "GET" and r.path == path)


async def test_a_table_message_deleted_while_nothing_moves_is_posted_again(simcord_env):
    env = simcord_env
    guild = env.create_guild()
    lobby = guild.create_text_channel("casino")
    alice, bob = add_players(env, guild, "alice", "bob")
    # forum pace: a table may stand still for days before its idle close (7 days)
    await alice.member.slash(lobby, "table open", game="blackjack", options="pace=forum")
    thread = thread_of(lobby)
    table = table_of(env, thread)
    await bob.member.slash(thread, "table join", buy_in=100)
    message_id = table.message_id
    assert message_id is not None

    # a message that is there: fetched about once an hour, the table stays open
    await env.advance_time(3 * MESSAGE_CHECK_AGE)
    assert table.is_open
    assert 2 <= message_gets(env, thread.id, message_id) <= 3

    # a moderator deletes the table message; nothing moves at the table
    env.backend.delete_message(thread.id, message_id)
    await env.advance_time(MESSAGE_CHECK_AGE + SWEEP_EVERY + 1)
    assert table.is_open and service(env).table_in(thread.id) is table
    assert table.message_id not in (None, message_id)  # posted again, its id stored
    row = await fetchone(env.bot.db, "SELECT message_id FROM tables WHERE id = ?", (table.id,))
    assert row[0] == table.message_id
    assert shown(table_message(thread, table)) == fresh_render(env, table)
    assert await service(env).bank.claims(table.guild_id) == []  # nothing closed
    # the table goes on from its new message
    version = table.version
    await alice.member.click(table_message(thread, table), label="Start")
    assert table.version == version + 1 and table.game.phase is Phase.BETTING
    await assert_audit_clean(env.bot.db)
