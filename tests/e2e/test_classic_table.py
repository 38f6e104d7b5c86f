"""Black Jack end to end: open a table in a thread, three players, buttons and commands,
round summaries, claims, a clean audit."""

from __future__ import annotations

import pytest

from bot.i18n import t
from tests.bank_audit import assert_audit_clean
from tests.e2e.helpers import (
    add_players,
    classic_table,
    embed_text,
    service,
    table_message,
    table_of,
    thread_of,
)


@pytest.fixture
def db_path(database_url: str) -> str:
    """This module runs on both databases (tests/conftest.py ``database_url``)."""
    return database_url


async def test_full_classic_round_with_three_players(simcord_env):
    env = simcord_env
    guild = env.create_guild()
    lobby = guild.create_text_channel("casino")
    alice, bob, carol = add_players(env, guild, "alice", "bob", "carol")

    opened = await alice.member.slash(lobby, "table open", game="blackjack", name="Royale")
    assert opened.ephemeral
    thread = thread_of(lobby)
    table = table_of(env, thread)
    assert "Royale" in embed_text(table_message(thread, table))

    for p in (bob, carol):
        res = await p.member.slash(thread, "table join", buy_in=100)
        assert res.ephemeral, res.response.content
    assert len(table.game.seats) == 3
    # Rig the shoe (test hook). Deal order: each player, the dealer's up card, each player
    # again, the hole card. alice A♠ K♥ (Black Jack), bob 10♥ Q♠ (20), carol 9♣ 5♦ (14),
    # the dealer 10♦ + K♣ (20); carol's hit is 8♠ (bust).
    table.game.rig(["AS", "TH", "9C", "TD", "KH", "QS", "5D", "KC", "8S"])
    await alice.member.click(table_message(thread, table), label="Start")
    await alice.member.click(table_message(thread, table), label="Bet 10")
    await bob.member.click(table_message(thread, table), label="Bet 20")
    res = await carol.member.slash(thread, "bet", amount=10)
    assert res.ephemeral
    text = embed_text(table_message(thread, table))
    assert "10♦ 🂠" in text and "K♣" not in text  # the hole card stays face down
    assert "A♠ K♥" in text and "Black Jack" in text  # alice's natural stands by itself
    # bob's turn: a stranger and alice cannot act for him
    refused = await carol.member.click(table_message(thread, table), label="Stand")
    assert refused.ephemeral and "not your turn" in refused.response.content
    await bob.member.click(table_message(thread, table), label="Stand")
    await carol.member.click(table_message(thread, table), label="Hit")  # 8♠: 22, bust
    summary = [m.content for m in thread.history() if "results" in m.content]
    assert len(summary) == 1, [m.content for m in thread.history()]
    lines = summary[0].splitlines()
    assert "Dealer: 10♦ K♣ **20**" in lines[1]
    assert any(f"<@{alice.id}>" in line and "+15" in line for line in lines)
    assert any(f"<@{bob.id}>" in line and "push" in line and "+0" in line for line in lines)
    assert any(f"<@{carol.id}>" in line and "bust" in line and "-10" in line for line in lines)
    # the next round opened by itself; the host closes the table: stacks become claims
    assert table.game.phase.value == "betting"
    closed = await alice.member.slash(thread, "table close")
    assert closed.ephemeral
    assert service(env).table_in(thread.id) is None
    bank = service(env).bank
    claims = {
        p.id: [c.amount for c in await bank.claims(guild.id, p.id)] for p in (alice, bob, carol)
    }
    assert claims == {alice.id: [215], bob.id: [100], carol.id: [90]}
    for p, balance in ((alice, 800), (bob, 900), (carol, 900)):
        assert await bank.balance(guild.id, p.id) == balance
    await assert_audit_clean(env.bot.db)


async def test_insurance_against_a_dealer_blackjack_nets_zero(simcord_env):
    """RULES.md §1 steps 3-4: an insured hand keeps its bet and its insurance, whatever the
    bet's parity (no even money); a blackjack is not offered insurance, and pushes."""
    env = simcord_env
    guild, _lobby, thread, table, (alice, bob) = await classic_table(env, "alice", "bob")
    # deal: alice 10♠ 9♥, bob A♥ K♠ (Black Jack), the dealer A♠ + hole K♦ (Black Jack)
    table.game.rig(["TS", "AH", "AS", "9H", "KS", "KD"])
    await alice.member.click(table_message(thread, table), label="Start")
    assert (await alice.member.slash(thread, "bet", amount=25)).ephemeral  # odd: insures 12
    await bob.member.click(table_message(thread, table), label="Bet 20")
    text = embed_text(table_message(thread, table))
    assert "A♠ 🂠" in text and "K♦" not in text
    refused = await bob.member.slash(thread, "insurance")
    assert refused.ephemeral and refused.response.content == t("illegal.no_insurance_offered", "en")
    await alice.member.click(table_message(thread, table), label="Insurance")
    (summary,) = [m.content for m in thread.history() if "results" in (m.content or "")]
    lines = summary.splitlines()
    assert "Dealer: A♠ K♦ **21** · Black Jack" in lines[1]
    assert f"<@{alice.id}> 10♠ 9♥ **19** · insured: keeps the bet +0" in lines
    assert f"<@{bob.id}> A♥ K♠ **21** · push +0" in lines, lines
    assert f"<@{alice.id}>: insurance +0" in lines and f"<@{bob.id}>: insurance" not in summary
    # the stacks did not move (the next round's bets are open)
    text = embed_text(table_message(thread, table))
    assert f"<@{alice.id}> · stack 200" in text and f"<@{bob.id}> · stack 100" in text
    await alice.member.slash(thread, "table close")
    bank = service(env).bank
    for p, stack, balance in ((alice, 200, 800), (bob, 100, 900)):
        assert [c.amount for c in await bank.claims(guild.id, p.id)] == [stack]
        assert await bank.balance(guild.id, p.id) == balance
    await assert_audit_clean(env.bot.db)
