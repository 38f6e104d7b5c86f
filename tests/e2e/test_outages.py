"""Discord outages and lost tables: a failed REST call never loses or repeats a committed
move; a table whose thread or message is gone is closed with refunds; old buttons get an
ephemeral explanation and change nothing."""

from __future__ import annotations

from typing import Any

import discord

from bot.engine.base import Phase
from bot.i18n import t
from tests.bank.ledger import table_escrow
from tests.bank_audit import assert_audit_clean
from tests.e2e.helpers import add_players, embed_text, service, table_message, table_of, thread_of
from tests.e2e.recovery_helpers import (
    click_move,
    escrow_seats,
    fresh_render,
    move_buttons,
    restart,
    shown,
    stacks,
)
from tests.e2e.test_restart import play_round
from tests.sql import fetchall, fetchone

REPAIR = 16  # seconds: a little more than the repair period of the timer loop


async def bank_channel(env: Any, guild: Any) -> Any:
    """The guild's bank channel, set up by a server manager with /bank setup."""
    channel = guild.create_text_channel("bank")
    role = guild.create_role("managers", permissions=discord.Permissions(manage_guild=True))
    boss = guild.add_member(env.create_user("boss"), roles=[role])
    res = await boss.slash(channel, "bank setup", channel=channel)
    assert res.followups or res.response, "no answer to /bank setup"
    return channel


def gone_entries(channel: Any, table: Any) -> list[str]:
    """The bank channel's entries about a lost table."""
    return [
        m.content
        for m in channel.history()
        if f"#{table.id}" in (m.content or "") and "refunded" in (m.content or "")
    ]


async def classic_in_play(
    env: Any, bets: bool = True, options: str | None = None
) -> tuple[Any, Any, list[Any], Any]:
    """A classic table in a thread, alice and bob seated, round 1 started (bets placed)."""
    guild = env.create_guild()
    lobby = guild.create_text_channel("casino")
    players = add_players(env, guild, "alice", "bob")
    alice, bob = players
    extra = {"options": options} if options else {}
    await alice.member.slash(lobby, "table open", game="blackjack", **extra)
    thread = thread_of(lobby)
    table = table_of(env, thread)
    await bob.member.slash(thread, "table join", buy_in=100)
    table.game.rig(["TS", "9H", "5C", "TD", "8S", "7H", "6D", "KC", "7D", "5S"])  # type: ignore[attr-defined]
    await alice.member.click(table_message(thread, table), label="Start")
    if bets:
        await click_move(alice.member, table_message(thread, table), "bet:20")
        await click_move(bob.member, table_message(thread, table), "bet:10")
        assert table.game.phase is Phase.PLAYING
    return guild, thread, players, table


async def assert_closed_with_refunds(env: Any, table: Any, before: dict[int, int]) -> None:
    """Closed in the database; each player's claim is their stack plus their refunded bet."""
    row = await fetchone(env.bot.db, "SELECT status FROM tables WHERE id = ?", (table.id,))
    assert row[0] == "closed"
    bank = service(env).bank
    claims: dict[int, int] = {}
    for c in await bank.claims(table.guild_id):
        claims[c.user_id] = claims.get(c.user_id, 0) + c.amount
    assert claims == before
    assert await escrow_seats(bank, table) == {}
    assert (await table_escrow(bank.db, table.guild_id, table.id)).get("pot", 0) == 0
    await assert_audit_clean(env.bot.db)


async def test_a_deleted_thread_closes_the_table_at_the_next_restart(
    simcord_env, db_path, leak_scan
):
    env = simcord_env
    guild, thread, (alice, bob), table = await classic_in_play(env)
    leak_scan.check_table(table)  # before the thread (and the cards it shows) is gone
    bank = await bank_channel(env, guild)
    owed = {alice.id: 200, bob.id: 100}  # stacks 180 and 90 plus the bets of the round
    env.backend.delete_channel(thread.id)
    await restart(env, db_path)
    assert service(env).table_in(thread.id) is None  # closed by on_ready
    await assert_closed_with_refunds(env, table, owed)
    assert len(gone_entries(bank, table)) == 1


async def test_a_deleted_thread_closes_the_table_at_the_next_render(
    simcord_env, db_path, leak_scan
):
    env = simcord_env
    guild, thread, (alice, bob), table = await classic_in_play(env)
    leak_scan.check_table(table)  # before the thread (and the cards it shows) is gone
    bank = await bank_channel(env, guild)
    env.backend.delete_channel(thread.id)
    await env.advance_time(200)  # alice's turn times out: the render finds no thread
    assert service(env).table_in(thread.id) is None
    await assert_closed_with_refunds(env, table, {alice.id: 200, bob.id: 100})
    assert len(gone_entries(bank, table)) == 1


async def test_a_deleted_table_message_is_posted_again(simcord_env, db_path, leak_scan):
    env = simcord_env
    _guild, thread, (alice, bob), table = await classic_in_play(env)
    leak_scan.check_table(table)
    old_id = table.message_id
    env.backend.delete_message(thread.id, old_id)
    res = await alice.member.slash(thread, "stand")  # committed, then the render 404s
    assert res.ephemeral and res.followups == []  # posted again at once: nothing to follow
    assert service(env).table_in(thread.id) is table and table.is_open
    assert table.message_id not in (None, old_id)  # the new message, stored
    row = await fetchone(env.bot.db, "SELECT message_id FROM tables WHERE id = ?", (table.id,))
    assert row[0] == table.message_id
    assert shown(table_message(thread, table)) == fresh_render(env, table)
    version = table.version
    await click_move(bob.member, table_message(thread, table), "stand")  # the round goes on
    assert table.version > version and table.is_open
    await assert_audit_clean(env.bot.db)


