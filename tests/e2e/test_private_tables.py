"""Private tables end to end: ``/table open private:True`` in a private thread when the bot
may create one (Create Private Threads), else in a public thread whose seats only invited
members take; ``/table invite`` / ``uninvite`` (host only); hidden from strangers' lobby;
strangers' clicks refused; the invites survive a restart; bad input."""

from __future__ import annotations

import discord
import pytest

from bot.discord import perms
from bot.i18n import t
from tests.e2e.discord_rules import exact_permissions
from tests.e2e.helpers import add_players, embed_text, service, table_message, table_of, thread_of
from tests.e2e.recovery_helpers import restart
from tests.sql import fetchall


@pytest.fixture
def db_path(database_url: str) -> str:
    """This module runs on both databases (tests/conftest.py ``database_url``)."""
    return database_url


PRIVATE_BIT = discord.Permissions(create_private_threads=True).value


async def test_private_thread_invites_and_a_strangers_lobby(simcord_env):
    env = simcord_env
    guild = env.create_guild()
    casino = guild.create_text_channel("casino")
    host, bob, carol, dave = add_players(env, guild, "host", "bob", "carol", "dave")
    exact_permissions(env, guild, perms.invite_value())
    res = await host.member.slash(casino, "table open", game="blackjack", private=True)
    assert res.ephemeral, res.response
    thread = thread_of(casino)
    opened = res.followups[-1].content if res.followups else res.response.content
    assert opened.endswith(t("table.opened_private", "en"))
    assert env.backend.channels[thread.id].type == discord.ChannelType.private_thread.value
    members = env.backend.channels[thread.id].thread_members
    assert host.id in members and bob.id not in members
    table = table_of(env, thread)
    assert table.settings.private

    # strangers: not in their lobby, a refusal at /table join
    lobby = await bob.member.slash(casino, "table list")
    assert lobby.response.content == t("lobby.empty", "en")
    mine = await host.member.slash(casino, "table list")
    assert "🔒" in embed_text(mine.response.message)

    invited = await host.member.slash(thread, "table invite", member=bob.member)
    assert invited.response.content == t(
        "table.invite.done", "en", player="bob", where=f"<#{thread.id}>"
    )
    assert bob.id in env.backend.channels[thread.id].thread_members  # he sees the thread now
    rows = await fetchall(env.bot.db, "SELECT table_id, user_id FROM table_invites")
    assert [tuple(r) for r in rows] == [(table.id, bob.id)]
    seen = await bob.member.slash(casino, "table list")
    assert "Join 1" in [c.label for row in seen.response.message.components for c in row.children]
    shown = await bob.member.click(seen.response.message, label="Join 1")
    field = shown.modal["components"][0]["components"][0]["custom_id"]
    joined = await bob.member.submit_modal(shown, {field: ""})  # the default buy-in
    assert joined.response.content == t("lobby.joined", "en", where=f"<#{thread.id}>")
    assert bob.id in table.game.seated()

    # the host invites carol, then takes it back before she sits: out of the thread too,
    # and the lobby she listed meanwhile refuses her click
    await host.member.slash(thread, "table invite", member=carol.member)
    hers = await carol.member.slash(casino, "table list")
    back = await host.member.slash(thread, "table uninvite", member=carol.member)
    assert back.response.content == t("table.uninvite.done", "en", player="carol")
    assert carol.id not in env.backend.channels[thread.id].thread_members
    late = await carol.member.click(hers.response.message, label="Join 1")
    assert late.response.content == t("table.error.private_not_invited", "en")
    assert carol.id not in table.game.seated()
    # bob, seated, is uninvited: he keeps his seat (and the thread) and is told so
    back = await host.member.slash(thread, "table uninvite", member=bob.member)
    assert back.response.content == t("table.uninvite.seated", "en", player="bob")
    assert bob.id in table.game.seated()
    assert bob.id in env.backend.channels[thread.id].thread_members

    # bad input: changes nothing
    not_host = await bob.member.slash(thread, "table invite", member=dave.member)
    assert not_host.response.content == t("table.error.invite_not_host", "en")
    again = await host.member.slash(thread, "table uninvite", member=carol.member)
    assert again.response.content == t("table.error.not_invited", "en", player="carol")
    self_invite = await host.member.slash(thread, "table invite", member=host.member)
    assert self_invite.response.content == t("table.error.invite_self", "en", player="host")
    await host.member.slash(thread, "table invite", member=dave.member)
    twice = await host.member.slash(thread, "table invite", member=dave.member)
    assert twice.response.content == t("table.error.already_invited", "en", player="dave")
    rows = await fetchall(env.bot.db, "SELECT user_id FROM table_invites")
    assert [r[0] for r in rows] == [dave.id]


