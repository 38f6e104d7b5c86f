"""The live table stays at the bottom of its thread (issue 38, point 1): at a round's end
the table message becomes that round's summary, without buttons, and the next round gets
a new table message below it, stored as the table's message; a click on an old one is
refused with a link to the live one; nothing is deleted and no call is added."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from bot.discord.publisher import render, table_link
from bot.engine.base import Phase
from bot.engine.registry import GAMES
from bot.i18n import t
from tests.e2e.helpers import (
    add_players,
    answer_text,
    embed_text,
    table_message,
    table_of,
    thread_of,
)
from tests.e2e.recovery_helpers import click_move, move_buttons, restart


@pytest.fixture
def db_path(database_url: str) -> str:
    """This module runs on both databases (tests/conftest.py ``database_url``)."""
    return database_url


async def one_player_table(env: Any, locale: str = "en") -> tuple[Any, Any, Any]:
    """A Black Jack table in a thread, alice alone, her bet placed: her 9♣ 7♦ (16)
    against the dealer's 10♦ and hole 8♣ (18); her Stand ends the round."""
    guild = env.create_guild()
    lobby = guild.create_text_channel("casino")
    (alice,) = add_players(env, guild, "alice")
    await alice.member.slash(lobby, "language", language=locale)  # the table's language
    await alice.member.slash(lobby, "table open", game="blackjack", options="min_bet=10")
    thread = thread_of(lobby)
    table = table_of(env, thread)
    table.game.rig(["9C", "TD", "7D", "8C"])
    await click_move(alice.member, table_message(thread, table), "start")
    await click_move(alice.member, table_message(thread, table), "bet:10")
    assert table.game.phase is Phase.PLAYING
    return thread, table, alice


def calls(env: Any, start: int) -> list[str]:
    """The REST calls made since ``start`` (``env.http_requests`` index), outside the
    interaction responses and follow-ups."""
    out = []
    for r in env.http_requests[start:]:
        if r.path.endswith("/callback") or r.path.startswith("/webhooks/"):
            continue
        out.append(f"{r.method} {r.path}")
    return out


async def stored_message_id(env: Any, table_id: int) -> int:
    async def read(c: Any) -> int:
        row = await c.fetchone("SELECT message_id FROM tables WHERE id = ?", (table_id,))
        return int(row[0])

    return await env.bot.db.read(read)


@pytest.mark.parametrize("locale", ["en", "fr"])
async def test_the_click_that_ends_a_round_rolls_the_table_down(simcord_env, locale):
    env = simcord_env
    thread, table, alice = await one_player_table(env, locale)
    old = table_message(thread, table)
    start = len(env.http_requests)
    res = await click_move(alice.member, old, "stand")
    assert table.game.phase is Phase.BETTING  # the next round is open for bets
    # the old message is that round's summary: cards and results, no embed, no buttons
    before = next(m for m in thread.history() if m.id == old.id)
    assert before.content.startswith(t("summary.title", locale, n=1))
    assert "9♣ 7♦" in before.content and "10♦ 8♣" in before.content
    assert not before.embeds and not before.components
    # the new table message is the thread's last message, with the bet buttons
    assert table.message_id != old.id
    last = list(thread.history())[-1]
    assert last.id == table.message_id and "bet:10" in move_buttons(last)
    assert t("table.round", locale, n=2) in embed_text(last)
    assert await stored_message_id(env, table.id) == table.message_id
    # the summary came in the click's response; the one call outside it posts the table
    assert res.response is not None
    assert calls(env, start) == [f"POST /channels/{thread.id}/messages"]
    # nothing was deleted
    assert not [r for r in env.http_requests if r.method == "DELETE" and "/messages/" in r.path]