async def test_injected_5xx_and_429_lose_and_repeat_nothing(simcord_env, db_path):
    env = simcord_env
    _guild, thread, (alice, bob), table = await classic_in_play(env, bets=False)
    edits = f"/channels/{thread.id}/messages/*"
    # a button click whose interaction answer fails: the move is committed all the same
    env.inject_error("POST", "/interactions/*", status=500, times=1)
    v = table.version
    await click_move(alice.member, table_message(thread, table), "bet:20")
    assert table.version == v + 1 and table.game.public_view().seats[0].bet == 20
    # the REST edit of the table message fails too (500 then 429): bob's slash bet commits,
    # he is answered, then told the message will follow; the message lags behind the state
    env.inject_error("PATCH", edits, status=500, times=1)
    env.inject_error("PATCH", edits, status=429, message="You are being rate limited.", times=1)
    res = await bob.member.slash(thread, "bet", amount=10)
    assert res.ephemeral and res.response.content.startswith("Bet placed: 10.")
    assert [(f.content, f.ephemeral) for f in res.followups] == [
        (t("move.render_later", "en"), True)
    ]
    assert table.game.phase is Phase.PLAYING and table.version == v + 2
    assert shown(table_message(thread, table)) != fresh_render(env, table)
    await env.advance_time(REPAIR)  # the repair pass
    assert shown(table_message(thread, table)) == fresh_render(env, table)
    # errors on every kind of call for a while: the round still completes exactly once
    env.inject_error("POST", "/interactions/*", status=503, times=2)
    env.inject_error("PATCH", edits, status=500, times=3)
    env.inject_error("POST", "/channels/*/messages", status=429, times=1)
    await play_round(env, thread, [alice, bob], table)
    await env.advance_time(REPAIR)
    assert shown(table_message(thread, table)) == fresh_render(env, table)
    actions = await fetchall(
        env.bot.db,
        "SELECT version FROM table_actions WHERE table_id = ? ORDER BY version",
        (table.id,),
    )
    assert [r[0] for r in actions] == list(range(1, table.version + 1))  # one row per version
    keys = await fetchone(env.bot.db, "SELECT COUNT(*), COUNT(DISTINCT idem_key) FROM bank_entries")
    assert keys[0] == keys[1]
    expected = {p: s for p, s in stacks(table).items() if s}
    assert await escrow_seats(service(env).bank, table) == expected
    await assert_audit_clean(env.bot.db)


async def test_private_cards_survive_failing_dms(simcord_env, db_path):
    env = simcord_env
    guild = env.create_guild()
    lobby = guild.create_text_channel("casino")
    alice, bob, carol = add_players(env, guild, "alice", "bob", "carol")
    await alice.member.slash(lobby, "table open", game="sept_et_demi", options="rounds=2")
    thread = thread_of(lobby)
    table = table_of(env, thread)
    for p in (bob, carol):
        await p.member.slash(thread, "table join")
    env.inject_error("POST", "/channels/*/messages", status=500, times=4)
    env.inject_error("POST", "/users/@me/channels", status=429, times=1)
    await alice.member.click(table_message(thread, table), label="Start")
    await play_round(env, thread, [alice, bob, carol], table)
    await env.advance_time(REPAIR)
    live = service(env).table_in(thread.id)
    if live is not None:
        assert shown(table_message(thread, live)) == fresh_render(env, live)
        hand = await bob.member.slash(thread, "hand")
        assert hand.ephemeral
    await assert_audit_clean(env.bot.db)


async def test_old_buttons_after_close_and_after_the_round(simcord_env, db_path):
    env = simcord_env
    _guild, thread, (alice, bob), table = await classic_in_play(env)
    # alice stands; bob's last move ends the round, but its render fails everywhere: the
    # message still shows round 1 while round 2 is already taking bets
    await click_move(alice.member, table_message(thread, table), "stand")
    env.inject_error("POST", "/interactions/*", status=500, times=2)
    env.inject_error("PATCH", f"/channels/{thread.id}/messages/*", status=500, times=1)
    old_id = table.message_id
    await click_move(bob.member, table_message(thread, table), "stand")
    assert table.game.round == 2  # type: ignore[attr-defined]
    # the old table message kept round 1's buttons; round 2 has a new one below it
    stale = next(m for m in thread.history() if m.id == old_id)
    assert "stand" in move_buttons(stale)
    version = table.version
    res = await click_move(alice.member, stale, "stand")  # a button of the settled round
    assert res.ephemeral and "table goes on in its new message" in res.response.content
    assert table.version == version
    await env.advance_time(REPAIR)
    assert shown(table_message(thread, table)) == fresh_render(env, table)
    # the host closes the table; the final render fails: the message keeps its buttons
    env.inject_error("PATCH", f"/channels/{thread.id}/messages/*", status=502, times=1)
    await alice.member.slash(thread, "table close")
    old = table_message(thread, table)
    assert move_buttons(old)
    res = await click_move(bob.member, old, "bet:10")
    assert res.ephemeral and "closed" in res.response.content
    await env.advance_time(REPAIR)  # repaired: the closed table has no buttons left
    assert move_buttons(table_message(thread, table)) == {}
    await assert_audit_clean(env.bot.db)
    assert embed_text(table_message(thread, table))
