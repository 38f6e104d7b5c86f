"""Casino 21 engine: golden scripted games, one per rule (decks rigged by the test hook)."""

from __future__ import annotations

import json
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
from bot.engine.games.casino21 import Casino21, Casino21Options, settle_outcome
from bot.engine.hands import fallback_ace
from bot.engine.shuffle import commitment, seeded_entropy
from bot.engine.views import as_dict
from tests.engine.ledger import Ledger
from tests.engine.refusals import refused

K = ActionKind


class Table:
    """A game plus the ledger of every Money effect it emitted."""

    def __init__(self, players: int = 1, **options: Any) -> None:
        self.game = Casino21(options, host=1, entropy=seeded_entropy("casino21-golden"))
        self.ledger = Ledger()
        self.events = self.ledger.events
        self.balances = self.ledger.bal
        for p in range(1, players + 1):
            self.do(K.JOIN, p)

    def do(self, kind: ActionKind, player: int | None = None, **kw: Any) -> list[Event]:
        events = self.ledger.feed(self.game.apply(Action(kind, player, **kw)))
        self.check()
        return events

    def check(self) -> None:
        self.ledger.check(self.game)

    def illegal(self, kind: ActionKind, player: int | None = None, **kw: Any) -> IllegalAction:
        return refused(self.game, Action(kind, player, **kw))

    def stack(self, player: int) -> int:
        s = self.game.seat_of(player)
        assert s is not None
        return s.stack

    def kinds(self, events: list[Event] | None = None) -> list[str]:
        return [e.kind for e in (self.events if events is None else events)]

    def last(self, kind: str) -> Event:
        return [e for e in self.events if e.kind == kind][-1]


def rigged(players: int, cards: str, **options: Any) -> Table:
    t = Table(players, **options)
    t.game.rig(cards.split())
    t.do(K.START, 1)
    return t


# ------------------------------------------------------------------ options


def test_the_bank_bust_bonus_may_be_half_the_bet() -> None:
    assert Casino21Options.from_dict({"bank_bust_bonus": "half"}).bank_bust_bonus == "half"


# ------------------------------------------------------------------ seats and money


def test_welcome_stake_once_per_table() -> None:
    t = Table(2)
    joined = t.last("joined")
    assert [(m.kind, m.src, m.dst, m.amount) for m in joined.money] == [
        (MoneyKind.WELCOME_STAKE, "house", "seat:2", 100)
    ]
    # player 2 gets below the requirement but has lost nothing: forfeit all
    t.do(K.LEAVE, 2, confirm=True)
    assert t.balances["claim:2"] == 0 and t.balances["seat:2"] == 0
    # rejoining brings no second welcome stake, so nothing to play with
    assert t.illegal(K.JOIN, 2).code == "empty_stack"
    ev = t.do(K.JOIN, 2, amount=30)
    assert [(m.kind, m.src, m.amount) for m in ev[0].money] == [(MoneyKind.BUY_IN, "wallet:2", 30)]
    assert t.stack(2) == 30
    # no welcome stake at this sitting: leaving costs nothing, no confirmation
    ev = t.do(K.LEAVE, 2)
    assert ev[0].data["forfeit"] == 0 and t.balances["claim:2"] == 30


def test_own_funds_only_once_the_welcome_stake_is_spent() -> None:
    t = Table(1, min_bet=101, max_bet=200)
    # a sitting that brings a welcome stake brings no own funds with it
    err = t.illegal(K.JOIN, 2, amount=50)
    assert err.code == "buy_in_with_welcome" and err.params == {"welcome": 100}
    t.do(K.JOIN, 2)
    assert t.stack(2) == 100  # below the minimum bet: the welcome stake is spent
    assert K.TOP_UP in t.game.legal_actions(2)
    ev = t.do(K.TOP_UP, 2, amount=25)
    assert ev[0].kind == "topped_up"
    assert [(m.kind, m.src, m.dst, m.amount) for m in ev[0].money] == [
        (MoneyKind.TOP_UP, "wallet:2", "seat:2", 25)
    ]
    assert t.stack(2) == 125
    # the stack allows a bet again: no more own funds until it is spent
    assert K.TOP_UP not in t.game.legal_actions(2)
    err = t.illegal(K.TOP_UP, 2, amount=5)
    assert err.code == "top_up_too_early" and err.params == {"stack": 125, "min": 101}
    assert t.illegal(K.TOP_UP, 2, amount=0).code == "bad_amount"
    assert t.illegal(K.TOP_UP, 3, amount=5).code == "not_seated"
    assert t.illegal(K.JOIN, 2).code == "already_seated"
    assert t.illegal(K.JOIN, 3, amount=-1).code == "bad_amount"


