"""A slash move answers with its outcome (issue 38 point 3), end to end through SimCord,
in the reader's language: the cards drawn and the total, a bust, a bet, a double, a split,
insurance, a surrender, an ace valued, a turn ended, the round's net; one answer, with
the player's own private cards in it and nobody else's."""

from __future__ import annotations

from typing import Any

import pytest

from bot.i18n import t
from tests.e2e.helpers import (
    Player,
    add_players,
    assert_never_public,
    classic_table,
    table_message,
    table_of,
    thread_of,
)

LANGS = ["en", "fr"]


async def speak(thread: Any, lang: str, *players: Player) -> None:
    for p in players:
        await p.member.slash(thread, "language", language=lang)


async def answer(p: Player, thread: Any, command: str, **kwargs: Any) -> str:
    """The one answer a move command gets (nothing follows it)."""
    res = await p.member.slash(thread, command, **kwargs)
    assert res.ephemeral and not res.followups, (res.response.content, res.followups)
    return str(res.response.content)


@pytest.mark.parametrize("lang", LANGS)
async def test_blackjack_moves_answer_what_they_did(simcord_env, lang):
    env = simcord_env
    _g, _l, thread, table, (alice, bob) = await classic_table(
        env, "alice", "bob", options="surrender=true"
    )
    await speak(thread, lang, alice, bob)
    # alice 10♠ 6♣, bob 8♥ 8♠, the dealer 5♦ + hole K♦; alice doubles (4♥: 20), bob splits
    # (3♣ then 10♥: 21; his second hand 8♠ 9♦: 17), the dealer draws 7♣: 22, bust
    table.game.rig(["TS", "8H", "5D", "6C", "8S", "KD", "4H", "3C", "TH", "9D", "7C"])
    await alice.member.click(table_message(thread, table), label="Start")
    assert await answer(alice, thread, "bet", amount=10) == t("answer.bet", lang, amount=10)
    assert await answer(bob, thread, "bet", amount=10) == "\n".join(
        [t("answer.bet", lang, amount=10), t("answer.drew", lang, cards="8♥ 8♠", total=16)]
    )
    assert await answer(alice, thread, "double") == "\n".join(
        [
            t("answer.double", lang, bet=20),
            t("answer.drew", lang, cards="4♥", total=20),
        ]
    )
    assert await answer(bob, thread, "split") == "\n".join(
        [t("answer.split", lang, bet=10), t("answer.drew", lang, cards="3♣", total=11)]
    )
    # 21 stands by itself, and his second hand gets its second card
    assert await answer(bob, thread, "hit") == "\n".join(
        [
            t("answer.drew", lang, cards="10♥", total=21),
            t("answer.drew", lang, cards="9♦", total=17),
        ]
    )
    # his stand ends the round: the dealer busts, both hands win
    assert await answer(bob, thread, "stand") == "\n".join(
        [t("answer.stand", lang), t("answer.round_net", lang, n=1, net="+20")]
    )

    # round 2: alice 10♠ 6♣, bob 9♥ 7♥, the dealer A♠ + hole 5♦ (no Black Jack), then 2♣
    table.game.rig(["TS", "9H", "AS", "6C", "7H", "5D", "2C"])
    await answer(alice, thread, "bet", amount=10)
    await answer(bob, thread, "bet", amount=10)
    assert await answer(alice, thread, "insurance") == t("answer.insurance", lang, amount=5)
    assert await answer(bob, thread, "insurance", take=False) == t("answer.no_insurance", lang)
    assert await answer(alice, thread, "surrender") == t("answer.surrender", lang, refund=5)
    assert await answer(bob, thread, "stand") == "\n".join(
        [t("answer.stand", lang), t("answer.round_net", lang, n=2, net="-10")]
    )


