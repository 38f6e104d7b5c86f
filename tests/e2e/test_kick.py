"""``/table kick`` (issue 36, point 9): the host reads whom they removed (not "You left the
table."), the removed player is told by DM, in their language, with what became of their
stack, or in the thread when their DMs are closed."""

from __future__ import annotations

from typing import Any

import pytest

from bot.i18n import t
from tests.e2e.helpers import add_players, service, table_of, thread_of
from tests.e2e.test_refusals import reply


async def blackjack(env: Any, locale: str) -> tuple[Any, Any, Any, Any]:
    """alice hosts a Black Jack table, bob sits with 100; both read ``locale``."""
    guild = env.create_guild()
    lobby = guild.create_text_channel("casino")
    alice, bob = add_players(env, guild, "alice", "bob")
    for p in (alice, bob):
        await p.member.slash(lobby, "language", language=locale)
    await alice.member.slash(lobby, "table open", game="blackjack", name="Le Tapis")
    thread = thread_of(lobby)
    table = table_of(env, thread)
    await bob.member.slash(thread, "table join", buy_in=100)
    return thread, table, alice, bob


@pytest.mark.parametrize("locale", ["en", "fr"])
async def test_the_host_reads_whom_they_removed_and_the_player_is_told(simcord_env, locale):
    env = simcord_env
    thread, table, alice, bob = await blackjack(env, locale)
    res = await alice.member.slash(thread, "table kick", player=bob.member)
    answer = reply(res)
    assert answer == t("table.kick.done", locale, player="bob")
    assert answer != t("move.done.leave_confirm", locale)
    assert bob.id not in {s.player for s in table.game.seats}
    (dm,) = bob.dms()
    title = "Black Jack — Le Tapis"
    assert dm.content.startswith(t("table.kick.dm", locale, host=f"<@{alice.id}>", table=title))
    assert f"/{thread.id}/{table.message_id}" in dm.content  # a link to the table
    assert t("move.left.stack", locale, amount=100) in dm.content  # his stack, at the bank
    claims = await service(env).bank.claims(thread.guild.id, bob.id)
    assert [c.amount for c in claims] == [100]
    assert not alice.dms()


async def test_closed_dms_are_told_in_the_thread(simcord_env):
    env = simcord_env
    thread, _table, alice, bob = await blackjack(env, "en")
    env.inject_error(
        "POST",
        f"/channels/{bob.user.dm_channel.id}/messages",
        status=403,
        code=50007,
        message="Cannot send messages to this user",
    )
    start = len(env.http_requests)
    res = await alice.member.slash(thread, "table kick", player=bob.member)
    assert reply(res) == t("table.kick.done", "en", player="bob")
    notice = t("table.kick.thread", "en", player=f"<@{bob.id}>", host=f"<@{alice.id}>")
    assert notice in [m.content for m in thread.history()]
    (sent,) = [r for r in env.http_requests[start:] if (r.json or {}).get("content") == notice]
    assert sent.json["allowed_mentions"]["users"] == [bob.id]  # bob alone is pinged
    assert not bob.dms()


async def test_kicking_oneself_is_a_leave(simcord_env):
    env = simcord_env
    thread, table, alice, bob = await blackjack(env, "en")
    res = await alice.member.slash(thread, "table kick", player=alice.member)
    answer = reply(res)  # what /table leave says: her own stack, at the bank
    assert answer.startswith("You left the table: your stack of"), answer
    assert alice.id not in {s.player for s in table.game.seats}
    assert not alice.dms() and not bob.dms()