async def test_a_slash_move_that_ends_a_round_edits_and_posts_by_rest(simcord_env):
    env = simcord_env
    thread, table, alice = await one_player_table(env)
    old_id = table.message_id
    start = len(env.http_requests)
    res = await alice.member.slash(thread, "stand")
    assert res.ephemeral
    assert calls(env, start) == [
        f"PATCH /channels/{thread.id}/messages/{old_id}",
        f"POST /channels/{thread.id}/messages",
    ]
    before = next(m for m in thread.history() if m.id == old_id)
    assert before.content.startswith(t("summary.title", "en", n=1)) and not before.components
    assert list(thread.history())[-1].id == table.message_id != old_id


@pytest.mark.parametrize("locale", ["en", "fr"])
async def test_a_click_on_an_old_table_message_is_refused_with_a_link(simcord_env, locale):
    env = simcord_env
    thread, table, alice = await one_player_table(env, locale)
    old_id = table.message_id
    # the old message's edit into the summary fails: it keeps its buttons, and the
    # summary is posted below it instead, then the new table message
    env.inject_error("PATCH", f"/channels/{thread.id}/messages/{old_id}", status=500, times=3)
    await alice.member.slash(thread, "stand")
    messages = list(thread.history())
    old = next(m for m in messages if m.id == old_id)
    assert "stand" in move_buttons(old)
    assert messages[-2].content.startswith(t("summary.title", locale, n=1))
    assert messages[-1].id == table.message_id
    version = table.version
    res = await click_move(alice.member, old, "stand")
    assert res.ephemeral
    assert res.response.content == t("table.error.old_message", locale, link=table_link(table))
    assert f"/{thread.id}/{table.message_id}" in res.response.content
    assert table.version == version  # nothing played
    # the live one plays
    await click_move(alice.member, table_message(thread, table), "bet:10")
    assert table.version == version + 1


async def test_the_restart_re_renders_the_live_message(simcord_env, db_path):
    env = simcord_env
    thread, table, alice = await one_player_table(env)
    old_id = table.message_id
    await click_move(alice.member, table_message(thread, table), "stand")
    live = table.message_id
    await restart(env, db_path)
    again = table_of(env, thread)
    assert again.message_id == live
    assert t("table.back", "en") in embed_text(table_message(thread, again))
    old = next(m for m in thread.history() if m.id == old_id)
    assert old.content.startswith(t("summary.title", "en", n=1)) and not old.components
    await click_move(alice.member, table_message(thread, again), "bet:10")
    assert again.game.phase is Phase.PLAYING


async def test_a_forum_post_keeps_its_first_message(simcord_env):
    env = simcord_env
    guild = env.create_guild()
    forum = guild.create_forum_channel("tables")
    (alice,) = add_players(env, guild, "alice")
    await alice.member.slash(forum, "table open", game="blackjack", options="min_bet=10")
    post = thread_of(forum)
    table = table_of(env, post)
    first = next(iter(post.history()))
    assert first.id != table.message_id  # the post's intro, not the table
    table.game.rig(["9C", "TD", "7D", "8C"])
    await click_move(alice.member, table_message(post, table), "start")
    await click_move(alice.member, table_message(post, table), "bet:10")
    await click_move(alice.member, table_message(post, table), "stand")
    messages = list(post.history())
    assert messages[0].content == first.content  # the intro is untouched
    assert messages[1].content.startswith(t("summary.title", "en", n=1))
    assert messages[-1].id == table.message_id and move_buttons(messages[-1])


async def test_a_table_here_rolls_in_its_channel(simcord_env):
    env = simcord_env
    guild = env.create_guild()
    lobby = guild.create_text_channel("casino")
    (alice,) = add_players(env, guild, "alice")
    await alice.member.slash(lobby, "table open", game="blackjack", options="min_bet=10", here=True)
    table = table_of(env, lobby)
    table.game.rig(["9C", "TD", "7D", "8C"])
    await click_move(alice.member, table_message(lobby, table), "start")
    await click_move(alice.member, table_message(lobby, table), "bet:10")
    old_id = table.message_id
    res = await click_move(alice.member, table_message(lobby, table), "stand")
    assert not answer_text(res)
    messages = list(lobby.history())
    assert messages[-1].id == table.message_id != old_id
    assert next(m for m in messages if m.id == old_id).content.startswith(
        t("summary.title", "en", n=1)
    )


