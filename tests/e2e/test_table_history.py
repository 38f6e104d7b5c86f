"""``/table history`` end to end: the last settled rounds as the table posted them, their
deck's commitment while it is in play, its seed and a ``/verify`` line that verifies once
the deck is retired; nothing of the round being played; French; bad input."""

from __future__ import annotations

import re

import pytest

from bot.i18n import t
from tests.e2e.helpers import (
    add_players,
    classic_table,
    embed_text,
    service,
    table_message,
    table_of,
    thread_of,
)

VERIFY = re.compile(r"/verify seed:([0-9a-f]{64}) commitment:([0-9a-f]{64}) deck:(\S+?)`")
VERIFY_FR = re.compile(r"/vérifier graine:([0-9a-f]{64}) engagement:([0-9a-f]{64}) paquet:(\S+?)`")


@pytest.fixture
def db_path(database_url: str) -> str:
    """This module runs on both databases (tests/conftest.py ``database_url``)."""
    return database_url


async def play_round(alice, bob, thread, table, cards: list[str], bets=(10, 20)) -> None:
    """One Black Jack round: both bet, both stand (the deal is rigged: no naturals)."""
    table.game.rig(cards)
    await alice.member.click(table_message(thread, table), label=f"Bet {bets[0]}")
    await bob.member.click(table_message(thread, table), label=f"Bet {bets[1]}")
    for p in (alice, bob):
        res = await p.member.click(table_message(thread, table), label="Stand")
        assert res.ephemeral or res.response is not None


async def test_history_shows_rounds_commitments_then_seeds_that_verify(simcord_env):
    env = simcord_env
    _guild, lobby, thread, table, (alice, bob) = await classic_table(env, "alice", "bob")
    empty = await alice.member.slash(thread, "table history")
    assert empty.ephemeral and empty.response.content == t("table.error.history_empty", "en")
    await alice.member.click(table_message(thread, table), label="Start")
    # deal order: alice, bob, the dealer's up card, alice, bob, the hole card
    await play_round(alice, bob, thread, table, ["9S", "TH", "TD", "8S", "7H", "8D"])
    await play_round(alice, bob, thread, table, ["9C", "TC", "TS", "7C", "8C", "7D"])
    # round 3 is dealt: the dealer's hole card (Q♥) is hidden, it must not show
    table.game.rig(["2S", "3H", "4D", "5S", "6H", "QH"])
    await alice.member.click(table_message(thread, table), label="Bet 10")
    await bob.member.click(table_message(thread, table), label="Bet 10")
    assert "Q♥" not in embed_text(table_message(thread, table))

    res = await bob.member.slash(thread, "table history")
    assert res.ephemeral
    text = embed_text(res.response.message)
    assert "Round 1" in text and "Round 2" in text and "Round 3" not in text
    assert "9♠ 8♠" in text and "10♦ 8♦" in text  # round 1's hands as its summary showed
    assert "9♣ 7♣" in text and "10♠ 7♦" in text
    assert "Q♥" not in text and "2♠" not in text  # nothing of the round being played
    shoe = table.game.shoe
    assert shoe is not None and shoe.commitment in text  # the deck in play: commitment only
    assert "still in play" in text and not VERIFY.search(text)
    assert shoe.seed.hex() not in text

    await alice.member.slash(thread, "table close")  # the shoe is retired: its seed revealed
    assert service(env).table_in(thread.id) is None
    res = await bob.member.slash(thread, "table history")  # a closed table: from its rows
    text = embed_text(res.response.message)
    assert "Round 1" in text and "Round 2" in text
    found = VERIFY.findall(text)
    assert found, text
    assert len(found) == 2  # the shoe, and the next one's seed committed ahead, never dealt
    seed, commitment, deck = found[0]
    assert commitment == shoe.commitment and deck == "std52*6"
    assert t("history.deck_ahead", "en", deck=deck, line="").split("`")[0] in text
    verified = await bob.member.slash(lobby, "verify", seed=seed, commitment=commitment, deck=deck)
    assert verified.response.content.startswith("✅"), verified.response.content


async def test_history_in_french_and_bad_input(simcord_env):
    env = simcord_env
    _guild, lobby, thread, table, (alice, bob) = await classic_table(env, "alice", "bob")
    await alice.member.click(table_message(thread, table), label="Start")
    await play_round(alice, bob, thread, table, ["9S", "TH", "TD", "8S", "7H", "8D"])
    await alice.member.slash(thread, "table close")
    await bob.member.slash(lobby, "language", language="fr")
    res = await bob.member.slash(thread, "table history")
    text = embed_text(res.response.message)
    assert "Historique" in text and "Manche 1" in text
    (seed, commitment, deck) = VERIFY_FR.findall(text)[0]
    verified = await bob.member.slash(lobby, "verify", seed=seed, commitment=commitment, deck=deck)
    assert verified.response.content.startswith("✅ Vérifié"), verified.response.content
    # bad input: no table here (the channel itself), in French
    res = await bob.member.slash(lobby, "table history")
    assert res.ephemeral and res.response.content == t("table.error.no_table_here", "fr")


async def test_a_deck_per_round_shows_each_rounds_seed_while_the_table_plays(simcord_env):
    """Casino 21 shuffles a deck each round and reveals it at the round's end: after two
    rounds, two ``/verify`` lines that verify; nothing of the next round's deck (its round
    is not settled)."""
    env = simcord_env
    guild = env.create_guild()
    lobby = guild.create_text_channel("casino")
    (alice,) = add_players(env, guild, "alice")
    await alice.member.slash(lobby, "table open", game="casino21")
    thread = thread_of(lobby)
    table = table_of(env, thread)
    await alice.member.click(table_message(thread, table), label="Start")
    for cards in (["TS", "9H", "6D", "KC", "8C"], ["TD", "9D", "6H", "KH", "8H"]):
        table.game.rig(cards)  # alice 19, the bank 16 then 8: bust
        await alice.member.click(table_message(thread, table), label="Bet 10")
        await alice.member.click(table_message(thread, table), label="Stand (0)")
    res = await alice.member.slash(thread, "table history")
    text = embed_text(res.response.message)
    assert "Round 1" in text and "Round 2" in text
    found = VERIFY.findall(text)
    assert len(found) == 2, text
    for seed, commitment, deck in found:
        verified = await alice.member.slash(
            lobby, "verify", seed=seed, commitment=commitment, deck=deck
        )
        assert verified.response.content.startswith("✅"), verified.response.content
    shoe = table.game.shoe  # round 3's deck, being dealt: nothing of it in the history
    assert shoe is not None and table.game.round == 3
    assert shoe.commitment not in text and shoe.seed.hex() not in text
