"""Faults and abuse (issue 26): a permission error, a failed first message, a failed
deadline, a crashing button, a deleted thread: no table is stuck, closed by mistake or
leaking money because something failed."""

from __future__ import annotations

import re
import sqlite3
from typing import Any

import discord
from simcord.backend.models.channel import Overwrite
from simcord.enums import OverwriteType

from bot.engine.base import Phase
from bot.i18n import t
from tests.bank_audit import assert_audit_clean
from tests.e2e.helpers import add_players, service, table_message, table_of, thread_of
from tests.e2e.recovery_helpers import click_move, fresh_render, shown
from tests.e2e.test_outages import assert_closed_with_refunds, classic_in_play
from tests.sql import fetchone

REPAIR = 16  # seconds: a little more than the repair period of the timer loop


def deny_bot(env: Any, channel_id: int, *names: str) -> None:
    """An admin takes permissions away from the bot in a channel (and its threads)."""
    deny = discord.Permissions(**dict.fromkeys(names, True)).value
    overwrite = Overwrite(target_id=env.backend.bot_user.id, type=OverwriteType.MEMBER, deny=deny)
    env.backend.set_overwrite(channel_id, overwrite)


def undeny_bot(env: Any, channel_id: int) -> None:
    """The admin puts the bot's permissions back."""
    env.backend.delete_overwrite(channel_id, env.backend.bot_user.id)


def dm_texts(player: Any) -> list[str]:
    return [m.content or "" for m in player.dms()]


async def test_a_permission_error_keeps_the_table_and_tells_the_host_once(simcord_env, db_path):
    env = simcord_env
    _guild, thread, (alice, bob), table = await classic_in_play(env)
    lobby_id = table.parent_id
    version, dms_before = table.version, len(alice.dms())
    deny_bot(env, lobby_id, "view_channel")  # a role change: the bot sees nothing there
    res = await alice.member.slash(thread, "stand")  # committed; the edit gets a 403
    assert res.ephemeral and res.response.content == t("answer.stand", "en")
    assert [f.content for f in res.followups] == [t("move.render_later", "en")]
    live = service(env).table_in(thread.id)
    assert live is table and table.is_open and table.version == version + 1
    assert table.game.phase is Phase.PLAYING  # bets stand: nothing refunded mid-round
    told = dm_texts(alice)[dms_before:]
    assert told == [
        t(
            "table.blocked_host",
            "en",
            game="Black Jack",
            where=f"<#{thread.id}>",
            perms="“View Channel”",
        )
    ]
    await bob.member.slash(thread, "stand")  # still blocked: the host is not told again
    await env.advance_time(REPAIR)  # a retry, still refused
    assert len(dm_texts(alice)) == dms_before + 1
    assert table.is_open
    undeny_bot(env, lobby_id)
    await env.advance_time(60)  # the next retry after the backoff shows the state
    assert shown(table_message(thread, table)) == fresh_render(env, table)
    assert not env.bot.publisher.dirty and not env.bot.publisher.blocked
    row = await fetchone(env.bot.db, "SELECT status FROM tables WHERE id = ?", (table.id,))
    assert row[0] == "open"
    await assert_audit_clean(env.bot.db)


async def test_opening_is_all_or_nothing_when_the_first_message_fails(simcord_env, db_path):
    env = simcord_env
    guild = env.create_guild()
    lobby = guild.create_text_channel("casino")
    (alice,) = add_players(env, guild, "alice")
    env.inject_error("POST", "/channels/*/messages", status=500, times=None)  # an outage
    res = await alice.member.slash(lobby, "table open", game="blackjack")
    assert res.followups == [] and res.ephemeral  # one sentence: the deferred answer
    error = "Internal Server Error (injected by test)"  # what Discord answered
    assert res.response.content == t("table.error.post_failed", "en", error=error)
    assert (await fetchone(env.bot.db, "SELECT COUNT(*) FROM tables"))[0] == 0
    assert lobby.threads == []  # the thread made for it is deleted
    assert service(env).open_tables() == []
    bank = env.bot.bank
    assert await bank.claims(guild.id) == []
    assert not await bank.has_account(guild.id, alice.id)  # nothing taken, no seat bought
    env.backend.faults.clear()  # Discord is back: the same thread name can open a table
    await alice.member.slash(lobby, "table open", game="blackjack")
    table = table_of(env, thread_of(lobby))
    message = table_message(thread_of(lobby), table)
    assert shown(message) == fresh_render(env, table)
    await assert_audit_clean(env.bot.db)