def test_own_funds_at_any_time_without_a_welcome_stake() -> None:
    t = Table(0, welcome_stake=0, wager_requirement=0)
    t.do(K.JOIN, 1, amount=50)
    ev = t.do(K.JOIN, 2, amount=50)
    assert [(m.kind, m.amount) for m in ev[0].money] == [(MoneyKind.BUY_IN, 50)]
    t.do(K.TOP_UP, 2, amount=25)
    assert t.stack(2) == 75 and K.TOP_UP in t.game.legal_actions(2)


def test_table_full() -> None:
    t = Table(8)
    assert t.illegal(K.JOIN, 9).code == "table_full"
    assert K.JOIN not in t.game.legal_actions(9)


def play(t: Table, cards: str, bets: dict[int, int]) -> list[Event]:
    """A round: the host starts, each player bets in seat order, everybody stands."""
    t.game.rig(cards.split())
    events = t.do(K.START, t.game.host)
    for p, amount in bets.items():
        events += t.do(K.BET, p, amount=amount)
    for p in bets:
        if t.game.phase is Phase.PLAYING:
            events += t.do(K.DRAW, p, amount=0)
    return events


LOSE_2 = "TS 9S TH 5H TD 8D"  # host 19, player 2 15, bank 18
WIN_2 = "TS 9S TH 8H TD 7D"  # host 19, player 2 18, bank 17


def test_early_leave_forfeits_welcome_stake_and_winnings() -> None:
    t = Table(2, wager_requirement=200, min_bet=1)
    ev = play(t, LOSE_2, {1: 1, 2: 100})  # the welcome stake is lost: stack 0
    assert t.stack(2) == 0
    told = [e for e in ev if e.kind == "stack_empty"]
    assert [(e.visibility, e.player) for e in told] == [(Visibility.PRIVATE, 2)]
    t.do(K.TOP_UP, 2, amount=40)  # own = 40, stack 40
    assert t.game.leave_terms(2) == (0, 40)
    # a winning round below the requirement: the winnings are forfeited
    play(t, WIN_2, {1: 10, 2: 20})
    assert t.stack(2) == 40 - 20 + 30
    assert t.game.leave_terms(2) == (10, 40)
    err = t.illegal(K.LEAVE, 2)
    assert err.code == "forfeit_needs_confirmation"
    assert err.params["forfeit"] == 10 and err.params["keep"] == 40
    ev = t.do(K.LEAVE, 2, confirm=True)
    left = ev[0]
    assert left.data == {"reason": "leave", "keep": 40, "forfeit": 10, "wagered": 120}
    assert [(m.kind, m.src, m.dst, m.amount) for m in left.money] == [
        (MoneyKind.FORFEIT, "seat:2", "house", 10),
        (MoneyKind.CASH_OUT, "seat:2", "claim:2", 40),
    ]


def test_early_leave_after_losses_keeps_what_is_left() -> None:
    # the welcome stake is spent first: losses eat it before the own funds
    t = Table(2, min_bet=20, wager_requirement=300)
    play(t, LOSE_2, {1: 20, 2: 90})
    assert t.stack(2) == 10  # below the minimum bet: own funds are welcome
    t.do(K.TOP_UP, 2, amount=30)  # stack 40, own 30
    assert t.game.leave_terms(2) == (10, 30)
    play(t, LOSE_2, {1: 20, 2: 20})  # lose more: stack below the own funds
    assert t.stack(2) == 20 and t.game.wagered[2] == 110
    assert t.game.leave_terms(2) == (0, 20)
    ev = t.do(K.LEAVE, 2)  # nothing forfeited, no confirmation
    assert ev[0].data["forfeit"] == 0 and t.balances["claim:2"] == 20


def test_leave_after_wagering_requirement_keeps_everything() -> None:
    t = Table(2, min_bet=1)
    t.game.rig(["TS", "9S", "TH", "9H", "TD", "8D"])
    t.do(K.START, 1)
    t.do(K.BET, 1, amount=1)
    t.do(K.BET, 2, amount=100)  # T 9 = 19 vs bank T 8
    t.do(K.DRAW, 1, amount=0)
    t.do(K.DRAW, 2, amount=0)
    assert t.stack(2) == 150 and t.game.wagered[2] == 100
    ev = t.do(K.LEAVE, 2)
    assert ev[0].data["forfeit"] == 0
    assert [(m.kind, m.amount) for m in ev[0].money] == [(MoneyKind.CASH_OUT, 150)]
    assert t.balances["claim:2"] == 150


