"""Faults and abuse (issue 26): a permission error, a failed first message, a failed
deadline, a crashing button, a deleted thread: no table is stuck, closed by mistake or
leaking money because something failed."""

from __future__ import annotations

from typing import Any

import discord
from simcord.backend.models.channel import Overwrite
from simcord.enums import OverwriteType

from bot.engine.base import Phase
from bot.i18n import t
from tests.bank_audit import assert_audit_clean
from tests.e2e.helpers import service, table_message
from tests.e2e.recovery_helpers import fresh_render, shown
from tests.e2e.test_outages import classic_in_play
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
    assert res.ephemeral and res.response.content == t("move.done.ok", "en")
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
