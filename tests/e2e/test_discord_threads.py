"""Discord as it really is (issue 36 points 1, 2 and 4): a server granting the bot exactly
its invite's permissions, Embed Links missing, threads Discord archived or a moderator
locked, forums that require a tag. SimCord does not model these: tests/e2e/discord_rules.py
puts Discord's documented answers in front of it (autouse in every e2e test)."""

from __future__ import annotations

import logging
from typing import Any

import discord

from bot.discord import perms
from bot.discord.publisher import REPAIR_BACKOFF
from bot.i18n import t
from tests.bank_audit import assert_audit_clean
from tests.e2e.discord_rules import exact_permissions, set_thread, tagged_forum, thread_state
from tests.e2e.helpers import add_players, embed_text, service, table_message, table_of, thread_of
from tests.e2e.recovery_helpers import fresh_render, restart, shown
from tests.e2e.test_faults import deny_bot, undeny_bot
from tests.e2e.test_outages import classic_in_play

TURN = 91  # a little more than the live turn timer (90 s)


def requests(env: Any, method: str, path: str) -> list[Any]:
    """The bot's REST calls of ``method`` on ``path``, in order."""
    return [r for r in env.http_requests if r.method == method and r.path == path]


def last_text(channel: Any) -> str:
    """The newest message's content in a channel or thread."""
    return [m.content or "" for m in channel.history()][-1]


async def test_a_server_granting_exactly_the_invite_runs_tables_everywhere(simcord_env):
    env = simcord_env
    guild = env.create_guild()
    lobby = guild.create_text_channel("casino")
    den = guild.create_text_channel("den")
    forum = guild.create_forum_channel("tables")
    alice, bob, carol = add_players(env, guild, "alice", "bob", "carol")
    exact_permissions(env, guild, perms.invite_value())
    me = env.bot.get_guild(guild.id).me
    assert me.guild_permissions.value == perms.invite_value() == 395137076224
    assert not me.guild_permissions.manage_messages  # the old invite's bit, used nowhere

    await alice.member.slash(lobby, "table open", game="blackjack")
    await bob.member.slash(lobby, "table open", game="casino21", where=forum)
    await carol.member.slash(den, "table open", game="blackjack", here=True)
    thread, post = thread_of(lobby), thread_of(forum)
    tables = [table_of(env, thread), table_of(env, post), table_of(env, den)]
    for home, table in zip((thread, post, den), tables, strict=True):
        message = table_message(home, table)
        assert message.embeds and "Table #" in embed_text(message)  # shown with its embed
        assert shown(message) == fresh_render(env, table)
    # threads and posts archive as late as Discord allows
    made = requests(env, "POST", f"/channels/{lobby.id}/threads")
    made += requests(env, "POST", f"/channels/{forum.id}/threads")
    assert [r.json["auto_archive_duration"] for r in made] == [10080, 10080]

    # a finished table's thread is archived after its summary; a channel never is
    await bob.member.slash(thread, "table join", buy_in=100)
    await alice.member.slash(thread, "table close")
    await carol.member.slash(den, "table close")
    assert not tables[0].is_open and not tables[2].is_open
    assert thread_state(env, thread.id) == (True, False)
    closed = embed_text(table_message(thread, tables[0]))  # its last state, then archived
    assert f"v{tables[0].version}" in closed and "closed" in closed
    archived = requests(env, "PATCH", f"/channels/{thread.id}")
    assert [r.json for r in archived] == [{"archived": True}]
    calls = env.http_requests
    posts = [i for i, r in enumerate(calls) if r.path == f"/channels/{thread.id}/messages"]
    assert last_text(thread) and posts[-1] < calls.index(archived[0])  # the summary first
    assert not requests(env, "PATCH", f"/channels/{den.id}")
    assert thread_state(env, post.id) == (False, False)  # still open: not archived
    await assert_audit_clean(env.bot.db)


async def test_without_embed_links_a_table_is_refused_naming_it(simcord_env):
    env = simcord_env
    guild = env.create_guild()
    lobby = guild.create_text_channel("casino")
    forum = guild.create_forum_channel("tables")
    (alice,) = add_players(env, guild, "alice")
    granted = discord.Permissions(perms.invite_value())
    granted.embed_links = False
    exact_permissions(env, guild, granted.value)
    lacking = "“Embed Links”"
    for where, here in ((lobby, False), (lobby, True), (forum, False)):
        res = await alice.member.slash(
            lobby, "table open", game="blackjack", where=where, here=here
        )
        assert res.ephemeral and res.response.content == t(
            "table.error.bot_missing", "en", where=f"<#{where.id}>", perms=lacking
        )
    assert lobby.threads == [] and forum.threads == [] and service(env).open_tables() == []
    assert list(lobby.history()) == []  # nothing posted