def test_cannot_leave_with_a_live_bet() -> None:
    t = rigged(2, "TS 9S TH 5H TD 8D")
    t.do(K.BET, 2, amount=10)
    assert K.LEAVE not in t.game.legal_actions(2)
    assert t.illegal(K.LEAVE, 2, confirm=True).code == "in_round"
    # a player who has not bet may leave mid-round
    assert K.LEAVE in t.game.legal_actions(1)


def test_a_stack_at_zero_keeps_the_seat_until_the_bets_close() -> None:
    t = Table(2, max_bet=200)
    play(t, "TS 5S TH 8H TD 8D", {1: 100, 2: 10})  # host: T 5 = 15, loses; 2 pushes
    assert t.stack(1) == 0 and [s.player for s in t.game.seats] == [1, 2]
    assert t.last("stack_empty").player == 1
    assert K.TOP_UP in t.game.legal_actions(1) and K.BET not in t.game.legal_actions(1)
    t.game.rig(["TS", "9S", "TD", "7D"])
    t.do(K.START, 1)  # the host at 0 may still deal the next round
    t.do(K.BET, 2, amount=10)
    assert t.game.phase is Phase.BETTING  # the bets wait for the player at 0
    ev = t.do(K.TIMEOUT)  # nothing added: the bets close without them
    left = [e for e in ev if e.kind == "left"]
    assert len(left) == 1 and left[0].player == 1
    assert left[0].data["reason"] == "empty_stack"
    assert [(m.kind, m.amount) for m in left[0].money] == []
    assert t.game.host == 2 and t.last("host_changed").data == {"previous": 1}
    assert [s.player for s in t.game.seats] == [2] and t.game.phase is Phase.PLAYING
    t.do(K.DRAW, 2, amount=0)
    # the last player at 0 who adds nothing: the table is empty and finishes
    play(t, "TS 5S TH 9H", {2: t.stack(2)})
    assert t.stack(2) == 0 and t.game.phase is Phase.BETWEEN_ROUNDS
    t.do(K.START, 2)
    ev = t.do(K.END_TURN, 2)
    assert "left" in t.kinds(ev) and t.game.phase is Phase.FINISHED
    assert t.last("closed").data == {"reason": "empty"}
    assert t.game.legal_actions(2) == frozenset()
    assert t.illegal(K.JOIN, 3).code == "game_over"


def test_a_stack_at_zero_topped_up_stays_in_the_game() -> None:
    t = Table(2, min_bet=1)
    play(t, LOSE_2, {1: 1, 2: 100})
    t.game.rig(WIN_2.split())
    t.do(K.START, 1)
    t.do(K.BET, 1, amount=10)
    t.do(K.TOP_UP, 2, amount=20)
    t.do(K.BET, 2, amount=20)
    assert t.game.phase is Phase.PLAYING and not [e for e in t.events if e.kind == "left"]


