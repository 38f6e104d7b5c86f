"""Pirate 21 privacy end to end: hidden cards never public before the showdown, a bust
indistinguishable from a stand, closed DMs (the /hand fallback) and the turn timer."""

from __future__ import annotations

import re
from typing import Any

from bot.bank.testing import assert_audit_clean
from tests.e2e.helpers import (
    add_players,
    assert_never_public,
    card_texts,
    embed_text,
    table_message,
    table_of,
    thread_of,
)

BACKS = "🂠🂠"
# bob, carol, alice (the dealer plays last): bob 19, carol 5♣ + 7♦ (bust on K♣) or
# 5♣ + 2♦ (17 on K♣), alice 16.
BUST_PILE = ["TS", "5C", "8S", "9H", "7D", "8D", "KC"]
STAND_PILE = ["TS", "5C", "8S", "9H", "2D", "8D", "KC"]


def text(thread: Any, table: Any) -> str:
    return embed_text(table_message(thread, table))


def public_state(thread: Any, table: Any) -> tuple[Any, ...]:
    """What anyone sees of a table: the table message (its table number aside), its
    buttons, and how many public messages the thread holds."""
    message = table_message(thread, table)
    (embed,) = message.embeds
    fields = [(f.name, f.value) for f in embed.fields]
    footer = re.sub(r"#\d+", "#N", embed.footer.text or "")
    buttons = [c.label for row in message.components for c in row.children]
    return embed.title, embed.description, fields, footer, buttons, len(thread.history())


async def open_in(env: Any, guild: Any, channel_name: str, players: list[Any]) -> Any:
    lobby = guild.create_text_channel(channel_name)
    await players[0].member.slash(lobby, "table open", game="pirate21", name="Twin")
    thread = thread_of(lobby)
    table = table_of(env, thread)
    for p in players[1:]:
        await p.member.slash(thread, "table join")
    return thread, table


async def test_hidden_cards_never_public_and_a_bust_looks_like_a_stand(simcord_env):
    env = simcord_env
    guild = env.create_guild()
    players = add_players(env, guild, "alice", "bob", "carol")
    alice, bob, carol = players
    bust_thread, bust_table = await open_in(env, guild, "port", players)
    stand_thread, stand_table = await open_in(env, guild, "dock", players)
    bust_table.game.rig_pile_for_tests(BUST_PILE)
    stand_table.game.rig_pile_for_tests(STAND_PILE)
    secret_bust = ["TS", "9H", "5C", "7D", "8S", "8D"]
    secret_stand = ["TS", "9H", "5C", "2D", "8S", "8D"]

    def scan() -> None:
        assert_never_public(bust_thread, secret_bust)
        assert_never_public(stand_thread, secret_stand)
        assert public_state(bust_thread, bust_table) == public_state(stand_thread, stand_table)

    for thread, table in ((bust_thread, bust_table), (stand_thread, stand_table)):
        await alice.member.click(table_message(thread, table), label="Start")
    scan()
    for thread, table in ((bust_thread, bust_table), (stand_thread, stand_table)):
        await bob.member.click(table_message(thread, table), label="Servi")
        # a look at one's own cards and at the table status stay private
        mine = await carol.member.slash(thread, "hand")
        assert mine.ephemeral and "5♣" in mine.response.content
        status = await bob.member.slash(thread, "table status")
        assert status.ephemeral
    scan()

    # carol draws K♣ at both tables: 22 (bust) at one, 17 at the other
    await carol.member.click(table_message(bust_thread, bust_table), label="Carte !")
    await carol.member.click(table_message(stand_thread, stand_table), label="Carte !")
    assert f"▶ <@{carol.id}> · 🪙 0 · {BACKS} K♣" in text(stand_thread, stand_table)
    await carol.member.click(table_message(stand_thread, stand_table), label="Servi")
    scan()  # same table message, same buttons, no extra public message
    assert f"<@{carol.id}> · 🪙 0 · {BACKS} K♣ · ✋ stands" in text(bust_thread, bust_table)
    assert f"turn: <@{alice.id}>" in text(bust_thread, bust_table)
    # only carol learns it, privately
    bust_dm, stand_dm = (m.content for m in carol.dms()[-2:])
    assert "K♣" in bust_dm and "total **22**" in bust_dm and "bust" in bust_dm
    assert "total **17**" in stand_dm and "bust" not in stand_dm
    for p in (alice, bob):
        assert all("bust" not in m.content and "K♣" not in m.content for m in p.dms())
    hand = await carol.member.click(table_message(bust_thread, bust_table), label="My cards")
    assert hand.ephemeral and "22" in hand.response.content and "Over 21" in hand.response.content
    scan()

    # the showdown turns everything up
    await alice.member.click(table_message(bust_thread, bust_table), label="Servi")
    (result,) = [m.content for m in bust_thread.history() if "Round 1 — showdown" in m.content]
    assert "5♣ 7♦ · K♣ = **22** · 💥 bust" in result
    assert all(c in result for c in card_texts(secret_bust))
    await assert_audit_clean(env.bot.db)


