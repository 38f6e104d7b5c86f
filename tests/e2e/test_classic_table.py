"""Black Jack end to end: open a table in a thread, three players, buttons and commands,
round summaries, claims, a clean audit."""

from __future__ import annotations

from bot.bank.testing import assert_audit_clean
from tests.e2e.helpers import add_players, embed_text, service, table_message, table_of, thread_of


async def test_full_classic_round_with_three_players(simcord_env):
    env = simcord_env
    guild = env.create_guild()
    lobby = guild.create_text_channel("casino")
    alice, bob, carol = add_players(env, guild, "alice", "bob", "carol")

    opened = await alice.member.slash(lobby, "table open", game="classic", name="Royale")
    assert opened.ephemeral
    thread = thread_of(lobby)
    table = table_of(env, thread)
    assert "Royale" in embed_text(table_message(thread, table))

    for p in (bob, carol):
        res = await p.member.slash(thread, "table join", buy_in=100)
        assert res.ephemeral, res.response.content
    assert len(table.game.seats) == 3
    # Rig the shoe (test hook): each player gets a known hand, the dealer 10+7.
    table.game.rig(["TS", "9H", "5C", "TD", "8S", "7H", "6D", "KC", "7D", "5S"])
    await alice.member.click(table_message(thread, table), label="Start")
    for p in (alice, bob, carol):
        await p.member.click(table_message(thread, table), label="Bet 10")
    text = embed_text(table_message(thread, table))
    assert "10♠" in text and "9♥" in text  # alice's first card, the dealer's up card
    # alice: 10♠ 8♠ = 18 stands; bob: 9? see the deal order below
    await alice.member.click(table_message(thread, table), label="Servi")
    # bob (5♣ 7♥ = 12) hits and gets 7♦ = 19, then stands
    await bob.member.click(table_message(thread, table), label="Carte !")
    await bob.member.click(table_message(thread, table), label="Servi")
    # carol (10♦ 6♦ = 16) stands by slash command
    res = await carol.member.slash(thread, "stand")
    assert res.ephemeral
    summaries = [m for m in thread.history() if "results" in m.content]
    assert summaries, [m.content for m in thread.history()]
    bank = service(env).bank
    await assert_audit_clean(env.bot.db)
    assert await bank.balance(guild.id, alice.id) >= 0