def test_golden_round_win_push_lose_with_rounding() -> None:
    t = Table(3)
    t.game.rig(["TS", "9S", "TH", "8H", "TD", "7D", "TC", "8C"])
    ev = t.do(K.START, 1)
    assert t.kinds(ev) == ["round_started", "shuffle"]
    assert t.game.deadline.kind is DeadlineKind.BET and t.game.phase is Phase.BETTING
    shuffle = ev[1]
    assert shuffle.visibility is Visibility.PUBLIC and len(shuffle.data["commitment"]) == 64
    ev = t.do(K.BET, 1, amount=15)
    assert t.kinds(ev) == ["bet", "dealt"]
    assert ev[1].data["cards"] == ["TS", "9S"]
    assert [(m.kind, m.src, m.dst, m.amount) for m in ev[0].money] == [
        (MoneyKind.BET, "seat:1", "pot", 15)
    ]
    t.do(K.BET, 2, amount=10)
    assert t.game.phase is Phase.BETTING
    ev = t.do(K.BET, 3, amount=10)  # everyone has bet: the first turn ends by itself
    assert t.kinds(ev) == ["bet", "dealt", "turn_ended", "bank_dealt", "bank_hole", "turn_started"]
    assert ev[2].data["by"] == "auto"
    assert ev[3].data == {"card": "TC", "value": 10, "hidden": 1}
    assert ev[4].visibility is Visibility.HIDDEN and ev[4].data["card"] == "8C"
    assert t.game.phase is Phase.PLAYING and t.game.deadline.kind is DeadlineKind.TURN
    assert t.game.public_view().own.bank.cards == ("TC", None)
    t.do(K.DRAW, 1, amount=0)
    t.do(K.DRAW, 2, amount=0)
    ev = t.do(K.DRAW, 3, amount=0)
    kinds = t.kinds(ev)
    assert kinds == [
        "stood",
        "turn_ended",
        "bank_reveal",
        "bank_done",
        "win",
        "push",
        "lose",
        "round_settled",
        "seed_revealed",
    ]
    win = ev[4]
    assert [(m.kind, m.src, m.amount, m.exact) for m in win.money] == [
        (MoneyKind.PAYOUT, "pot", 15, None),
        (MoneyKind.PAYOUT, "house", 7, "7.5"),
    ]
    assert [(m.kind, m.amount) for m in ev[5].money] == [(MoneyKind.REFUND, 10)]
    assert [(m.kind, m.src, m.dst, m.amount) for m in ev[6].money] == [
        (MoneyKind.LOSS, "pot", "house", 10)
    ]
    summary = ev[7].data
    assert summary["bank"]["total"] == 18
    assert [
        (r["player"], r["outcome"], r["gain"], r["gain_exact"], r["net"])
        for r in summary["results"]
    ] == [(1, "win", 7, "7.5", 7), (2, "push", 0, "0", 0), (3, "lose", 0, "0", -10)]
    assert summary["house_net"] == 3
    assert (t.stack(1), t.stack(2), t.stack(3)) == (107, 100, 90)
    seed = ev[8].data
    assert commitment(bytes.fromhex(seed["seed"])) == shuffle.data["commitment"]
    assert t.game.phase is Phase.BETWEEN_ROUNDS and t.game.deadline is None


def test_new_deck_every_round_and_decks_option() -> None:
    t = Table(1, decks=2)
    commits = []
    for _ in range(3):
        t.do(K.START, 1)
        assert t.game.cards_left == 104
        commits.append(t.last("shuffle").data["commitment"])
        t.do(K.BET, 1, amount=10)
        while t.game.phase is not Phase.BETWEEN_ROUNDS:
            t.do(K.TIMEOUT)
    assert len(set(commits)) == 3
    assert t.last("shuffle").data["spec"] == "std52*2"


def test_hole_card_hidden_until_the_bank_turn() -> None:
    t = rigged(1, "TS 5S 9D QH 3C")
    t.do(K.BET, 1, amount=10)
    public = [e for e in t.events if e.visibility is Visibility.PUBLIC]
    assert "QH" not in json.dumps([e.to_dict() for e in public])
    assert "QH" not in json.dumps(as_dict(t.game.public_view()))
    assert "QH" not in json.dumps(as_dict(t.game.private_view(1)))
    assert t.game.public_view().own.bank.total == 9
    ev = t.do(K.DRAW, 1, amount=1)  # 3 -> 18, then stands at the next turn
    assert "QH" not in json.dumps([e.to_dict() for e in ev])
    ev = t.do(K.DRAW, 1, amount=0)
    assert ev[2].kind == "bank_reveal" and ev[2].data["card"] == "QH"
    assert t.game.public_view().own.bank.cards == ("9D", "QH")


# ------------------------------------------------------------------ draws and aces


def test_several_aces_in_one_draw_are_chosen_in_order() -> None:
    t = rigged(1, "3S 2S TD 7D AH AC 3H")
    t.do(K.BET, 1, amount=10)  # 3 2 = 5; bank T 7
    ev = t.do(K.DRAW, 1, amount=3)
    assert t.kinds(ev) == ["drew", "ace_pending"]
    assert ev[0].data["cards"] == ["AH", "AC", "3H"]
    assert ev[1].data == {"index": 2, "card": "AH", "fallback": 11}
    assert t.game.to_act == 1
    assert t.game.legal_actions(1) >= {K.CHOOSE_ACE} and K.DRAW not in t.game.legal_actions(1)
    assert t.illegal(K.DRAW, 1, amount=1).code == "ace_pending"
    assert t.illegal(K.CHOOSE_ACE, 1, value=5).code == "bad_ace_value"
    ev = t.do(K.CHOOSE_ACE, 1, value=11)
    assert t.kinds(ev) == ["ace_chosen", "ace_pending"]
    assert ev[1].data == {"index": 3, "card": "AC", "fallback": 1}
    assert t.game.phase is Phase.PLAYING and t.game.turn == 2  # draw not finished yet
    ev = t.do(K.CHOOSE_ACE, 1, value=1)  # 5 + 11 + 1 + 3 = 20, draw done, turn over
    assert t.kinds(ev) == ["ace_chosen", "turn_ended", "turn_started"]
    assert t.game.public_view().seats[0].values == (3, 2, 11, 1, 3)
    assert t.game.public_view().seats[0].total == 20
    ev = t.do(K.DRAW, 1, amount=0)
    assert t.last("win").data["total"] == 20
    assert t.illegal(K.CHOOSE_ACE, 1, value=1).code == "no_ace_pending"


