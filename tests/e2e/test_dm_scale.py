"""DMs at scale (issue 36, point 3): past discord.py's 128 cached DM channels a DM still
costs one call (the bot keeps each player's DM channel id), and closed DMs are not tried
again every round (each 403 counts toward Discord's invalid-request ban), only at the
player's next ``/hand`` or table.

Pirate 21 deals every player two hidden cards each round; the host deals and plays last,
so the next round's deal follows her click: her cards come in its answer, the others'
by DM."""

from __future__ import annotations

from typing import Any

from bot.i18n import t
from tests.e2e.helpers import Player, add_players, answer_text, table_message, table_of, thread_of

OPEN_DM = "/users/@me/channels"


async def pirate_table(env: Any, guild: Any, players: list[Player], name: str) -> tuple[Any, Any]:
    """A Pirate 21 table in a new thread of a new channel, every player seated."""
    lobby = guild.create_text_channel(name)
    await players[0].member.slash(lobby, "table open", game="pirate21", name=name)
    thread = thread_of(lobby)
    table = table_of(env, thread)
    for p in players[1:]:
        await p.member.click(table_message(thread, table), label="Join")
    return thread, table


async def play_round(thread: Any, table: Any, players: list[Player]) -> Any:
    """Everybody stands, the host last: the round settles and the next one is dealt.
    The answer to the host's click."""
    res = None
    for p in [*players[1:], players[0]]:
        res = await p.member.click(table_message(thread, table), label="Stand")
    return res


def calls(env: Any, start: int, method: str, path: str) -> int:
    return sum(1 for r in env.http_requests[start:] if r.method == method and r.path == path)


async def test_past_128_dm_recipients_a_dm_is_one_call(simcord_env):
    env = simcord_env
    guild = env.create_guild()
    alice, bob, carol = players = add_players(env, guild, "alice", "bob", "carol")
    thread, table = await pirate_table(env, guild, players, "port")
    start = len(env.http_requests)
    res = await alice.member.click(table_message(thread, table), label="Start")
    assert calls(env, start, "POST", OPEN_DM) == 2  # bob's and carol's, opened once
    assert "(round 1)" in answer_text(res) and not alice.dms()  # the host: in her answer
    # 129 other people get a DM from the bot: discord.py's LRU of 128 DM channels drops
    # bob's and carol's (its own code, answered by SimCord)
    state = env.bot._connection
    for i in range(129):
        await env.bot.create_dm(env.create_user(f"stranger{i}"))
    assert state._get_private_channel_by_user(bob.id) is None
    assert state._get_private_channel_by_user(carol.id) is None
    start = len(env.http_requests)
    res = await play_round(thread, table, players)
    assert "(round 2)" in bob.dms()[-1].content and "(round 2)" in carol.dms()[-1].content
    assert calls(env, start, "POST", OPEN_DM) == 0  # no DM channel opened again
    for p in (bob, carol):  # one call for each DM
        assert calls(env, start, "POST", f"/channels/{p.user.dm_channel.id}/messages") == 1
    assert "(round 2)" in answer_text(res)
    assert not alice.dms()


async def test_closed_dms_are_not_tried_every_round(simcord_env):
    env = simcord_env
    guild = env.create_guild()
    alice, bob, carol = players = add_players(env, guild, "alice", "bob", "carol")
    thread, table = await pirate_table(env, guild, players, "port")
    closed = f"/channels/{carol.user.dm_channel.id}/messages"
    env.inject_error(
        "POST",
        closed,
        status=403,
        code=50007,
        message="Cannot send messages to this user",
        times=None,
    )
    start = len(env.http_requests)
    await alice.member.click(table_message(thread, table), label="Start")
    assert calls(env, start, "POST", closed) == 1  # refused: 403 50007
    hint = t("private.dm_closed", "en", player=f"<@{carol.id}>")
    assert [m.content for m in thread.history()].count(hint) == 1
    for rnd in (2, 3):
        await play_round(thread, table, players)
        assert f"(round {rnd})" in bob.dms()[-1].content  # bob's DMs still go out
    assert calls(env, start, "POST", closed) == 1  # carol's not tried again, no new 403
    assert [m.content for m in thread.history()].count(hint) == 1  # nor a second hint
    # her /hand shows her cards, and her DMs are tried again at the next deal
    res = await carol.member.slash(thread, "hand")
    assert res.ephemeral and "total" in res.response.content
    await play_round(thread, table, players)
    assert calls(env, start, "POST", closed) == 2
    await play_round(thread, table, players)
    assert calls(env, start, "POST", closed) == 2  # closed still: remembered again
    # a new table tries them again too
    await alice.member.slash(thread, "table close")
    thread2, table2 = await pirate_table(env, guild, [alice, carol], "cove")
    await alice.member.click(table_message(thread2, table2), label="Start")
    assert calls(env, start, "POST", closed) == 3