async def test_without_private_threads_a_public_thread_with_invited_seats(simcord_env, db_path):
    env = simcord_env
    guild = env.create_guild()
    casino = guild.create_text_channel("casino")
    host, bob, carol = add_players(env, guild, "host", "bob", "carol")
    exact_permissions(env, guild, perms.invite_value() & ~PRIVATE_BIT)
    await host.member.slash(casino, "table open", game="blackjack", private=True)
    thread = thread_of(casino)
    assert env.backend.channels[thread.id].type == discord.ChannelType.public_thread.value
    table = table_of(env, thread)
    # a stranger sees the thread but may not sit: by the table's button or the command
    click = await carol.member.click(table_message(thread, table), label="Join")
    assert click.ephemeral
    assert click.response.content == t("table.error.private_not_invited", "en")
    slash = await carol.member.slash(thread, "table join", buy_in=50)
    assert slash.response.content == t("table.error.private_not_invited", "en")
    assert carol.id not in table.game.seated()
    assert (await carol.member.slash(casino, "table list")).response.content == t(
        "lobby.empty", "en"
    )

    await host.member.slash(thread, "table invite", member=bob.member)
    # the invites are in the database: a restart keeps them
    await restart(env, db_path)
    table = table_of(env, thread)
    joined = await bob.member.slash(thread, "table join", buy_in=50)
    assert joined.response.content == t("move.done.join", "en")
    assert bob.id in table.game.seated()
    refused = await carol.member.slash(thread, "table join", buy_in=50)
    assert refused.response.content == t("table.error.private_not_invited", "en")
    # an open table takes no invites
    public = guild.create_text_channel("public")
    await carol.member.slash(public, "table open", game="blackjack")
    open_thread = thread_of(public)
    res = await carol.member.slash(open_thread, "table invite", member=bob.member)
    assert res.response.content == t("table.error.not_private", "en")
    assert service(env).table_in(open_thread.id) is not None


async def test_private_table_texts_in_french(simcord_env):
    env = simcord_env
    guild = env.create_guild()
    casino = guild.create_text_channel("casino")
    host, bob = add_players(env, guild, "host", "bob")
    exact_permissions(env, guild, perms.invite_value() & ~PRIVATE_BIT)  # a public thread
    await host.member.slash(casino, "table open", game="blackjack", private=True)
    thread = thread_of(casino)
    await bob.member.slash(casino, "language", language="fr")
    refused = await bob.member.slash(thread, "table join")
    assert refused.response.content == t("table.error.private_not_invited", "fr")
    assert "privée" in refused.response.content


async def test_a_private_table_in_a_forum_is_a_public_post_with_invited_seats(simcord_env):
    env = simcord_env
    guild = env.create_guild()
    forum = guild.create_forum_channel("tables")
    host, bob = add_players(env, guild, "host", "bob")
    res = await host.member.slash(forum, "table open", game="blackjack", private=True)
    assert res.ephemeral
    post = thread_of(forum)
    assert env.backend.channels[post.id].type == discord.ChannelType.public_thread.value
    table = table_of(env, post)
    refused = await bob.member.click(table_message(post, table), label="Join")
    assert refused.response.content == t("table.error.private_not_invited", "en")
    await host.member.slash(post, "table invite", member=bob.member)
    await bob.member.click(table_message(post, table), label="Join")
    assert bob.id in table.game.seated()
