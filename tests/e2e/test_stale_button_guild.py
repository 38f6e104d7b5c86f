"""A button naming another server's table (an ephemeral kept across ``import-sqlite``,
which renumbers the tables) is refused with the closed-table sentence and plays nothing."""

from __future__ import annotations

import discord

from bot.discord.publisher import table_link
from bot.i18n import t
from cogs.tables.moves import MoveButton
from tests.e2e.helpers import table_message, table_of, thread_of


async def test_a_button_naming_another_servers_table_is_refused(simcord_env):
    env = simcord_env
    here, there = env.create_guild(), env.create_guild()
    alice = env.create_user("alice")
    bob = env.create_user("bob")
    alice_here, alice_there = here.add_member(alice), there.add_member(alice)
    bob_here = here.add_member(bob)
    lobby_here = here.create_text_channel("casino")
    lobby_there = there.create_text_channel("casino")
    await bob_here.slash(lobby_here, "table open", game="blackjack")
    await alice_there.slash(lobby_there, "table open", game="blackjack")
    thread_here = thread_of(lobby_here)
    mine, theirs = table_of(env, thread_here), table_of(env, thread_of(lobby_there))
    assert theirs.guild_id != mine.guild_id and theirs.host_id == alice.id

    # the stale button: in this server's thread, it names the other server's table (whose
    # host alice is: played from there, her click would start its round)
    view = discord.ui.View()
    view.add_item(MoveButton(theirs.id, theirs.version, "start", label="Start"))
    channel = env.bot.get_channel(thread_here.id)
    stale = await channel.send("an old view", view=view)
    before = (theirs.version, theirs.game.phase)
    res = await alice_here.click(stale, label="Start")
    assert res.ephemeral and res.response.content == t("table.error.closed", "en")
    assert (theirs.version, theirs.game.phase) == before
    # the same button in the table's own server, on a message that is not the table's:
    # refused with the link to the table message; there it plays
    thread_there = env.bot.get_channel(theirs.channel_id)
    fresh = await thread_there.send("a view", view=view)
    res = await alice_there.click(fresh, label="Start")
    assert res.response.content == t("table.error.old_message", "en", link=table_link(theirs))
    assert (theirs.version, theirs.game.phase) == before
    await alice_there.click(table_message(thread_of(lobby_there), theirs), label="Start")
    assert theirs.version == before[0] + 1 and theirs.game.phase != before[1]