def fail_writes(env: Any, times: int) -> list[str]:
    """The next ``times`` database writes fail as a lost disk would (nothing committed);
    the list records each failure."""
    db = env.bot.db
    real = db.write
    failures: list[str] = []

    async def write(fn: Any, *args: Any, **kwargs: Any) -> Any:
        if len(failures) < times:
            failures.append(getattr(fn, "__name__", "?"))
            raise sqlite3.OperationalError("disk I/O error (injected by test)")
        return await real(fn, *args, **kwargs)

    db.write = write
    return failures


async def test_a_deadline_whose_firing_failed_is_tried_again_until_it_fires(simcord_env, db_path):
    env = simcord_env
    _guild, thread, (alice, bob), table = await classic_in_play(env)
    assert table.game.to_act == alice.id
    version = table.version
    failures = fail_writes(env, 3)  # the deadline's firing and its first two retries
    await env.advance_time(91)  # alice's turn timer (90 s) is due: its write fails
    assert failures and set(failures) == {"_write_move"} and table.version == version
    assert table.game.to_act == alice.id  # put back from the committed row
    await env.advance_time(10)  # retried after 1, 2 then 5 s: the third retry fires
    assert len(failures) == 3
    assert table.version == version + 1 and table.game.to_act == bob.id
    await env.advance_time(REPAIR)
    assert shown(table_message(thread, table)) == fresh_render(env, table)
    assert not env.bot.scheduler.retries
    await assert_audit_clean(env.bot.db)


def unexpected_ref(text: str) -> str:
    """The reference of a "Something went wrong" answer (it fails on any other text)."""
    found = re.fullmatch(
        re.escape(t("error.unexpected", "en", ref="@@")).replace("@@", "(\\w+)"), text
    )
    assert found, text
    return found[1]


async def test_a_failing_button_or_modal_answers_like_a_slash_command(simcord_env, db_path, caplog):
    env = simcord_env
    _guild, thread, (alice, bob), table = await classic_in_play(env, bets=False)
    version = table.version
    fail_writes(env, 1)  # the click's move cannot be stored: an unexpected error
    res = await click_move(alice.member, table_message(thread, table), "bet:20")
    assert res.ephemeral
    ref = unexpected_ref(res.response.content)
    assert any(ref in r.getMessage() and r.exc_info for r in caplog.records)  # the same ref
    assert table.version == version  # nothing changed: the table is playable
    other = await bob.member.click(table_message(thread, table), label="Other amount…")
    field = other.modal["components"][0]["components"][0]["custom_id"]
    fail_writes(env, 1)
    res = await bob.member.submit_modal(other, {field: "15"})
    assert res.ephemeral
    assert unexpected_ref(res.response.content) != ref
    # SimCord saw the modal's error reach Modal.on_error (where the answer comes from)
    assert [type(e) for e in env.errors] == [sqlite3.OperationalError]
    assert table.version == version
    await click_move(alice.member, table_message(thread, table), "bet:20")
    await click_move(bob.member, table_message(thread, table), "bet:10")
    assert table.game.phase is Phase.PLAYING
    await assert_audit_clean(env.bot.db)


