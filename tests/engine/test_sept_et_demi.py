"""Golden scripted games for Sept et demi (RULES.md section 4).

Decks are rigged with ``SeptEtDemi.rig`` (the test-only hook of every game): cards are dealt
one to each player from the banker's left, then one to the bank, then in the order of the
hits.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import replace
from typing import Any

import pytest

from bot.engine.base import (
    Action,
    ActionKind,
    DeadlineKind,
    Event,
    IllegalAction,
    MoneyKind,
    Phase,
    Visibility,
)
from bot.engine.games.sept_et_demi import SeptEtDemi
from bot.engine.shuffle import seeded_entropy
from bot.engine.views import as_dict
from tests.engine.ledger import Ledger
from tests.engine.refusals import refused

K = ActionKind


def act(kind: ActionKind, player: int | None = None, amount: int | None = None) -> Action:
    return Action(kind, player, amount=amount)


def table(n: int = 3, rig: list[str] | None = None, **opts: Any) -> tuple[SeptEtDemi, Ledger]:
    """A started table of players 1..n (1 is the host and first banker)."""
    g = SeptEtDemi(opts, host=1, entropy=seeded_entropy("sept-golden"))
    led = Ledger()
    for pid in range(1, n + 1):
        led.feed(g.apply(act(K.JOIN, pid)))
    if rig is not None:
        g.rig(rig)
    led.feed(g.apply(act(K.START, 1)))
    led.check(g)
    return g, led


def play(g: SeptEtDemi, led: Ledger, *actions: Action) -> list[Event]:
    """Apply actions; a TIMEOUT during bets lets every remaining bettor's window expire
    in turn (each bettor has a timer of their own)."""
    out: list[Event] = []
    for a in actions:
        betting = a.kind is K.TIMEOUT and g.phase is Phase.BETTING
        out += led.feed(g.apply(a))
        led.check(g)
        while betting and g.phase is Phase.BETTING:
            out += led.feed(g.apply(a))
            led.check(g)
    return out


def kinds(events: Iterable[Event]) -> list[str]:
    return [e.kind for e in events]


def settles(events: Iterable[Event]) -> dict[int, dict[str, Any]]:
    return {int(e.data["player"]): dict(e.data) for e in events if e.kind == "settle"}


def stacks(g: SeptEtDemi) -> dict[int, int]:
    """The stack of every player ever seated (0 once they left)."""
    return {pid: g.stacks.get(pid, 0) for pid in g.to_dict()["places"]}


def public_json(g: SeptEtDemi) -> str:
    return json.dumps(as_dict(replace(g.public_view(), last_round=None)))


# --------------------------------------------------------------------------- options


def test_a_round_limit_is_an_option() -> None:
    assert SeptEtDemi({"deck": "32", "rounds": 3}).options.rounds == 3


def test_card_values_both_decks() -> None:
    g40 = SeptEtDemi()
    assert [g40.points([c]) for c in ["AS", "2S", "3S", "4S", "5S", "6S", "7S"]] == [
        2,
        4,
        6,
        8,
        10,
        12,
        14,
    ]
    assert [g40.points([c]) for c in ["JH", "QH", "KH"]] == [1, 1, 1]
    g32 = SeptEtDemi({"deck": "32"})
    assert [g32.points([c]) for c in ["AS", "KS", "QS", "JS"]] == [14, 8, 6, 4]
    assert [g32.points([c]) for c in ["TS", "9S", "8S", "7S"]] == [1, 1, 1, 1]


# --------------------------------------------------------------------------- settlement


def test_bank_sept_et_demi_beats_player_sept_et_demi() -> None:
    g, led = table(3, ["7H", "5C", "7S", "QH", "KS"])
    assert g.phase is Phase.BETTING and g.to_act == 2 and g.deadline.kind is DeadlineKind.BET
    play(g, led, act(K.BET, 2, 10), act(K.BET, 3, 10))
    assert g.phase is Phase.PLAYING and g.to_act == 2 and g.deadline.kind is DeadlineKind.TURN
    play(g, led, act(K.HIT, 2), act(K.SHOW, 2), act(K.STAND, 2), act(K.STAND, 3))
    assert g.phase is Phase.BANK and g.to_act == 1
    assert as_dict(g.public_view().own.bank) == {
        "banker": 1,
        "shown": ("7S",),
        "hidden": 0,
        "total": 14,
    }
    ev = play(g, led, act(K.HIT, 1), act(K.STAND, 1))
    s = settles(ev)
    assert s[2]["rule"] == "bank_sept_et_demi" and s[2]["total"] == 15
    assert s[3]["rule"] == "bank_sept_et_demi"
    assert s[2]["net"] == -20 and s[3]["net"] == -20
    assert stacks(g) == {1: 240, 2: 180, 3: 180}
    money = next(e for e in ev if e.kind == "settle" and e.player == 2).money
    assert [(m.kind, m.src, m.dst, m.amount) for m in money] == [
        (MoneyKind.LOSS, "pot", "seat:1", 10),
        (MoneyKind.LOSS, "seat:2", "seat:1", 10),
    ]
    assert g.phase is Phase.BETWEEN_ROUNDS and g.banker == 2


def test_player_sept_et_demi_paid_double_even_when_bank_busts() -> None:
    g, led = table(3, ["7H", "4C", "6S", "QH", "5D"])
    play(g, led, act(K.BET, 2, 10), act(K.BET, 3, 10))
    play(g, led, act(K.HIT, 2), act(K.SHOW, 2), act(K.STAND, 2), act(K.STAND, 3))
    ev = play(g, led, act(K.HIT, 1))  # 6 + 5 = 11: the bank busts, the round ends
    assert "bank_bust" in kinds(ev)
    s = settles(ev)
    assert (s[2]["rule"], s[2]["net"]) == ("player_sept_et_demi", 20)
    assert (s[3]["rule"], s[3]["net"]) == ("bank_bust", 10)
    assert stacks(g) == {1: 170, 2: 220, 3: 210}
    money = next(e for e in ev if e.kind == "settle" and e.player == 2).money
    assert [(m.kind, m.src, m.dst, m.amount) for m in money] == [
        (MoneyKind.REFUND, "pot", "seat:2", 10),
        (MoneyKind.PAYOUT, "seat:1", "seat:2", 20),
    ]


def test_higher_wins_equal_and_lower_lose() -> None:
    g, led = table(4, ["6C", "5D", "4H", "5S"])
    play(g, led, act(K.BET, 2, 10), act(K.BET, 3, 20), act(K.BET, 4, 30))
    ev = play(g, led, act(K.STAND, 2), act(K.STAND, 3), act(K.STAND, 4), act(K.STAND, 1))
    assert kinds(ev).count("showdown") == 3
    s = settles(ev)
    assert (s[2]["rule"], s[2]["net"]) == ("higher", 10)
    assert (s[3]["rule"], s[3]["net"]) == ("not_higher", -20)  # equal: the bank wins
    assert (s[4]["rule"], s[4]["net"]) == ("not_higher", -30)
    assert stacks(g) == {1: 240, 2: 210, 3: 180, 4: 170}
    # losers are collected before winners are paid
    order = [e.player for e in ev if e.kind == "settle"]
    assert order == [3, 4, 2]
    summary = next(e for e in ev if e.kind == "round_settled").data
    assert summary["banker_net"] == 40 and summary["shortfall"] == 0


def test_player_bust_loses_at_once_even_if_bank_busts_later() -> None:
    g, led = table(3, ["5C", "2D", "4S", "6H", "7S"])
    play(g, led, act(K.BET, 2, 10), act(K.BET, 3, 10))
    ev = play(g, led, act(K.HIT, 2))
    bust = next(e for e in ev if e.kind == "bust")
    assert bust.visibility is Visibility.PUBLIC
    assert sorted(bust.data["cards"]) == ["5C", "6H"] and bust.data["total"] == 22
    assert [(m.kind, m.src, m.dst, m.amount) for m in bust.money] == [
        (MoneyKind.LOSS, "pot", "seat:1", 10)
    ]
    assert g.to_act == 3 and stacks(g)[1] == 210
    assert g.public_view().seats[1].total == 22
    ev = play(g, led, act(K.STAND, 3), act(K.HIT, 1))  # bank 4 + 7: bust
    s = settles(ev)
    assert 2 not in s and s[3]["rule"] == "bank_bust"
    summary = next(e for e in ev if e.kind == "round_settled").data
    assert [r["rule"] for r in summary["results"]] == ["bust", "bank_bust"]
    assert stacks(g) == {1: 200, 2: 190, 3: 210}


def test_sept_et_demi_with_many_cards_and_32_card_deck() -> None:
    g, led = table(3, ["AS", "KC", "JS", "8H", "QD", "TH", "9D"], deck="32")
    play(g, led, act(K.BET, 2, 50), act(K.BET, 3, 40))
    play(g, led, act(K.HIT, 2))
    assert g.private_view(2).you.own.total == 15  # ace 7 + eight ½
    play(g, led, act(K.SHOW, 2), act(K.STAND, 2))
    play(g, led, act(K.HIT, 3), act(K.SWAP, 3), act(K.STAND, 3))  # K 4 + Q 3 = 7
    assert g.public_view().own.bank.shown == ("JS",)
    ev = play(g, led, act(K.HIT, 1), act(K.HIT, 1), act(K.STAND, 1))  # J 2 + ½ + ½ = 3
    s = settles(ev)
    assert (s[2]["rule"], s[2]["net"], s[2]["total"]) == ("player_sept_et_demi", 100, 15)
    assert (s[3]["rule"], s[3]["net"], s[3]["total"]) == ("higher", 40, 14)
    assert s[3]["bank_total"] == 6


# --------------------------------------------------------------------------- hidden card


def test_hidden_card_swap_visibility() -> None:
    g, led = table(3, ["2C", "3D", "4S", "3H", "KH"])
    play(g, led, act(K.BET, 2, 10), act(K.BET, 3, 10))
    # the bank's card is seen by nobody, the banker included
    for who in (1, 2, 3):
        assert "4S" not in json.dumps(as_dict(g.private_view(who)))
    assert "2C" in json.dumps(as_dict(g.private_view(2)))
    assert "2C" not in json.dumps(as_dict(g.private_view(3)))
    ev = play(g, led, act(K.HIT, 2))
    card = next(e for e in ev if e.kind == "card")
    assert card.visibility is Visibility.PRIVATE and card.player == 2
    assert card.data["card"] == "3H"
    for e in ev:
        if e.visibility is Visibility.PUBLIC:
            assert "3H" not in json.dumps(e.to_dict()) and "2C" not in json.dumps(e.to_dict())
    pub = g.public_view().seats[1]
    assert (pub.shown, pub.hidden, pub.pending) == ((), 1, True)
    assert "3H" not in public_json(g) and "2C" not in public_json(g)
    you = g.private_view(2).you.own
    assert (you.hidden, you.pending, you.total) == ("2C", "3H", 10)
    assert "3H" not in json.dumps(as_dict(g.private_view(3)))
    # the choice comes before anything else
    assert g.legal_actions(2) >= {K.SHOW, K.SWAP}
    assert K.HIT not in g.legal_actions(2) and K.STAND not in g.legal_actions(2)
    for kind in (K.HIT, K.STAND):
        with pytest.raises(IllegalAction) as err:
            g.apply(act(kind, 2))
        assert err.value.code == "choice_pending"
    ev = play(g, led, act(K.SWAP, 2))  # hide 3H, show 2C
    swap = next(e for e in ev if e.kind == "swap")
    assert swap.visibility is Visibility.PUBLIC and swap.data["card"] == "2C"
    priv = next(e for e in ev if e.kind == "hidden_card")
    assert priv.visibility is Visibility.PRIVATE and priv.player == 2
    assert priv.data == {"card": "3H", "total": 10}
    pub = g.public_view().seats[1]
    assert (pub.shown, pub.hidden, pub.pending) == (("2C",), 1, False)
    assert "3H" not in public_json(g)
    assert g.private_view(2).you.own.hidden == "3H"
    assert "3H" not in json.dumps(as_dict(g.private_view(1)))
    play(g, led, act(K.HIT, 2), act(K.SHOW, 2))  # KH shown, 3H stays hidden
    pub = g.public_view().seats[1]
    assert (pub.shown, pub.hidden, pub.shown_total) == (("2C", "KH"), 1, 5)
    assert g.private_view(2).you.own.total == 11
    with pytest.raises(IllegalAction) as err:
        g.apply(act(K.SHOW, 2))
    assert err.value.code == "no_choice_pending"
    ev = play(g, led, act(K.STAND, 2), act(K.STAND, 3))
    reveal = next(e for e in ev if e.kind == "bank_reveal")
    assert reveal.data["card"] == "4S"
    ev = play(g, led, act(K.STAND, 1))
    shows = [e for e in ev if e.kind == "showdown"]
    assert [(e.player, e.data["card"]) for e in shows] == [(2, "3H"), (3, "3D")]


# --------------------------------------------------------------------------- fund


def test_fund_not_needed_when_the_bank_can_pay() -> None:
    g, led = table(3, ["7H", "2C", "5S", "QH"])
    play(g, led, act(K.BET, 2, 100), act(K.BET, 3, 50))
    ev = play(g, led, act(K.HIT, 2), act(K.SHOW, 2), act(K.STAND, 2), act(K.STAND, 3))
    ev += play(g, led, act(K.STAND, 1))
    summary = next(e for e in ev if e.kind == "round_settled").data
    assert summary["fund_paid"] == 0 and summary["fund_left"] == 500
    # the loser is collected first, so the bank can pay the double win in full
    assert stacks(g) == {1: 50, 2: 400, 3: 150}
    assert not any(m.src == "fund" for e in ev for m in e.money)


def test_fund_pays_the_rest_after_the_bank() -> None:
    g, led = table(4, ["7H", "6C", "2D", "5S", "QH"])
    play(g, led, act(K.BET, 2, 100), act(K.BET, 3, 100), act(K.BET, 4, 50))
    play(g, led, act(K.HIT, 2), act(K.SHOW, 2), act(K.STAND, 2))
    ev = play(g, led, act(K.STAND, 3), act(K.STAND, 4), act(K.STAND, 1))
    s = settles(ev)
    assert (s[4]["outcome"], s[4]["net"]) == ("loss", -50)
    assert (s[2]["owed"], s[2]["paid_by_bank"], s[2]["paid_by_fund"]) == (200, 200, 0)
    assert (s[3]["owed"], s[3]["paid_by_bank"], s[3]["paid_by_fund"]) == (100, 50, 50)
    assert s[3]["shortfall"] == 0
    money = next(e for e in ev if e.kind == "settle" and e.player == 3).money
    assert [(m.kind, m.src, m.dst, m.amount) for m in money] == [
        (MoneyKind.REFUND, "pot", "seat:3", 100),
        (MoneyKind.PAYOUT, "seat:1", "seat:3", 50),
        (MoneyKind.PAYOUT, "fund", "seat:3", 50),
    ]
    assert [e.player for e in ev if e.kind == "settle"] == [4, 2, 3]
    assert g.fund == 450 and g.public_view().own.fund.balance == 450
    assert stacks(g) == {1: 0, 2: 400, 3: 300, 4: 150}
    outs = [e for e in ev if e.kind == "left" and e.data["reason"] == "empty_stack"]
    assert [(e.player, e.data["banker"]) for e in outs] == [(1, True)]
    assert g.seat_of(1) is None
    assert g.banker == 2 and g.phase is Phase.BETWEEN_ROUNDS


def test_fund_exhausted_pro_rata_with_shortfall() -> None:
    g, led = table(4, ["7H", "6C", "6D", "5S", "QH"], guarantee_fund=11)
    play(g, led, act(K.BET, 2, 100), act(K.BET, 3, 60), act(K.BET, 4, 90))
    play(g, led, act(K.HIT, 2), act(K.SHOW, 2), act(K.STAND, 2))
    ev = play(g, led, act(K.STAND, 3), act(K.STAND, 4), act(K.STAND, 1))
    s = settles(ev)
    assert (s[2]["paid_by_bank"], s[2]["paid_by_fund"], s[2]["shortfall"]) == (200, 0, 0)
    # rests 60 and 90 share 11: 4.4 and 6.6 round down to 4 and 6, the remainder unit
    # goes to the first unpaid winner in seat order from the banker's left
    assert (s[3]["paid_by_fund"], s[3]["shortfall"], s[3]["exact_fund_share"]) == (5, 55, "22/5")
    assert (s[4]["paid_by_fund"], s[4]["shortfall"], s[4]["exact_fund_share"]) == (6, 84, "33/5")
    summary = next(e for e in ev if e.kind == "round_settled").data
    assert (summary["fund_paid"], summary["shortfall"], summary["fund_left"]) == (11, 139, 0)
    assert g.fund == 0
    assert stacks(g) == {1: 0, 2: 400, 3: 205, 4: 206}


# --------------------------------------------------------------------------- rotation


def quick_round(g: SeptEtDemi, led: Ledger, starter: int) -> list[Event]:
    """START, then the betting timer expires: everybody sits out."""
    return play(g, led, act(K.START, starter), Action(K.TIMEOUT))


def test_bank_rotation_skips_departed_players() -> None:
    g, led = table(4)
    assert g.banker == 1
    play(g, led, Action(K.TIMEOUT))  # nobody bets: the round ends at once
    assert g.phase is Phase.BETWEEN_ROUNDS and g.banker == 2
    ev = play(g, led, act(K.LEAVE, 2))
    assert ev[0].money[0].kind is MoneyKind.CASH_OUT and ev[0].money[0].amount == 200
    bankers = []
    for _ in range(4):
        ev = quick_round(g, led, 1)
        bankers.append(next(e for e in ev if e.kind == "round_started").data["banker"])
    assert bankers == [3, 4, 1, 3]
    # a player who comes back keeps their place in the seat order
    play(g, led, act(K.JOIN, 2))
    ev = quick_round(g, led, 1)
    assert next(e for e in ev if e.kind == "round_started").data["banker"] == 4
    assert g.banker == 1
    ev = quick_round(g, led, 1)
    assert g.banker == 2
    ev = quick_round(g, led, 1)
    assert next(e for e in ev if e.kind == "round_started").data["banker"] == 2


def test_players_bet_from_the_bankers_left() -> None:
    g, led = table(4)
    play(g, led, Action(K.TIMEOUT))
    play(g, led, act(K.START, 1))
    assert g.banker == 2 and g.round_order == [3, 4, 1] and g.to_act == 3
    with pytest.raises(IllegalAction) as err:
        g.apply(act(K.BET, 2, 5))
    assert err.value.code == "banker_cannot_bet"


# --------------------------------------------------------------------------- end


def test_round_limit_ends_the_game_and_closes_the_fund() -> None:
    g, led = table(3, rounds=2)
    play(g, led, Action(K.TIMEOUT))
    assert g.phase is Phase.BETWEEN_ROUNDS
    ev = quick_round(g, led, 1)
    assert g.phase is Phase.FINISHED
    over = next(e for e in ev if e.kind == "game_over")
    assert over.kind == "game_over" and over.data["reason"] == "rounds"
    assert over.data["winners"] == [1, 2, 3]  # a three-way tie shares the first place
    assert [r["rank"] for r in over.data["ranking"]] == [1, 1, 1]
    kinds_money = [(m.kind, m.src, m.dst, m.amount) for e in ev for m in e.money]
    assert (MoneyKind.FUND_CLOSE, "fund", "house", 500) in kinds_money
    assert (MoneyKind.CASH_OUT, "seat:2", "claim:2", 200) in kinds_money
    assert led.bal["house"] == 0 and led.bal["claim:1"] == 200
    assert g.legal_actions(1) == frozenset() and g.legal_actions(None) == frozenset()
    with pytest.raises(IllegalAction) as err:
        g.apply(act(K.START, 1))
    assert err.value.code == "game_over"


def test_one_player_holds_every_chip() -> None:
    g, led = table(2, ["7H", "5S", "QH"])
    play(g, led, act(K.BET, 2, 100), act(K.HIT, 2), act(K.SHOW, 2), act(K.STAND, 2))
    ev = play(g, led, act(K.STAND, 1))
    assert g.phase is Phase.FINISHED
    over = next(e for e in ev if e.kind == "game_over")
    assert over.data["reason"] == "last_player"
    assert over.data["ranking"] == [{"rank": 1, "player": 2, "stack": 400}]
    assert led.bal["claim:2"] == 400 and led.bal["house"] == 0


def test_ranking_most_chips_first() -> None:
    g, led = table(3, ["6C", "2D", "5S"], rounds=1)
    play(g, led, act(K.BET, 2, 30), act(K.BET, 3, 10))
    ev = play(g, led, act(K.STAND, 2), act(K.STAND, 3), act(K.STAND, 1))
    over = next(e for e in ev if e.kind == "game_over").data
    assert over["ranking"] == [
        {"rank": 1, "player": 2, "stack": 230},
        {"rank": 2, "player": 3, "stack": 190},
        {"rank": 3, "player": 1, "stack": 180},
    ]
    assert over["winners"] == [2]


def test_vote_between_rounds_ends_at_once() -> None:
    g, led = table(3)
    play(g, led, Action(K.TIMEOUT))
    ev = play(g, led, act(K.VOTE_STOP, 3))
    assert ev[0].data["majority"] is False and g.phase is Phase.BETWEEN_ROUNDS
    with pytest.raises(IllegalAction) as err:
        g.apply(act(K.VOTE_STOP, 3))
    assert err.value.code == "already_voted"
    ev = play(g, led, act(K.VOTE_STOP, 1))
    assert g.phase is Phase.FINISHED and ev[-1].data["reason"] == "vote"


def test_vote_during_a_round_ends_after_it() -> None:
    g, led = table(3, ["6C", "2D", "5S"])
    play(g, led, act(K.VOTE_STOP, 2))
    ev = play(g, led, act(K.VOTE_STOP, 1))
    assert ev[0].data["ends_after_round"] is True and g.phase is Phase.BETTING
    assert g.public_view().own.stop_pending is True
    play(g, led, act(K.BET, 2, 10), act(K.BET, 3, 10), act(K.STAND, 2), act(K.STAND, 3))
    ev = play(g, led, act(K.STAND, 1))
    assert "settle" in kinds(ev)
    assert g.phase is Phase.FINISHED and ev[-1].data["reason"] == "vote"


def test_fewer_than_two_players_ends_the_game() -> None:
    g, led = table(2)
    play(g, led, Action(K.TIMEOUT))
    ev = play(g, led, act(K.LEAVE, 1))
    assert g.phase is Phase.FINISHED and ev[-1].data["reason"] == "last_player"
    assert led.bal["claim:1"] == 200 and led.bal["claim:2"] == 200


def test_close_mid_round_refunds_the_pot() -> None:
    g, led = table(3, ["5C", "2D", "4S", "6H"])
    play(g, led, act(K.BET, 2, 10), act(K.BET, 3, 20), act(K.HIT, 2))  # 2 busts
    ev = play(g, led, Action(K.CLOSE))
    closed = ev[0]
    assert [(m.kind, m.dst, m.amount) for m in closed.money] == [(MoneyKind.REFUND, "seat:3", 20)]
    assert "seed_revealed" in kinds(ev)
    assert g.phase is Phase.FINISHED and ev[-1].data["reason"] == "closed"
    assert led.bal["claim:1"] == 210 and led.bal["claim:2"] == 190 and led.bal["claim:3"] == 200
    assert led.bal["fund"] == 0 and led.bal["house"] == 0 and led.bal["pot"] == 0


def test_close_in_lobby_cashes_out_without_fund() -> None:
    g = SeptEtDemi(host=1)
    led = Ledger()
    led.feed(g.apply(act(K.JOIN, 1)))
    with pytest.raises(IllegalAction) as err:
        g.apply(act(K.CLOSE, 2))
    assert err.value.code == "system_only"
    ev = led.feed(g.apply(Action(K.CLOSE)))
    assert not any(m.kind is MoneyKind.FUND_CLOSE for e in ev for m in e.money)
    assert led.bal["claim:1"] == 200 and g.phase is Phase.FINISHED


# --------------------------------------------------------------------------- timers


def test_bet_timeout_sits_out_only_the_current_bettor() -> None:
    g, _led = table(4)
    assert g.to_act == 2
    ev = g.apply(Action(K.TIMEOUT))
    assert [(e.player, e.data) for e in ev if e.kind == "sat_out"] == [(2, {"timeout": True})]
    assert g.phase is Phase.BETTING and g.to_act == 3  # the next bettor gets a full window


def test_timeouts() -> None:
    g, led = table(4, ["2C", "3D", "4H", "5S", "3H"])
    play(g, led, act(K.BET, 2, 10))
    ev = play(g, led, Action(K.TIMEOUT))  # 3 and 4 have not bet: they sit out
    assert [(e.player, e.data) for e in ev if e.kind == "sat_out"] == [
        (3, {"timeout": True}),
        (4, {"timeout": True}),
    ]
    assert g.phase is Phase.PLAYING and g.to_act == 2
    play(g, led, act(K.HIT, 2))
    ev = play(g, led, Action(K.TIMEOUT))  # pending choice: SHOW, then stand
    assert kinds(ev)[:2] == ["show", "stand"] and ev[0].data["card"] == "3H"
    assert g.phase is Phase.BANK
    ev = play(g, led, Action(K.TIMEOUT))  # the bank stands
    assert ev[0].kind == "bank_stand" and ev[0].data["timeout"] is True
    assert settles(ev)[2]["rule"] == "not_higher"  # 2 + 3 = 5 against 5: the bank wins
    with pytest.raises(IllegalAction) as err:
        g.apply(Action(K.TIMEOUT))
    assert err.value.code == "wrong_phase"


# --------------------------------------------------------------------------- errors


def test_illegal_actions_and_codes() -> None:
    g = SeptEtDemi(host=1, entropy=seeded_entropy("x"))
    refused(g, act(K.START, 1), "not_seated")
    g.apply(act(K.JOIN, 1))
    refused(g, act(K.JOIN, 1), "already_seated")
    refused(g, act(K.JOIN, 2, 150), "bad_buy_in")
    refused(g, act(K.JOIN), "not_seated")
    refused(g, act(K.START, 1), "not_enough_players")
    for pid in range(2, 9):
        g.apply(act(K.JOIN, pid))
    refused(g, act(K.JOIN, 9), "table_full")
    refused(g, act(K.START, 2), "not_host")
    refused(g, act(K.VOTE_STOP, 2), "wrong_phase")
    refused(g, Action(K.TIMEOUT), "wrong_phase")
    refused(g, act(K.DOUBLE, 2), "unknown_action")
    g.apply(act(K.START, 1))
    refused(g, act(K.BET, 1, 5), "banker_cannot_bet")
    refused(g, act(K.BET, 3, 5), "not_your_turn")
    refused(g, act(K.BET, 9, 5), "not_seated")
    refused(g, act(K.BET, 2), "bet_out_of_range")
    refused(g, act(K.BET, 2, 0), "bet_out_of_range")
    refused(g, act(K.BET, 2, 101), "bet_out_of_range")
    refused(g, act(K.HIT, 2), "wrong_phase")
    refused(g, act(K.JOIN, 9), "wrong_phase")
    refused(g, act(K.LEAVE, 2), "round_in_progress")
    refused(g, act(K.START, 1), "wrong_phase")
    refused(g, Action(K.TIMEOUT, 1), "system_only")
    g.apply(act(K.BET, 2, 100))
    assert g.stacks[2] == 100


def test_sit_out_and_small_stacks() -> None:
    g, led = table(3, ["7H", "5C", "7S", "QH"], min_bet=10, buy_in=20)
    play(g, led, act(K.SIT_OUT, 2))
    assert g.status(2) == "sat_out" and g.to_act == 3
    play(g, led, act(K.BET, 3, 10))
    assert g.private_view(3).you.own.bet_range is None
    play(g, led, act(K.STAND, 3), act(K.STAND, 1))
    assert stacks(g) == {1: 30, 2: 20, 3: 10}
    # 3 can no longer cover the minimum bet: dealt out, but still seated
    ev = play(g, led, act(K.START, 1))
    assert [(e.player, e.data["reason"]) for e in ev if e.kind == "sat_out"] == [
        (3, "stack_too_small")
    ]
    assert g.round_order == [1] and g.banker == 2


# --------------------------------------------------------------------------- fairness


def test_snapshot_round_trip_mid_round_with_rigged_deck() -> None:
    g, led = table(3, ["2C", "3D", "4S", "3H", "KH"])
    play(g, led, act(K.BET, 2, 10), act(K.BET, 3, 10), act(K.HIT, 2))
    snap = json.loads(json.dumps(g.to_dict()))
    h = SeptEtDemi.from_dict(snap, entropy=seeded_entropy("sept-golden"))
    assert h.to_dict() == g.to_dict()
    for a in (act(K.SWAP, 2), act(K.HIT, 2), act(K.SHOW, 2), act(K.STAND, 2), act(K.STAND, 3)):
        assert [e.to_dict() for e in h.apply(a)] == [e.to_dict() for e in g.apply(a)]
    assert h.to_dict() == g.to_dict()