async def test_closed_dms_fall_back_to_hand(simcord_env):
    env = simcord_env
    guild = env.create_guild()
    lobby = guild.create_text_channel("port")
    alice, bob, carol = add_players(env, guild, "alice", "bob", "carol")
    await alice.member.slash(lobby, "table open", game="pirate21", name="Tortuga")
    thread = thread_of(lobby)
    table = table_of(env, thread)
    for p in (bob, carol):
        await p.member.click(table_message(thread, table), label="Join")
    bob_dm = bob.user.dm_channel.id
    env.inject_error(
        "POST",
        f"/channels/{bob_dm}/messages",
        status=403,
        code=50007,
        message="Cannot send messages to this user",
        times=None,
    )
    table.game.rig_pile_for_tests([*BUST_PILE, "2H", "3H", "4H", "5H", "6H", "7H", "JH"])
    await alice.member.click(table_message(thread, table), label="Start")

    # alice and carol got their cards; bob got nothing by DM but a public hint, no cards
    assert "8♠ 8♦" in alice.dms()[-1].content and "5♣ 7♦" in carol.dms()[-1].content
    assert bob.dms() == []
    hints = [m for m in thread.history() if "/hand" in m.content]
    assert len(hints) == 1 and f"<@{bob.id}>" in hints[0].content
    assert_never_public(thread, ["TS", "9H", "5C", "7D", "8S", "8D"])

    # /hand shows bob his cards, only to him
    res = await bob.member.slash(thread, "hand")
    assert res.ephemeral and "10♠ 9♥" in res.response.content and "19" in res.response.content
    # bob draws: the card comes as an ephemeral follow-up of his click
    res = await bob.member.click(table_message(thread, table), label="Carte !")
    (follow,) = res.followups
    assert follow.ephemeral and "K♣" in follow.content and "29" in follow.content
    assert "bust" in follow.content
    assert bob.dms() == []
    assert_never_public(thread, ["TS", "9H", "5C", "7D", "8S", "8D"])
    # the game goes on
    assert f"turn: <@{carol.id}>" in text(thread, table)
    await carol.member.click(table_message(thread, table), label="Servi")
    await alice.member.click(table_message(thread, table), label="Servi")
    result = [m for m in thread.history() if "Round 1 — showdown" in m.content]
    assert result and "10♠ 9♥ · K♣ = **29**" in result[0].content
    assert "round 2" in text(thread, table)
    # round 2: still no DM for bob, still no cards in public, no second hint
    assert bob.dms() == []
    assert len([m for m in thread.history() if "/hand" in m.content]) == 1
    res = await bob.member.click(table_message(thread, table), label="My cards")
    assert res.ephemeral and "2♥ 5♥" in res.response.content
    assert_never_public(thread, ["2H", "5H", "3H", "6H", "4H", "7H"])
    await assert_audit_clean(env.bot.db)


async def test_turn_timer_stands_for_a_silent_player(simcord_env):
    env = simcord_env
    guild = env.create_guild()
    lobby = guild.create_text_channel("port")
    alice, bob, carol = add_players(env, guild, "alice", "bob", "carol")
    await alice.member.slash(lobby, "table open", game="pirate21", name="Tortuga")
    thread = thread_of(lobby)
    table = table_of(env, thread)
    for p in (bob, carol):
        await p.member.click(table_message(thread, table), label="Join")
    table.game.rig_pile_for_tests([*STAND_PILE, *BUST_PILE])
    await alice.member.click(table_message(thread, table), label="Start")
    assert f"turn: <@{bob.id}>" in text(thread, table)

    await env.advance_time(60)  # the live turn timer is 90 s: nothing yet
    assert f"turn: <@{bob.id}>" in text(thread, table)
    await env.advance_time(31)
    t = text(thread, table)
    assert f"turn: <@{carol.id}>" in t
    assert f"<@{bob.id}> · 🪙 0 · {BACKS} · ✋ stands" in t
    assert f"⏰ <@{bob.id}> did not act in time: servi." in [m.content for m in thread.history()]

    # carol hits (17) then goes silent: she stands with her public card; then alice too
    await carol.member.click(table_message(thread, table), label="Carte !")
    await env.advance_time(91)
    assert f"<@{carol.id}> · 🪙 0 · {BACKS} K♣ · ✋ stands" in text(thread, table)
    await env.advance_time(91)
    result = [m.content for m in thread.history() if "Round 1 — showdown" in m.content]
    assert result and f"🏆 <@{bob.id}> takes the pot: +1." in result[0]
    assert "round 2" in text(thread, table)
    await assert_audit_clean(env.bot.db)