async def test_a_deleted_thread_or_channel_closes_its_table_at_once(simcord_env, db_path):
    env = simcord_env
    guild, thread, (alice, bob), table = await classic_in_play(env)
    await bob.member.slash(thread, "language", language="fr")
    env.backend.delete_channel(thread.id)  # a moderator deletes the thread mid-round
    await env.advance_time(1)  # no deadline is due yet (90 s): the deletion itself closes it
    assert service(env).table_in(thread.id) is None
    await assert_closed_with_refunds(env, table, {alice.id: 200, bob.id: 100})
    assert alice.dms()[-1].content == t(
        "table.gone_dm", "en", game="Black Jack", id=table.id, amount="200\u00a0flouz"
    )
    assert bob.dms()[-1].content == t(
        "table.gone_dm", "fr", game="Black Jack", id=table.id, amount="100\u00a0flouz"
    )
    # a table living in a channel itself (here:True), and the channel is deleted
    casino = guild.create_text_channel("casino-2")
    await alice.member.slash(casino, "table open", game="blackjack", here=True)
    other = table_of(env, casino)
    env.backend.delete_channel(casino.id)
    await env.advance_time(1)
    assert service(env).table_in(casino.id) is None and not other.is_open
    # the channel a table's thread hangs from is deleted (its threads go with it)
    lobby = guild.create_text_channel("casino-3")
    await alice.member.slash(lobby, "table open", game="blackjack")
    third = table_of(env, thread_of(lobby))
    env.backend.delete_channel(lobby.id)
    await env.advance_time(1)
    assert not third.is_open and service(env).open_tables() == []
    await assert_audit_clean(env.bot.db)


async def test_a_table_opens_only_where_the_member_and_the_bot_could_post(simcord_env, db_path):
    env = simcord_env
    guild = env.create_guild()
    lobby = guild.create_text_channel("casino")
    alice, bob = add_players(env, guild, "alice", "bob")
    mods = guild.create_role("mods")
    read_only = discord.PermissionOverwrite(send_messages=False, create_public_threads=False)
    news = guild.create_text_channel(
        "announcements",
        overwrites={
            guild.roles["@everyone"]: read_only,
            mods: discord.PermissionOverwrite(send_messages=True, create_public_threads=True),
            guild.me: discord.PermissionOverwrite(send_messages=True, create_public_threads=True),
        },
    )
    await alice.member.slash(lobby, "language", language="fr")
    res = await alice.member.slash(lobby, "table open", game="blackjack", where=news)
    names = "«\u00a0Créer des fils publics\u00a0»"
    assert res.ephemeral and res.response.content == t(
        "table.error.member_missing", "fr", where=f"<#{news.id}>", perms=names
    )
    res = await alice.member.slash(news, "table open", game="blackjack", here=True)
    assert res.response.content == t(
        "table.error.member_missing",
        "fr",
        where=f"<#{news.id}>",
        perms="«\u00a0Envoyer des messages\u00a0»",
    )
    assert news.threads == [] and service(env).open_tables() == []
    assert [m for m in news.history()] == []  # the bot posted nothing there
    # the bot's own permissions come first, every one it lacks named
    deny = discord.PermissionOverwrite(create_public_threads=False, send_messages_in_threads=False)
    quiet = guild.create_text_channel("quiet", overwrites={guild.me: deny})
    res = await bob.member.slash(lobby, "table open", game="blackjack", where=quiet)
    lacking = "“Create Public Threads”, “Send Messages in Threads and Posts”"
    assert res.response.content == t(
        "table.error.bot_missing", "en", where=f"<#{quiet.id}>", perms=lacking
    )
    assert quiet.threads == [] and service(env).open_tables() == []
    # a moderator, who may write there by hand, opens the table there
    moderator = guild.add_member(env.create_user("carol"), roles=[mods])
    await moderator.slash(lobby, "table open", game="blackjack", where=news)
    table = table_of(env, thread_of(news))
    assert table.host_id == moderator.id
    await assert_audit_clean(env.bot.db)