@pytest.mark.parametrize("lang", LANGS)
async def test_casino21_moves_answer_the_cards_and_the_total(simcord_env, lang):
    env = simcord_env
    guild = env.create_guild()
    lobby = guild.create_text_channel("casino")
    alice, bob = add_players(env, guild, "alice", "bob")
    await alice.member.slash(lobby, "table open", game="casino21")
    thread = thread_of(lobby)
    table = table_of(env, thread)
    await bob.member.slash(thread, "table join")
    await speak(thread, lang, alice, bob)
    # alice 10♠ 9♥, bob 5♣ 10♦, the bank 6♦ + hole K♣; alice draws A♥ (valued 1: 20), bob
    # 7♦ 5♠: 27, bust; alice stands, the bank draws 8♣: 24, bust
    table.game.rig(["TS", "9H", "5C", "TD", "6D", "KC", "AH", "7D", "5S", "8C"])
    await alice.member.click(table_message(thread, table), label="Start")
    assert await answer(alice, thread, "bet", amount=10) == "\n".join(
        [t("answer.bet", lang, amount=10), t("answer.cards", lang, cards="10♠ 9♥", total=19)]
    )
    assert await answer(bob, thread, "bet", amount=10) == "\n".join(
        [t("answer.bet", lang, amount=10), t("answer.cards", lang, cards="5♣ 10♦", total=15)]
    )
    assert await answer(alice, thread, "draw", count=1) == "\n".join(
        [t("answer.drew_only", lang, cards="A♥"), t("answer.ace_pending", lang, card="A♥")]
    )
    chosen = t("answer.ace_chosen", lang, card="A♥", value=1, total=20)
    assert await answer(alice, thread, "ace", value=1) == chosen
    assert await answer(bob, thread, "draw", count=2) == "\n".join(
        [t("answer.drew", lang, cards="7♦ 5♠", total=27), t("answer.bust", lang, total=27)]
    )
    # alice's stand ends the round: the bank busts, she wins the bonus
    assert await answer(alice, thread, "draw", count=0) == "\n".join(
        [t("answer.stand_on", lang, total=20), t("answer.round_net", lang, n=1, net="+5")]
    )
    # round 2: alice bets, bob does not; the host ends the first turn
    table.game.rig(["TS", "9H", "6D", "KC"])
    await answer(alice, thread, "bet", amount=10)
    assert await answer(alice, thread, "end-turn") == t("answer.turn_ended", lang, turn=1)
    assert table.game.turn == 2


@pytest.mark.parametrize("lang", LANGS)
async def test_sept_et_demi_moves_answer_once_with_the_private_card(simcord_env, lang):
    env = simcord_env
    guild = env.create_guild()
    lobby = guild.create_text_channel("casino")
    alice, bob, carol = add_players(env, guild, "alice", "bob", "carol")
    await alice.member.slash(lobby, "table open", game="sept_et_demi")
    thread = thread_of(lobby)
    table = table_of(env, thread)
    for p in (bob, carol):
        await p.member.slash(thread, "table join")
    await speak(thread, lang, alice, bob, carol)
    # bob 3♠, carol 5♥, the bank 4♦; bob draws 2♣ (hides it, shows 3♠), then K♥ (shown);
    # carol draws 6♦: 11, bust
    table.game.rig(["3S", "5H", "4D", "2C", "KH", "6D"])
    await alice.member.click(table_message(thread, table), label="Start")
    assert await answer(bob, thread, "bet", amount=10) == t("answer.bet", lang, amount=10)
    assert await answer(carol, thread, "bet", amount=20) == t("answer.bet", lang, amount=20)
    dms = {p.id: len(p.dms()) for p in (alice, bob, carol)}
    hit = await answer(bob, thread, "hit")  # the card drawn, in the one answer
    assert hit == t("sept.dm.drawn", lang, card="2♣", hidden="3♠", total="5")
    hid = await answer(bob, thread, "hide")
    assert hid == "\n".join(
        [
            t("answer.sept.swap", lang, card="3♠", total="**3**"),
            t("sept.dm.hidden_now", lang, card="2♣", total="5"),
        ]
    )
    await answer(bob, thread, "hit")
    shown = await answer(bob, thread, "show")
    assert shown == t("answer.sept.show", lang, card="K♥", total="**3½**")
    assert await answer(bob, thread, "stand") == t("answer.stand", lang)
    assert await answer(carol, thread, "hit") == t(
        "answer.sept.bust", lang, card="6♦", total="**11**", bet=20
    )
    # nobody got a DM for these moves, and no hidden card was shown
    assert {p.id: len(p.dms()) for p in (alice, bob, carol)} == dms
    assert_never_public(thread, ["2C"])  # bob's hidden card (the bank's is up: its turn)
    # the banker draws 3♣ for the bank (7), then stands: the round ends (the bank's 7 beats
    # bob's 5½, carol's bust paid it): her net, then her hidden card of round 2 (the bank
    # passes to bob), one answer
    table.game.rig(["3C"])
    drew = await answer(alice, thread, "hit")
    assert drew == t("answer.sept.bank_hit", lang, card="3♣", total="**7**")
    table.game.rig(["7S", "2H", "5D"])
    assert await answer(alice, thread, "stand") == "\n".join(
        [
            t("answer.sept.bank_stand", lang, total="**7**"),
            t("answer.round_net", lang, n=1, net="+30"),
            t("sept.dm.deal", lang, round=2, card="2♥", total="2"),
        ]
    )
    assert table.game.round == 2 and table.game.banker == bob.id
    # carol's card of round 2 is no answer of hers: it goes by DM, as before
    assert {p.id: len(p.dms()) for p in (alice, bob)} == {
        alice.id: dms[alice.id],
        bob.id: dms[bob.id],
    }
    (dealt,) = carol.dms()[dms[carol.id] :]
    assert "7♠" in dealt.content and "2♥" not in dealt.content
    assert_never_public(thread, ["2H", "7S"])  # round 2's hidden cards (2♣ shown at the end)