async def test_an_open_tables_archived_thread_is_reopened_at_once(simcord_env):
    env = simcord_env
    _guild, thread, (alice, _bob), table = await classic_in_play(env)
    set_thread(env, thread, archived=True)  # a week without a message: Discord archives it
    await env.advance_time(1)
    assert thread_state(env, thread.id) == (False, False)  # players may use commands again
    assert [r.json for r in requests(env, "PATCH", f"/channels/{thread.id}")] == [
        {"archived": False}
    ]
    version = table.version
    await alice.member.slash(thread, "stand")
    assert table.version == version + 1
    assert shown(table_message(thread, table)) == fresh_render(env, table)


async def test_an_edit_in_an_archived_thread_reopens_it_and_edits_again(simcord_env):
    env = simcord_env
    _guild, thread, (alice, _bob), table = await classic_in_play(env)
    set_thread(env, thread, archived=True, seen=False)  # archived unseen (the bot was away)
    version = table.version
    edits = f"/channels/{thread.id}/messages/{table.message_id}"
    before = len(requests(env, "PATCH", edits))
    await env.advance_time(TURN)  # alice's turn times out: its edit meets the archive
    assert table.version > version
    assert len(requests(env, "PATCH", edits)) - before == 2  # refused (50083), then made
    assert thread_state(env, thread.id) == (False, False)
    assert [r.json for r in requests(env, "PATCH", f"/channels/{thread.id}")] == [
        {"archived": False}
    ]
    assert shown(table_message(thread, table)) == fresh_render(env, table)
    assert not env.bot.publisher.dirty
    await alice.member.slash(thread, "table close")  # and the finished table archives it
    assert thread_state(env, thread.id) == (True, False)


async def test_a_repair_that_keeps_failing_backs_off_and_is_logged_once(simcord_env, caplog):
    env = simcord_env
    # bob's turn outlasts the test: the round, whose end would post a new table message,
    # does not end
    _guild, thread, (alice, _bob), table = await classic_in_play(env, options="turn_seconds=3600")
    edits = f"/channels/{thread.id}/messages/{table.message_id}"
    before = len(requests(env, "PATCH", edits))
    env.inject_error("PATCH", edits, status=500, times=None)  # an edit refused every time
    caplog.set_level(logging.DEBUG, logger="bot.discord.publisher")
    await alice.member.slash(thread, "stand")
    await env.advance_time(600)
    tries = len(requests(env, "PATCH", edits)) - before
    # 0, 15, 30, 60, 120, 300 s apart (+ the repair pass's 15 s period): not 41 in 10 min
    assert tries == len(REPAIR_BACKOFF)  # the move's edit, then one try per step
    assert env.bot.publisher.backoff[table.id][0] == len(REPAIR_BACKOFF) - 1  # at the cap
    warned = [r for r in caplog.records if r.levelno >= logging.WARNING and "edit failed" in r.msg]
    assert len(warned) == 1
    env.backend.faults.clear()
    await env.advance_time(600)  # the next try, at most 10 minutes on, shows the state
    assert shown(table_message(thread, table)) == fresh_render(env, table)
    assert not env.bot.publisher.dirty and not env.bot.publisher.backoff


async def test_a_locked_thread_pauses_the_table_until_unlocked(simcord_env):
    env = simcord_env
    _guild, thread, (alice, _bob), table = await classic_in_play(env)
    version = table.version
    set_thread(env, thread, archived=False, locked=True)  # a moderator locks it
    await env.advance_time(1)
    assert t("table.thread.locked", "en") in embed_text(table_message(thread, table))
    await env.advance_time(5 * TURN)  # no timer runs: alice's turn never times out
    assert table.version == version and table.is_open
    # archived while locked: a move's edit meets the archive, and the bot does not reopen
    # the thread (the lock stays); the message catches up once it is unlocked
    set_thread(env, thread, archived=True, locked=True)
    res = await alice.member.slash(thread, "stand")
    assert table.version == version + 1
    assert [f.content for f in res.followups] == [t("move.render_later", "en")]
    await env.advance_time(600)
    assert thread_state(env, thread.id) == (True, True)
    assert not requests(env, "PATCH", f"/channels/{thread.id}")
    assert table.version == version + 1  # bob's turn does not time out either
    # unlocked: the table resumes, its turn timer in full from now
    set_thread(env, thread, archived=False, locked=False)
    await env.advance_time(1)
    assert shown(table_message(thread, table)) == fresh_render(env, table)  # no note
    await env.advance_time(TURN - 5)
    assert table.version == version + 1
    await env.advance_time(10)
    assert table.version > version + 1  # bob's turn timed out
    await assert_audit_clean(env.bot.db)