# ------------------------------------------------------------ point 10: private cards


@pytest.mark.parametrize("locale", ["en", "fr"])
async def test_private_cards_say_what_changed_first_and_link_only_in_dms(simcord_env, locale):
    env = simcord_env
    guild = env.create_guild()
    lobby = guild.create_text_channel("port")
    alice, bob = add_players(env, guild, "alice", "bob")
    for p in (alice, bob):
        await p.member.slash(lobby, "language", language=locale)
    await alice.member.slash(lobby, "table open", game="pirate21", name="Tortuga")
    thread = thread_of(lobby)
    table = table_of(env, thread)
    await click_move(bob.member, table_message(thread, table), "join")
    # deals bob, alice, bob, alice; bob's hit draws 4♣
    table.game.rig(["2S", "5C", "3H", "8D", "4C"], only=True)
    res = await click_move(alice.member, table_message(thread, table), "start")
    link = table_link(table)
    # alice started the round: her cards in her click's answer, under the table: no link
    dealt = t("pirate21.dm.cards", locale, n=1, cards="5♣ 8♦", total=13)
    assert answer_text(res) == dealt
    # bob's by DM: what changed first, the table's name and link last
    title = GAMES["pirate21"].name(locale)
    assert (
        bob.dms()[-1].content
        == t("pirate21.dm.cards", locale, n=1, cards="2♠ 3♥", total=5)
        + f"\n**{title} — Tortuga** {link}"
    )
    res = await click_move(bob.member, table_message(thread, table), "hit")
    drew = t("pirate21.dm.drew", locale, card="4♣", cards="2♠ 3♥", extra="4♣", total=9)
    assert answer_text(res) == drew
    assert drew.startswith(
        {"en": "You drew 4♣ · total **9**", "fr": "Vous avez tiré 4♣ · total **9**"}[locale]
    )


async def test_a_rest_edit_in_flight_for_the_old_message_never_lands_over_the_summary(
    simcord_env, monkeypatch
):
    env = simcord_env
    thread, table, alice = await one_player_table(env)
    publisher = env.bot.publisher
    old_id = table.message_id
    gate = asyncio.Event()
    edit = publisher.edit_table_message

    async def slow_edit(table: Any, note: str | None = None) -> None:
        """A REST edit already on its way with the old message's id and state: it lands
        only when the test lets it."""
        message_id = table.message_id
        embed, view = render(table)
        await gate.wait()
        await publisher.channel(table).get_partial_message(message_id).edit(embed=embed, view=view)

    monkeypatch.setattr(publisher, "edit_table_message", slow_edit)
    in_flight = asyncio.ensure_future(publisher.refresh(table, note="a timer's edit"))
    await asyncio.sleep(0)
    assert publisher.edits.in_flight(table.id)
    monkeypatch.setattr(publisher, "edit_table_message", edit)
    start = len(env.http_requests)
    click = asyncio.ensure_future(click_move(alice.member, table_message(thread, table), "stand"))
    for _ in range(100_000):  # until the click's response is out (a real database awaits)
        if any(r.path.endswith("/callback") for r in env.http_requests[start:]):
            break
        await asyncio.sleep(0)
    gate.set()  # the old edit lands after the click's response made the old message a summary
    await click
    await in_flight
    await env.advance_time(1)
    old = next(m for m in thread.history() if m.id == old_id)
    assert old.content.startswith(t("summary.title", "en", n=1)), old.content
    assert not old.embeds and not old.components  # the summary again, over the late edit
    assert list(thread.history())[-1].id == table.message_id != old_id
    edits = [c for c in calls(env, start) if c.startswith("PATCH")]
    assert edits == [f"PATCH /channels/{thread.id}/messages/{old_id}"] * 2  # late one, fix