def test_choosing_11_can_bust() -> None:
    t = rigged(1, "TS 5S TD 7D AH")
    t.do(K.BET, 1, amount=10)
    t.do(K.DRAW, 1, amount=1)
    ev = t.do(K.CHOOSE_ACE, 1, value=11)  # 26: the holder's choice, a bust
    assert ev[1].kind == "bust"
    assert [(m.kind, m.src, m.dst, m.amount) for m in ev[1].money] == [
        (MoneyKind.LOSS, "pot", "house", 10)
    ]


def test_bust_loses_at_once_and_the_bank_still_plays() -> None:
    t = rigged(2, "TS 5S TH 7H 9D 7D 9C 8C 5D")
    t.do(K.BET, 1, amount=10)
    t.do(K.BET, 2, amount=10)  # bank 9 7 = 16
    ev = t.do(K.DRAW, 1, amount=2)  # 9 8 -> 32
    assert t.kinds(ev) == ["drew", "bust"]
    assert t.game.pot == 10 and t.stack(1) == 90
    assert K.DRAW not in t.game.legal_actions(1) and K.LEAVE in t.game.legal_actions(1)
    ev = t.do(K.DRAW, 2, amount=0)
    assert "bank_draw" in t.kinds(ev)  # 16 + 5 = 21
    assert t.last("bank_done").data == {"total": 21, "bust": False, "blackjack": False}
    assert [r["outcome"] for r in t.last("round_settled").data["results"]] == ["bust", "lose"]


def test_draw_limits() -> None:
    t = rigged(1, "TS 2S TD 7D")
    t.do(K.BET, 1, amount=10)
    assert t.game.max_draw() == 10
    err = t.illegal(K.DRAW, 1, amount=11)
    assert err.code == "draw_too_many" and err.params == {"max": 10}
    assert t.illegal(K.DRAW, 1, amount=-1).code == "bad_amount"
    assert t.illegal(K.DRAW, 2, amount=1).code == "not_seated"
    assert t.illegal(K.BET, 1, amount=5).code == "already_bet"  # a second bet this round


def test_initial_ace_needs_a_choice_and_blackjack_beats_bank_three_card_21() -> None:
    t = rigged(1, "AS KS 9D 7D 5C")
    ev = t.do(K.BET, 1, amount=10)
    assert t.kinds(ev) == ["bet", "dealt", "ace_pending"]
    assert t.game.phase is Phase.BETTING  # the choice is pending: the turn goes on
    ev = t.do(K.CHOOSE_ACE, 1, value=11)
    assert ev[1].kind == "stood" and ev[1].data["blackjack"] is True
    # nobody left to draw: the bank plays 9 7 + 5 = 21 in three cards
    assert "turn_started" not in t.kinds(ev)
    assert t.last("bank_done").data == {"total": 21, "bust": False, "blackjack": False}
    win = t.last("win")
    assert win.data["blackjack"] is True
    assert [m.amount for m in win.money] == [10, 5]


def test_ace_chosen_as_1_is_no_blackjack_and_bank_blackjack_beats_three_card_21() -> None:
    t = rigged(1, "AS KS AD QD TC")
    t.do(K.BET, 1, amount=10)
    t.do(K.CHOOSE_ACE, 1, value=1)  # A(1) K = 11
    assert t.game.public_view().seats[0].blackjack is False
    # bank: A (11, automatic) and a face-down Q
    assert t.last("bank_dealt").data == {"card": "AD", "value": 11, "hidden": 1}
    ev = t.do(K.DRAW, 1, amount=1)  # T -> 21 in three cards, stands by itself
    assert t.kinds(ev)[:2] == ["drew", "stood"]
    assert t.last("bank_reveal").data["blackjack"] is True
    lose = t.last("lose")
    assert lose.data["total"] == 21 and lose.data["blackjack"] is False
    assert [(m.kind, m.amount) for m in lose.money] == [(MoneyKind.LOSS, 10)]


