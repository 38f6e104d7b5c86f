"""Pirate 21 privacy end to end: hidden cards never public before the showdown, a bust
indistinguishable from a safe hit, closed DMs (the /hand fallback) and the turn timer."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

import pytest

from tests.bank_audit import assert_audit_clean
from tests.e2e.helpers import (
    Player,
    add_players,
    answer_text,
    assert_never_public,
    card_texts,
    embed_text,
    open_anyway,
    table_message,
    table_of,
    thread_of,
)

BACKS = "🂠🂠"
# Seat order bob, carol, alice (the dealer plays last). bob 10♠ 9♥ (19), alice 8♠ 8♦ (16).
# carol holds 5♣ 7♦ (12) at one table and 5♣ 3♦ (8) at the other, then draws K♣ and 2♥:
# 22 then 24 (bust) against 18 then 20. The public cards are the same at both tables.
TWIN_BUST = ["TS", "5C", "8S", "9H", "7D", "8D", "KC", "2H", "3C", "4C", "6C", "3H"]
TWIN_SAFE = ["TS", "5C", "8S", "9H", "3D", "8D", "KC", "2H", "3C", "4C", "6C", "3H"]
# bob 19, carol 5♣ 7♦ + K♣ (bust) or 5♣ 2♦ + K♣ (17), alice 16
BUST_PILE = ["TS", "5C", "8S", "9H", "7D", "8D", "KC"]
STAND_PILE = ["TS", "5C", "8S", "9H", "2D", "8D", "KC"]
SECRET = {
    "bust": ["TS", "9H", "5C", "7D", "8S", "8D"],
    "safe": ["TS", "9H", "5C", "3D", "8S", "8D"],
}
SNOWFLAKE = re.compile(r"\d{17,20}")
SHA256 = re.compile(r"\b[0-9a-f]{64}\b")


def text(thread: Any, table: Any) -> str:
    return embed_text(table_message(thread, table))


@dataclass
class Twin:
    """One of two tables played alike by the same three players."""

    name: str
    lobby: Any
    thread: Any
    table: Any
    dm: int = 0  # carol's DM channel (the hitter's private channel)

    def scrub(self, value: Any) -> Any:
        """The value with what names this table rather than the game in it (its number, its
        channels, its shuffle's commitment, per-request nonces and interaction tokens)
        replaced by placeholders; a user's id stays what it is."""
        if isinstance(value, dict):
            return {k: self.scrub(v) for k, v in value.items() if k != "nonce"}
        if isinstance(value, (list, tuple)):
            return [self.scrub(v) for v in value]
        if not isinstance(value, str):
            return value
        names = {
            str(self.thread.id): "THREAD",
            str(self.lobby.id): "LOBBY",
            str(self.table.message_id): "TABLE_MESSAGE",
            str(self.dm): "CAROL_DM",
        }
        value = SNOWFLAKE.sub(lambda m: names.get(m[0], m[0]), value)
        value = re.sub(r"/interactions/\d+/[^/]+/", "/interactions/ID/TOKEN/", value)
        value = re.sub(r"^/webhooks/\d+/[^/]+$", "/webhooks/ID/TOKEN", value)
        value = re.sub(rf"^cr:{self.table.id}:", "cr:TABLE:", value)  # custom ids
        value = value.replace(f"#{self.table.id}", "#TABLE")  # the footer
        return SHA256.sub("SHA256", value)

    def seen(self, others: list[Player]) -> dict[str, Any]:
        """Everything the other players can see of this table now: the table message (text,
        embed, buttons with their state), the posts of the thread and of the lobby in
        order, each as that player sees it (their ephemeral answers included), and their
        DMs."""
        message = table_message(self.thread, self.table)
        out: dict[str, Any] = {
            "embeds": [e.to_dict() for e in message.embeds],
            "content": message.content,
            "buttons": [
                (c.label, str(c.style), c.disabled, c.custom_id, str(c.emoji))
                for row in message.components
                for c in row.children
            ],
        }
        for p in others:
            for where, channel in (("thread", self.thread), ("lobby", self.lobby)):
                out[f"{where}:{p.user.name}"] = [
                    (embed_text(m), m.flags.ephemeral)
                    for m in channel.history(viewer=p.member)
                    if m.id != self.table.message_id
                ]
            link = f"/{self.thread.id}/{self.table.message_id}"  # DMs about this table
            out[f"dms:{p.user.name}"] = [m.content for m in p.dms() if link in m.content]
        return self.scrub(out)

    def requests(self, env: Any, start: int) -> list[Any]:
        """The REST calls the bot made since ``start``: all of them, with their bodies,
        except the bodies sent to carol's own DM channel and her clicks' ephemeral
        follow-ups (only she reads them)."""
        out = []
        for r in env.http_requests[start:]:
            ephemeral = r.path.startswith("/webhooks/") and (r.json or {}).get("flags", 0) & 64
            private = r.path == f"/channels/{self.dm}/messages" or bool(ephemeral)
            body = None if private else r.json
            out.append(self.scrub([r.method, r.path, r.params, body]))
        return out


async def open_in(
    env: Any, guild: Any, channel_name: str, players: list[Any], options: str | None = None
) -> Any:
    lobby = guild.create_text_channel(channel_name)
    extra = {"options": options} if options else {}
    await open_anyway(players[0].member, lobby, game="pirate21", name="Twin", **extra)
    thread = thread_of(lobby)
    table = table_of(env, thread)
    for p in players[1:]:
        await p.member.slash(thread, "table join")
    return lobby, thread, table


@pytest.mark.parametrize("pace", ["live", "forum"])  # forum: a new turn pings the player
async def test_a_bust_shows_nothing_a_safe_hit_does_not(simcord_env, pace):
    env = simcord_env
    guild = env.create_guild()
    players = add_players(env, guild, "alice", "bob", "carol")
    alice, bob, carol = players
    # alice hosts a table already: both twins open after the same question
    await alice.member.slash(guild.create_text_channel("first"), "table open", game="pirate21")
    twins = []
    for name, pile in (("bust", TWIN_BUST), ("safe", TWIN_SAFE)):
        lobby, thread, table = await open_in(env, guild, name, players, f"pace={pace}")
        assert table.settings.pace == pace
        table.game.rig(pile, only=True)
        twins.append(Twin(name, lobby, thread, table))
    bust, safe = twins
    for twin in twins:
        await alice.member.click(table_message(twin.thread, twin.table), label="Start")
        await bob.member.click(table_message(twin.thread, twin.table), label="Stand")
        twin.dm = carol.user.dm_channel.id
        # a look at one's own cards and at the table status stay private
        mine = await carol.member.slash(twin.thread, "hand")
        assert mine.ephemeral and "5♣" in mine.response.content
        status = await bob.member.slash(twin.thread, "table status")
        assert status.ephemeral
    assert bust.seen([alice, bob]) == safe.seen([alice, bob])

    async def step(label: str) -> tuple[str, str]:
        """carol clicks ``label`` at both tables: the others see the same, and the bot
        makes the same requests, but for the content of carol's own answers; what she
        alone read at the bust table, then at the safe one."""
        calls, answers = [], []
        for twin in twins:
            start = len(env.http_requests)
            res = await carol.member.click(table_message(twin.thread, twin.table), label=label)
            assert not res.ephemeral  # the click edits the table message
            calls.append(twin.requests(env, start))
            answers.append(answer_text(res))
            assert_never_public(twin.thread, SECRET[twin.name])
        assert calls[0] == calls[1] and calls[0]
        assert bust.seen([alice, bob]) == safe.seen([alice, bob])
        return answers[0], answers[1]

    dms = len(carol.dms())
    bust_dm, safe_dm = await step("Hit")  # 22 (bust) / 18
    assert len(carol.dms()) == dms  # her own card comes in her click's answer
    assert f"▶ <@{carol.id}> · 🪙 0 · {BACKS} K♣" in text(bust.thread, bust.table)
    assert "total **22**" in bust_dm and "Over 21" in bust_dm and "Stand" in bust_dm
    assert "total **18**" in safe_dm and "Over 21" not in safe_dm
    hand = await carol.member.click(table_message(bust.thread, bust.table), label="My cards")
    assert hand.ephemeral and "22" in hand.response.content and "Over 21" in hand.response.content

    # a busted player may ask again, as nobody can tell: 24 / 20
    bust_dm, safe_dm = await step("Hit")
    assert f"▶ <@{carol.id}> · 🪙 0 · {BACKS} K♣ 2♥" in text(bust.thread, bust.table)
    assert "total **24**" in bust_dm and "Over 21" in bust_dm
    assert "total **20**" in safe_dm and "Over 21" not in safe_dm

    await step("Stand")  # she ends her turn like anyone
    assert f"<@{carol.id}> · 🪙 0 · {BACKS} K♣ 2♥ · ✋ stood" in text(bust.thread, bust.table)
    assert f"turn: <@{alice.id}>" in text(bust.thread, bust.table)
    posts = [m.content for m in bust.thread.history() if m.id != bust.table.message_id]
    assert any(f"<@{alice.id}>" in c for c in posts) == (pace == "forum")  # her turn's ping
    for p in (alice, bob):
        assert all("Over 21" not in m.content and "K♣" not in m.content for m in p.dms())

    # the showdown turns everything up: the bust shows there, and only there
    for twin in twins:
        await alice.member.click(table_message(twin.thread, twin.table), label="Stand")
    (b,) = [m.content for m in bust.thread.history() if "Round 1 — showdown" in m.content]
    (s,) = [m.content for m in safe.thread.history() if "Round 1 — showdown" in m.content]
    assert f"<@{carol.id}> 5♣ 7♦ · K♣ 2♥ = **24** · 💥 bust" in b
    assert f"🏆 <@{bob.id}> takes the pot: +1." in b
    assert f"<@{carol.id}> 5♣ 3♦ · K♣ 2♥ = **20**" in s and "bust" not in s
    assert f"🏆 <@{carol.id}> takes the pot: +1." in s
    assert all(c in b for c in card_texts(SECRET["bust"]))
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
    table.game.rig([*BUST_PILE, "2H", "3H", "4H", "5H", "6H", "7H", "JH"], only=True)
    res = await alice.member.click(table_message(thread, table), label="Start")

    # alice (in her click's answer) and carol (by DM) got their cards; bob got nothing by
    # DM but a public hint, no cards
    assert "8♠ 8♦" in answer_text(res) and "5♣ 7♦" in carol.dms()[-1].content
    assert bob.dms() == []
    hints = [m for m in thread.history() if "/hand" in m.content]
    assert len(hints) == 1 and f"<@{bob.id}>" in hints[0].content
    assert_never_public(thread, ["TS", "9H", "5C", "7D", "8S", "8D"])

    # /hand shows bob his cards, only to him
    res = await bob.member.slash(thread, "hand")
    assert res.ephemeral and "10♠ 9♥" in res.response.content and "19" in res.response.content
    # bob draws: the card comes as an ephemeral follow-up of his click
    res = await bob.member.click(table_message(thread, table), label="Hit")
    (follow,) = res.followups
    assert follow.ephemeral and "K♣" in follow.content and "29" in follow.content
    assert "bust" in follow.content
    assert bob.dms() == []
    assert_never_public(thread, ["TS", "9H", "5C", "7D", "8S", "8D"])
    # the game goes on once bob stands, as anyone would
    assert f"turn: <@{bob.id}>" in text(thread, table)
    await bob.member.click(table_message(thread, table), label="Stand")
    assert f"turn: <@{carol.id}>" in text(thread, table)
    await carol.member.click(table_message(thread, table), label="Stand")
    await alice.member.click(table_message(thread, table), label="Stand")
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
    table.game.rig([*STAND_PILE, *BUST_PILE], only=True)
    await alice.member.click(table_message(thread, table), label="Start")
    assert f"turn: <@{bob.id}>" in text(thread, table)

    await env.advance_time(60)  # the live turn timer is 90 s: nothing yet
    assert f"turn: <@{bob.id}>" in text(thread, table)
    await env.advance_time(31)
    t = text(thread, table)
    assert f"turn: <@{carol.id}>" in t
    assert f"<@{bob.id}> · 🪙 0 · {BACKS} · ✋ stood" in t
    assert f"⏰ <@{bob.id}> did not act in time: stands." in [m.content for m in thread.history()]

    # carol hits (17) then goes silent: she stands with her public card; then alice too
    await carol.member.click(table_message(thread, table), label="Hit")
    await env.advance_time(91)
    assert f"<@{carol.id}> · 🪙 0 · {BACKS} K♣ · ✋ stood" in text(thread, table)
    await env.advance_time(91)
    result = [m.content for m in thread.history() if "Round 1 — showdown" in m.content]
    assert result and f"🏆 <@{bob.id}> takes the pot: +1." in result[0]
    assert "round 2" in text(thread, table)
    await assert_audit_clean(env.bot.db)
