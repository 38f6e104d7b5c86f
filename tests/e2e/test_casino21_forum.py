"""Casino 21 in a forum channel at forum pace: the table topic (intro, then the table
message), welcome stakes, pings per turn, a draw of several cards with two ace choices, the
host ending a turn, an early leave that forfeits (after a confirmation) and a leave after the
wagering requirement, both collected with /bank claim (receipts in the bank channel)."""

from __future__ import annotations

import discord

from bot.i18n import t
from bot.ui.render.bank import amount
from tests.bank_audit import assert_audit_clean
from tests.e2e.helpers import (
    add_players,
    embed_text,
    ping_requests,
    service,
    table_message,
    table_of,
    thread_of,
)


def admin_of(env, guild, name="boss"):
    role = guild.create_role("admin", permissions=discord.Permissions(manage_guild=True))
    return guild.add_member(env.create_user(name), roles=[role])


def labels(message) -> list[str]:
    return [c.label for row in message.components for c in row.children]


def contents(channel) -> list[str]:
    return [m.content or "" for m in channel.history()]


async def test_casino21_forum_table(simcord_env):
    env = simcord_env
    guild = env.create_guild()
    lobby = guild.create_text_channel("hall")
    forum = guild.create_forum_channel("casino")
    bank_channel = guild.create_text_channel("banque")
    boss = admin_of(env, guild)
    alice, bob, carol = add_players(env, guild, "alice", "bob", "carol")
    await boss.slash(lobby, "bank setup", channel=bank_channel)

    intro = "Le croupier étale le tapis vert : Casino 21, mises de 1 à 100."
    res = await alice.member.slash(
        lobby,
        "table open",
        game="casino21",
        name="Tapis vert",
        options="pace=forum",
        where=forum,
        intro=intro,
    )
    assert res.ephemeral
    post = thread_of(forum)
    assert post.name == "Tapis vert"
    table = table_of(env, post)
    history = post.history()
    assert history[0].content == intro  # the topic's first message is the intro
    assert history[1].id == table.message_id  # then the table message
    assert table.settings.pace == "forum"

    for p in (bob, carol):
        res = await p.member.slash(post, "table join")
        assert res.ephemeral, res.response.content
    text = embed_text(table_message(post, table))
    assert text.count("welcome stake 100") == 3 and text.count("wagered 0/100") == 3

    # Round 1. Deal order: alice 4♣ 3♦, bob K♠ Q♠, carol 9♠ 9♣, bank 10♥ + hole 7♣, then
    # alice's three cards A♥ 2♠ A♦.
    table.game.rig(["4C", "3D", "KS", "QS", "9S", "9C", "TH", "7C", "AH", "2S", "AD"])
    start = len(env.http_requests)
    await alice.member.click(table_message(post, table), label="Start")
    pings = ping_requests(env, post.id, start)
    assert len(pings) == 1  # one message for the new turn: the two others, not the clicker
    assert pings[0]["users"] == sorted([bob.id, carol.id])
    assert "1st turn" in pings[0]["content"] and "place your bets" in pings[0]["content"]

    await alice.member.click(table_message(post, table), label="Bet 10")
    res = await bob.member.slash(post, "bet", amount=100)
    assert res.ephemeral
    start = len(env.http_requests)
    await carol.member.click(table_message(post, table), label="Bet 10")
    # carol's bet ended the first turn: turn 2 pings those who must draw (one message)
    pings = ping_requests(env, post.id, start)
    assert len(pings) == 1 and pings[0]["users"] == sorted([alice.id, bob.id])
    assert "Turn 2" in pings[0]["content"]
    text = embed_text(table_message(post, table))
    assert "turn 2" in text and "Bank: 10♥ 🂠" in text and "7♣" not in text
    assert "wagered 100/100" not in text and "free to leave" in text  # bob bet 100

    # Alice draws three cards at once: A♥ 2♠ A♦, and values each ace in turn
    start = len(env.http_requests)
    res = await alice.member.slash(post, "draw", count=3)
    assert res.ephemeral
    assert ping_requests(env, post.id, start) == []  # a move inside a turn pings nobody
    message = table_message(post, table)
    text = embed_text(message)
    assert "4♣ 3♦ A♥(?) 2♠ A♦(?)" in text and "chooses the value of A♥" in text
    assert {"Ace = 1", "Ace = 11"} <= set(labels(message))
    refused = await alice.member.slash(post, "draw", count=1)
    assert "Choose the value of your ace first" in refused.response.content
    await alice.member.click(message, label="Ace = 1")
    text = embed_text(table_message(post, table))
    assert "A♥(1) 2♠ A♦(?)" in text and "chooses the value of A♦" in text
    res = await alice.member.slash(post, "ace", value=11)
    assert res.ephemeral
    text = embed_text(table_message(post, table))
    assert "4♣ 3♦ A♥(1) 2♠ A♦(11) **21**" in text  # 21 stands by itself

    res = await bob.member.click(table_message(post, table), label="Stand (0)")
    # carol does not move: the host ends the turn; carol stands on 18
    refused = await bob.member.slash(post, "end-turn")
    assert "Only the host" in refused.response.content
    res = await alice.member.slash(post, "end-turn")
    assert res.ephemeral
    summary = [c for c in contents(post) if "results**" in c]
    assert len(summary) == 1
    s = summary[0]
    assert "Bank: 10♥ 7♣ **17**" in s
    assert f"<@{alice.id}> 4♣ 3♦ A♥(1) 2♠ A♦(11) **21** · bet 10 · wins **+5**" in s
    assert f"<@{bob.id}> K♠ Q♠ **20** · bet 100 · wins **+50**" in s
    assert f"<@{carol.id}> 9♠ 9♣ **18** · bet 10 · wins **+5**" in s

    text = embed_text(table_message(post, table))
    assert "round 2" in text and "1st turn" in text
    assert "stack 150" in text and text.count("stack 105") == 2

    # Carol's welcome stake is not spent: no own funds yet. She leaves before betting
    # 100: confirmation first
    res = await carol.member.slash(post, "table top-up", amount=20)
    assert res.ephemeral and "only once the welcome stake is spent" in res.response.content
    assert not any("adds" in c for c in contents(bank_channel))
    res = await carol.member.slash(post, "table leave")
    assert res.ephemeral
    assert "forfeits 105" in res.response.content and "you keep 0" in res.response.content
    assert table.game.seats[-1].player == carol.id  # nothing changed yet
    confirm = await carol.member.click(res.response.message, label="Leave anyway")
    assert confirm.ephemeral, confirm.response.content
    assert all(s.player != carol.id for s in table.game.seats)
    posted = contents(post)[-1]
    assert f"<@{carol.id}> leaves before betting 100: 105 returns to the casino" in posted
    assert any("before the wagering requirement" in c for c in contents(bank_channel))

    # Bob wagered 100: he leaves freely with everything
    res = await bob.member.slash(post, "table leave")
    assert res.ephemeral and "/bank claim" in res.response.content
    assert f"<@{bob.id}> leaves the table: 150 is waiting at the bank" in contents(post)[-1]

    # Carol has nothing to collect; bob's receipt goes to the bank channel
    res = await carol.member.slash(lobby, "bank claim")
    assert res.response.content == t("bank.claim.nothing", "en")
    res = await bob.member.slash(lobby, "bank claim")
    assert amount(150, "en") in embed_text(res.response)
    assert bob.member.mention in contents(bank_channel)[-1]
    assert amount(150, "en") in contents(bank_channel)[-1]
    bank = service(env).bank
    assert await bank.balance(guild.id, bob.id) == 1000 + 150
    assert await bank.spendable(guild.id, carol.id) == 1000
    await assert_audit_clean(env.bot.db)