def test_two_blackjacks_push() -> None:
    t = rigged(1, "AS QS KD AD")
    t.do(K.BET, 1, amount=10)
    t.do(K.CHOOSE_ACE, 1, value=11)
    assert t.last("bank_reveal").data == {
        "card": "AD",
        "value": 11,
        "cards": ["KD", "AD"],
        "total": 21,
        "blackjack": True,
    }
    push = t.last("push")
    assert [(m.kind, m.amount) for m in push.money] == [(MoneyKind.REFUND, 10)]


def test_player_blackjack_against_bank_20_is_a_normal_win() -> None:
    t = rigged(1, "KS AS KD QD")
    t.do(K.BET, 1, amount=11)
    t.do(K.CHOOSE_ACE, 1, value=11)
    win = t.last("win")
    assert [(m.amount, m.exact) for m in win.money] == [(11, None), (5, "5.5")]


def test_bank_aces_are_automatic() -> None:
    t = rigged(1, "TS 8S AD AC 4H 9S")
    t.do(K.BET, 1, amount=10)
    assert t.last("bank_hole").data == {"card": "AC", "value": 1}  # 11 + 11 would bust
    t.do(K.DRAW, 1, amount=0)
    # A(11) A(1) = 12, 4 -> 16, 9 -> 25: bust
    assert t.last("round_settled").data["bank"]["values"] == [11, 1, 4, 9]
    assert t.last("round_settled").data["bank"]["bust"] is True


@pytest.mark.parametrize(
    ("bonus", "bet", "gain", "exact"),
    [
        (5, 10, 5, "5"),
        (5, 1, 5, "5"),
        ("half", 15, 7, "7.5"),
        ("half", 1, 0, "0.5"),
        (0, 10, 0, "0"),
    ],
)
def test_bank_bust_bonus(bonus: int | str, bet: int, gain: int, exact: str) -> None:
    t = rigged(1, "TS 2S TD 6D 9C", bank_bust_bonus=bonus, min_bet=1)  # 12 stands, bank 16 + 9
    t.do(K.BET, 1, amount=bet)
    t.do(K.DRAW, 1, amount=0)
    assert t.last("bank_done").data == {"total": 25, "bust": True, "blackjack": False}
    result = t.last("bank_bust")
    assert result.player == 1 and result.data["total"] == 12
    amounts = [(m.src, m.amount, m.exact) for m in result.money]
    assert amounts[0] == ("pot", bet, None)
    if gain or exact != "0":
        assert amounts[1] == ("house", gain, exact)
    else:
        assert len(amounts) == 1
    assert t.stack(1) == 100 + gain
    assert result.data["gain_exact"] == exact


# ------------------------------------------------------------------ turns and timers


def test_timeouts_first_turn_and_following_turns() -> None:
    t = rigged(3, "TS 4S AH 9H TD 7D 2S")
    t.do(K.BET, 1, amount=10)  # T 4 = 14
    t.do(K.BET, 2, amount=10)  # A 9: choice pending at the timeout
    assert t.game.to_act == 2
    assert t.game.phase is Phase.BETTING
    ev = t.do(K.TIMEOUT)  # player 3 never bet: sits out; ace -> 11 (20)
    assert t.kinds(ev)[:3] == ["ace_chosen", "sat_out", "turn_ended"]
    assert ev[0].data["auto"] is True and ev[0].data["value"] == 11
    assert ev[1].player == 3 and ev[1].data == {"auto": "timeout"}
    assert t.game.public_view().seats[2].status == "out"
    assert t.game.to_act is None  # players 1 and 2 may both draw
    t.do(K.DRAW, 1, amount=1)  # 2 -> 16, stays in; the turn waits for player 2
    assert t.game.to_act == 2
    ev = t.do(K.TIMEOUT)  # player 2 did not move: stands; player 1 plays on
    assert t.kinds(ev) == ["stood", "turn_ended", "turn_started"]
    assert ev[0].player == 2 and ev[0].data["auto"] == "timeout"
    assert ev[2].data["players"] == [1]
    ev = t.do(K.TIMEOUT)
    assert ev[0].kind == "stood" and ev[0].player == 1
    assert t.game.phase is Phase.BETWEEN_ROUNDS
    outcomes = {r["player"]: r["outcome"] for r in t.last("round_settled").data["results"]}
    # bank T 7 = 17: player 1 (16) loses, player 2 (A9 = 20) wins
    assert outcomes == {1: "lose", 2: "win"}