async def test_a_forum_that_requires_a_tag_gets_the_hosts_or_its_first(simcord_env):
    env = simcord_env
    guild = env.create_guild()
    lobby = guild.create_text_channel("casino")
    forum = tagged_forum(env, guild, "tables", ["Black Jack", "Poker"], require=True)
    bare = tagged_forum(env, guild, "bare", [], require=True)
    alice, bob, carol = add_players(env, guild, "alice", "bob", "carol")
    tags = {tag["name"]: int(tag["id"]) for tag in env.backend.channels[forum.id].available_tags}
    choices = await alice.member.autocomplete(
        lobby, "table open", "tag", "po", game="blackjack", where=forum
    )
    assert [c["value"] for c in choices] == ["Poker"]

    await alice.member.slash(lobby, "table open", game="blackjack", where=forum)
    first = env.backend.channels[thread_of(forum).id]
    assert first.applied_tags == [tags["Black Jack"]]  # none picked: the forum's first
    await bob.member.slash(lobby, "table open", game="blackjack", where=forum, tag="poker")
    assert env.backend.channels[thread_of(forum).id].applied_tags == [tags["Poker"]]

    posts = len(forum.threads)
    res = await carol.member.slash(lobby, "table open", game="blackjack", where=forum, tag="Chess")
    assert res.ephemeral and res.response.content == t(
        "table.thread.unknown_tag",
        "en",
        where=f"<#{forum.id}>",
        tag="Chess",
        tags="`Black Jack`, `Poker`",
    )
    res = await carol.member.slash(lobby, "table open", game="blackjack", where=bare)
    assert res.response.content == t("table.thread.no_tag", "en", where=f"<#{bare.id}>")
    res = await carol.member.slash(lobby, "table open", game="blackjack", tag="Poker")
    assert res.response.content == t("table.thread.tag_not_forum", "en", tag="Poker")
    assert len(forum.threads) == posts and bare.threads == [] and lobby.threads == []
    assert len(service(env).open_tables()) == 2


async def test_embed_links_taken_away_is_told_to_the_host_and_repaired(simcord_env):
    env = simcord_env
    _guild, thread, (alice, bob), table = await classic_in_play(env)
    dms = len(alice.dms())
    deny_bot(env, table.parent_id, "embed_links")  # an admin's role change
    res = await alice.member.slash(thread, "stand")  # Discord edits, without the embed
    assert [f.content for f in res.followups] == [t("move.render_later", "en")]
    told = [m.content for m in alice.dms()[dms:]]
    assert told == [
        t(
            "table.blocked_host",
            "en",
            game="Black Jack",
            where=f"<#{thread.id}>",
            perms="“Embed Links”",
        )
    ]
    await bob.member.slash(thread, "stand")  # still without: the host is not told again
    assert len(alice.dms()) == dms + 1
    undeny_bot(env, table.parent_id)
    await env.advance_time(60)  # the next try after the backoff shows the table again
    assert shown(table_message(thread, table)) == fresh_render(env, table)
    assert not env.bot.publisher.dirty and not env.bot.publisher.blocked


async def test_a_thread_locked_across_a_restart_stays_paused(simcord_env, db_path):
    env = simcord_env
    _guild, thread, _players, _table = await classic_in_play(env)
    set_thread(env, thread, archived=False, locked=True)
    await restart(env, db_path)  # the new process learns the lock from its cache
    live = service(env).table_in(thread.id)
    assert live is not None
    version = live.version
    await env.advance_time(5 * TURN)
    assert live.version == version and live.is_open
    assert t("table.thread.locked", "en") in embed_text(table_message(thread, live))
    set_thread(env, thread, archived=False, locked=False)
    await env.advance_time(TURN + 1)
    assert live.version > version  # resumed: alice's turn timed out