def test_pending_ace_fallback_on_timeout_uses_1_when_11_busts() -> None:
    t = rigged(1, "TS 6S TD 7D AH")
    t.do(K.BET, 1, amount=10)
    t.do(K.DRAW, 1, amount=1)
    ev = t.do(K.TIMEOUT)
    assert ev[0].kind == "ace_chosen" and ev[0].data["value"] == 1 and ev[0].data["auto"]
    # the player did draw this turn: still in at 17 for the next turn
    assert t.kinds(ev) == ["ace_chosen", "turn_ended", "turn_started"]
    assert t.game.public_view().seats[0].total == 17


def test_host_ends_turns_and_non_host_cannot() -> None:
    t = rigged(2, "TS 4S TH 5H TD 7D")
    assert t.illegal(K.END_TURN, 2).code == "not_host"
    assert t.illegal(K.TIMEOUT, 1).code == "system_only"
    t.do(K.BET, 2, amount=10)
    ev = t.do(K.END_TURN, 1)  # the host did not bet: sits out
    assert ev[0].kind == "sat_out" and ev[0].player == 1
    assert t.last("turn_ended").data["by"] == "host"
    ev = t.do(K.END_TURN, 1)  # player 2 did not draw: stands, bank plays
    assert ev[0].kind == "stood" and ev[0].data["auto"] == "host"
    assert t.game.phase is Phase.BETWEEN_ROUNDS
    assert t.illegal(K.END_TURN, 1).code == "wrong_phase"
    assert t.illegal(K.TIMEOUT).code == "wrong_phase"


def test_round_nobody_bets_is_void() -> None:
    t = rigged(2, "TS 4S")
    t.do(K.SIT_OUT, 1)
    assert t.illegal(K.BET, 1, amount=5).code == "not_betting"
    ev = t.do(K.SIT_OUT, 2)
    assert t.kinds(ev) == ["sat_out", "turn_ended", "round_cancelled", "seed_revealed"]
    assert t.game.phase is Phase.BETWEEN_ROUNDS


def test_bet_validation_and_start_rules() -> None:
    t = Table(2, min_bet=2, max_bet=50)
    assert t.illegal(K.START, 2).code == "not_host"
    assert t.illegal(K.BET, 1, amount=5).code == "wrong_phase"
    t.do(K.START, 1)
    assert t.illegal(K.START, 1).code == "wrong_phase"
    assert t.illegal(K.BET, 1, amount=1).code == "bet_out_of_range"
    assert t.illegal(K.BET, 1, amount=51).code == "bet_out_of_range"
    assert t.illegal(K.BET, 1).code == "bet_out_of_range"
    assert t.illegal(K.BET, 3, amount=5).code == "not_seated"
    t2 = Table(1, welcome_stake=20)
    t2.do(K.START, 1)
    err = t2.illegal(K.BET, 1, amount=30)
    assert err.code == "insufficient_stack" and err.params == {"needed": 30, "stack": 20}
    t3 = Casino21(host=1)
    with pytest.raises(IllegalAction) as info:
        t3.apply(Action(K.START, 1))
    assert info.value.code == "not_seated"
    with pytest.raises(IllegalAction) as info:
        t.game.apply(Action(K.HIT, 1))
    assert info.value.code == "unknown_action"


def test_late_joiner_waits_for_the_next_round() -> None:
    t = rigged(1, "TS 4S TD 7D")
    t.do(K.BET, 1, amount=10)
    t.do(K.JOIN, 2)
    assert t.game.public_view().seats[1].status == "out"
    assert K.DRAW not in t.game.legal_actions(2)
    assert t.illegal(K.DRAW, 2, amount=1).code == "not_in_round"


def test_join_during_first_turn_can_bet() -> None:
    t = rigged(1, "TS 4S TH 5H TD 7D")
    t.do(K.JOIN, 2)
    assert K.BET in t.game.legal_actions(2)
    t.do(K.BET, 2, amount=13)
    assert t.game.phase is Phase.BETTING  # host has not bet yet


def test_close_refunds_then_settles_every_seat_as_a_leave() -> None:
    t = rigged(2, "TS 4S TH 5H TD 7D")
    t.do(K.BET, 1, amount=10)
    t.do(K.BET, 2, amount=20)
    assert t.illegal(K.CLOSE, 2).code == "system_only"
    ev = t.do(K.CLOSE)
    assert t.kinds(ev) == [
        "round_refunded",
        "seed_revealed",  # the round's shoe
        "seed_revealed",  # the next round's, committed with it
        "left",
        "left",
        "closed",
    ]
    # below the wagering requirement, with no own funds: the welcome stakes go back
    left = [e for e in ev if e.kind == "left"]
    assert [(e.data["reason"], e.data["forfeit"], e.data["keep"]) for e in left] == [
        ("close", 100, 0),
        ("close", 100, 0),
    ]
    assert t.balances["claim:1"] == 0 and t.balances["claim:2"] == 0
    assert t.balances["house"] == 0  # everything the casino gave came back
    assert t.balances["pot"] == 0 and t.game.phase is Phase.FINISHED
    assert ev[-1].data == {"reason": "closed"}


def test_system_close_between_rounds_keeps_own_funds_and_met_requirements() -> None:
    t = Table(3)
    t.game.rig(["TS", "9S", "TH", "9H", "TD", "7D", "9C", "8D"])
    t.do(K.START, 1)
    t.do(K.BET, 1, amount=100)  # T 9 = 19 against the bank's 17: +50, requirement met
    t.do(K.BET, 2, amount=100)  # T 9 = 19: +50, met
    t.do(K.SIT_OUT, 3)
    t.do(K.DRAW, 1, amount=0)
    t.do(K.DRAW, 2, amount=0)
    t.do(K.LEAVE, 2)
    t.do(K.JOIN, 2, amount=30)  # rejoins with own funds only: nothing to forfeit
    ev = t.do(K.CLOSE)
    assert ev[-1].data == {"reason": "closed"}
    terms = {e.player: (e.data["forfeit"], e.data["keep"]) for e in ev if e.kind == "left"}
    assert terms == {1: (0, 150), 2: (0, 30), 3: (100, 0)}
    assert t.balances["claim:1"] == 150 and t.balances["claim:2"] == 150 + 30


def test_legal_actions_and_views() -> None:
    t = Table(2)
    g = t.game
    assert g.legal_actions(1) == {K.START, K.LEAVE}
    assert g.legal_actions(2) == {K.LEAVE}
    assert g.legal_actions(3) == {K.JOIN}
    assert g.legal_actions(None) == {K.START, K.CLOSE}
    t.do(K.START, 1)
    assert g.legal_actions(2) == {K.LEAVE, K.BET, K.SIT_OUT}
    assert g.legal_actions(None) == {K.CLOSE, K.TIMEOUT}
    view = g.private_view(2)
    assert view.you.player == 2 and "bet" in view.you.legal
    assert view.table.seats[1].leave_forfeit == 100
    json.dumps(as_dict(view))


def test_a_forfeiting_leave_is_legal_but_asks_for_its_confirmation() -> None:
    g = Casino21(host=1, entropy=seeded_entropy("legal"))
    g.apply(Action(K.JOIN, 1))
    assert K.LEAVE in g.legal_actions(1) and g.leave_terms(1) == (100, 0)
    with pytest.raises(IllegalAction) as err:
        g.apply(Action(K.LEAVE, 1))
    assert err.value.code == "forfeit_needs_confirmation"
    assert g.apply(Action(K.LEAVE, 1, confirm=True))[0].kind == "left"


# ------------------------------------------------------------------ helpers


def test_fallback_and_settle_rules() -> None:
    assert fallback_ace([None]) == 11
    assert fallback_ace([10, None]) == 11
    assert fallback_ace([10, 5, None]) == 1
    assert fallback_ace([None, None]) == 11
    assert fallback_ace([11, None]) == 1
    assert settle_outcome(21, True, 21, False) == "win"
    assert settle_outcome(21, False, 21, True) == "lose"
    assert settle_outcome(21, True, 21, True) == "push"
    assert settle_outcome(21, True, 25, False) == "bank_bust"
    assert settle_outcome(12, False, 22, False) == "bank_bust"
    assert settle_outcome(20, False, 19, False) == "win"
    assert settle_outcome(19, False, 19, False) == "push"
    assert settle_outcome(18, False, 19, False) == "lose"
