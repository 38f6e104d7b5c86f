"""The TableGame base on its own, through a toy game that overrides only the hooks a game
must: what every game gets from the base (seats, bets, turns, deadlines, the shoe and its
seeds, rigging, leaving and closing, votes, snapshots, legal actions)."""

from __future__ import annotations

import contextlib
import random
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

import pytest

from bot.engine.base import (
    ROUND_SETTLED,
    Action,
    ActionKind,
    DeadlineKind,
    Event,
    IllegalAction,
    MoneyKind,
    Phase,
    Seat,
    TableGame,
    keep_only,
    pro_rata,
)
from bot.engine.cards import Card
from bot.engine.options import GameOptions, OptionKind, OptionSpec
from bot.engine.shuffle import Shoe, seeded_entropy
from tests.engine.legal_probe import brute_force

K = ActionKind

OPTIONS = (
    OptionSpec("min_bet", OptionKind.INT, 1, "smallest bet", "mise minimale", min=1, max=100),
    OptionSpec("spare", OptionKind.BOOL, False, "commit ahead", "engager d'avance"),
)


@dataclass(frozen=True, slots=True)
class HighOptions(GameOptions):
    SPECS = OPTIONS
    min_bet: int = 1
    spare: bool = False


class HighCard(TableGame[Seat]):
    """Bet, one card each and one for the house, each player stands in turn; a higher
    card than the house's wins the bet, else it is lost."""

    GAME: ClassVar[str] = "high"
    Options = HighOptions
    MAX_PLAYERS = 4
    MOVES: ClassVar[Mapping[Phase, tuple[ActionKind, ...]]] = {Phase.PLAYING: (K.STAND,)}
    TOP_UP_PHASES = frozenset({Phase.LOBBY, Phase.BETWEEN_ROUNDS})
    VOTE_STOP = True
    KEEP_PLACE = True
    options: HighOptions

    def init_state(self) -> None:
        self.cards: dict[int, str] = {}
        self.house: str | None = None

    def deck_spec(self) -> str:
        return "std52"

    def uses_spare(self) -> bool:
        return self.options.spare

    def bet_range(self, seat: Seat) -> tuple[int, int]:
        return self.options.min_bet, 50

    def start_round(self, events: list[Event]) -> None:
        self.begin_round()
        self.cards, self.house = {}, None
        if self.shoe is None or self.shoe.remaining < 10:
            self.new_shoe(events)
        self.open_bets([s.player for s in self.seats if s.stack >= self.options.min_bet])

    def deal(self, events: list[Event]) -> None:
        players = [s.player for s in self.seats if s.bet]
        for p in players:
            self.cards[p] = self.draw(events).code
        self.house = self.draw(events).code
        self.phase = Phase.PLAYING
        self.wait_for(players)

    def refuse_move(self, action: Action, seat: Seat) -> IllegalAction | None:
        if action.kind is not K.STAND:
            return super().refuse_move(action, seat)
        if self.phase is not Phase.PLAYING:
            return IllegalAction("wrong_phase")
        if self.to_act != seat.player:
            return IllegalAction("not_your_turn")
        return None

    def play(self, action: Action, seat: Seat, events: list[Event]) -> None:
        self._stand(events)

    def on_timeout(self, events: list[Event]) -> None:
        if self.phase is Phase.PLAYING:
            self._stand(events)
        else:
            super().on_timeout(events)  # the bets: whoever did not bet sits out

    def _stand(self, events: list[Event]) -> None:
        self.waiting.pop(0)
        if self.waiting:
            return
        assert self.house is not None
        house = Card.parse(self.house).rank.pip
        money = []
        for p, code in self.cards.items():
            s = self._seat_of[p]
            net = s.bet if Card.parse(code).rank.pip > house else -s.bet
            money += self.settle_bet(s, s.bet, net)
        self.last_summary = {"round": self.round, "results": list(self.cards)}
        events.append(Event(ROUND_SETTLED, data=self.last_summary, money=tuple(money)))
        self.end_round(events)
        if self.stop_voted:
            self.finish(events, "vote")

    def view(self, out: dict[str, Any]) -> None:
        out["cards"] = dict(self.cards) if self.phase is Phase.BETWEEN_ROUNDS else {}

    def state_dict(self) -> dict[str, Any]:
        return {"cards": [[p, c] for p, c in self.cards.items()], "house": self.house}

    def load_state(self, data: Mapping[str, Any]) -> None:
        self.cards = {int(p): str(c) for p, c in data["cards"]}
        self.house = data["house"]


def new(players: tuple[int, ...] = (1, 2, 3), **options: Any) -> HighCard:
    g = HighCard(options, host=players[0], entropy=seeded_entropy("base"))
    for p in players:
        g.apply(Action(K.JOIN, p, amount=100))
    return g


def kinds(events: list[Event]) -> list[str]:
    return [e.kind for e in events]


def wallet_net(events: list[Event]) -> int:
    """What the table took from wallets and the house minus what it gave back to them."""
    net = 0
    for e in events:
        for m in e.money:
            inside = ("seat:", "pot")
            net += m.amount * (m.dst.startswith(inside) - m.src.startswith(inside))
    return net


def test_the_first_start_commits_before_any_card_and_bets_go_in_any_order() -> None:
    g = new()
    events = g.apply(Action(K.START, 1))
    assert kinds(events) == ["shuffle"] and events[0].data["number"] == 1
    assert g.phase is Phase.BETTING and g.waiting == [1, 2, 3] and g.to_act is None
    assert g.deadline is not None and g.deadline.kind is DeadlineKind.BET
    g.apply(Action(K.BET, 3, amount=5))
    with pytest.raises(IllegalAction) as err:
        g.apply(Action(K.BET, 3, amount=5))
    assert err.value.code == "already_bet"
    with pytest.raises(IllegalAction) as err:
        g.apply(Action(K.BET, 1, amount=51))
    assert (err.value.code, err.value.params["max"]) == ("bet_out_of_range", 50)
    assert g.pot == 5 and g.seat_of(3).in_pot == 5  # type: ignore[union-attr]


def test_the_timer_sits_out_whoever_did_not_bet_and_turns_run_in_seat_order() -> None:
    g = new()
    g.apply(Action(K.START, 1))
    g.apply(Action(K.BET, 2, amount=5))
    events = g.apply(Action(K.TIMEOUT))
    assert [(e.kind, e.player) for e in events if e.kind == "sat_out"] == [
        ("sat_out", 1),
        ("sat_out", 3),
    ]
    assert g.phase is Phase.PLAYING and g.to_act == 2
    assert g.deadline is not None and g.deadline.key == "playing:turn:2:1"
    with pytest.raises(IllegalAction) as err:
        g.apply(Action(K.STAND, 1))
    assert err.value.code == "not_your_turn"
    assert g.legal_actions(1) == {K.LEAVE, K.VOTE_STOP}
    events = g.apply(Action(K.STAND, 2))
    assert ROUND_SETTLED in kinds(events) and g.phase is Phase.BETWEEN_ROUNDS
    assert g.deadline is None and g.pot == 0


def test_nobody_bets_cancels_the_round() -> None:
    g = new()
    g.apply(Action(K.START, 1))
    events = g.apply(Action(K.TIMEOUT))
    assert kinds(events)[-1] == "round_cancelled" and g.phase is Phase.BETWEEN_ROUNDS


def test_a_player_sitting_down_again_keeps_their_place_and_the_host_passes_on() -> None:
    g = new()
    events = g.apply(Action(K.LEAVE, 1))
    left = events[0]
    assert (left.kind, left.data) == ("left", {"reason": "leave", "keep": 100, "forfeit": 0})
    assert [(m.kind, m.dst, m.amount) for m in left.money] == [(MoneyKind.CASH_OUT, "claim:1", 100)]
    assert g.host == 2 and events[1].kind == "host_changed" and events[1].data == {"previous": 1}
    g.apply(Action(K.JOIN, 1, amount=10))
    assert g.seated() == [1, 2, 3]  # KEEP_PLACE


def test_close_mid_round_refunds_every_stake_reveals_every_seed_and_empties_every_seat() -> None:
    g = new(spare=True)
    start = g.apply(Action(K.START, 1))
    committed = {start[0].data["commitment"], start[0].data["next_commitment"]}
    g.apply(Action(K.BET, 1, amount=7))
    events = g.apply(Action(K.CLOSE))
    assert kinds(events) == ["round_refunded", "seed_revealed", "seed_revealed"] + ["left"] * 3 + [
        "closed"
    ]
    assert events[0].data == {"round": 1, "refunds": [{"player": 1, "amount": 7}]}
    assert {e.data["commitment"] for e in events if e.kind == "seed_revealed"} == committed
    assert [e.data["keep"] for e in events if e.kind == "left"] == [100, 100, 100]
    assert wallet_net(events) == -300 and g.pot == 0 and g.phase is Phase.FINISHED
    with pytest.raises(IllegalAction) as err:
        g.apply(Action(K.START, 2))
    assert err.value.code == "game_over"


def test_a_majority_vote_ends_the_game_between_rounds() -> None:
    g = new()
    with pytest.raises(IllegalAction):
        g.apply(Action(K.VOTE_STOP, 1))  # not in the lobby
    g.apply(Action(K.START, 1))
    g.apply(Action(K.TIMEOUT))  # nobody bet: between rounds
    events = g.apply(Action(K.VOTE_STOP, 1))
    assert events[0].data["majority"] is False and g.phase is Phase.BETWEEN_ROUNDS
    events = g.apply(Action(K.VOTE_STOP, 2))
    assert events[0].data == {"votes": 2, "needed": 2, "majority": True, "ends_after_round": False}
    assert kinds(events)[-1] == "closed" and events[-1].data == {"reason": "vote"}


def test_rig_deals_these_cards_first_then_the_shoe_without_them() -> None:
    g, twin = new(players=(1,)), new(players=(1,))
    for game in (g, twin):
        game.apply(Action(K.START, 1))
    order = twin.shoe.order  # type: ignore[union-attr]
    g.rig([order[3].code])
    dealt = [g.draw([]) for _ in range(5)]
    assert dealt == [order[3], order[0], order[1], order[2], order[4]]
    assert g.cards_left == 52 - 5


def test_rig_only_ends_the_shoe_after_the_rigged_cards() -> None:
    g = new(players=(1,))
    g.apply(Action(K.START, 1))
    g.rig(["AS", "AS"], only=True)
    assert g.cards_left == 2
    events: list[Event] = []
    assert [g.draw(events), g.draw(events)] == [Card.parse("AS")] * 2 and events == []
    g.draw(events)  # the rigged shoe is over: the next one, committed first
    assert kinds(events) == ["shuffle"] and events[0].data["number"] == 2
    g.end_round(events)  # the old shoe's seed once the round is over
    assert kinds(events) == ["shuffle", "seed_revealed"]


def test_keep_only_orders_the_kept_cards_as_the_deck_does() -> None:
    order = Shoe("std52", b"s" * 32).order
    kept = [order[9], order[2], order[9]]  # a card the deck has once: the copy follows
    assert keep_only(order, kept) == [order[2], order[9], order[9]]


def test_settle_bet_moves_the_stake_and_the_winnings() -> None:
    g = new(players=(1,))
    g.apply(Action(K.START, 1))
    g.apply(Action(K.BET, 1, amount=10))
    s = g.seat_of(1)
    assert s is not None
    money = g.settle_bet(s, 10, -5, "4.5")
    assert [(m.kind, m.amount, m.exact) for m in money] == [
        (MoneyKind.REFUND, 5, "4.5"),
        (MoneyKind.LOSS, 5, None),
    ]
    assert (s.stack, s.in_pot, g.pot) == (95, 0, 0)


def test_legal_actions_agree_with_the_checks_and_snapshots_play_on_identically() -> None:
    rng = random.Random(3)
    for n in range(20):
        g = new(spare=bool(n % 2))
        for _ in range(60):
            copy = HighCard.from_dict(g.to_dict(), entropy=seeded_entropy("base"))
            assert copy.to_dict() == g.to_dict()
            for who in (None, 1, 2, 3, 4):
                assert g.legal_actions(who) == brute_force(g, who)
            # in a fixed order (a frozenset's order follows the members' ids)
            people = (None, 1, 2, 3, 4)
            kinds = {p: sorted(g.legal_actions(p), key=lambda k: k.value) for p in people}
            moves = [(p, k) for p in people for k in kinds[p]]
            if not moves:
                break
            p, k = rng.choice(moves)
            action = Action(k, p, amount=rng.randint(1, 20))
            with contextlib.suppress(IllegalAction):
                events = g.apply(action)
                assert [e.to_dict() for e in copy.apply(action)] == [e.to_dict() for e in events]
            stakes = sum(s.in_pot for s in g.seats)
            assert g.pot == stakes >= 0


class FreshDeck(HighCard):
    """The same game with a new deck every round (Casino 21, Sept et demi)."""

    SHOE_PER_ROUND = True

    def start_round(self, events: list[Event]) -> None:
        self.begin_round()
        self.new_shoe(events)
        self.open_bets([s.player for s in self.seats])


def test_a_deck_per_round_is_revealed_when_its_round_ends() -> None:
    g = FreshDeck({}, host=1, entropy=seeded_entropy("fresh"))
    g.apply(Action(K.JOIN, 1, amount=50))
    shuffle = g.apply(Action(K.START, 1))[0]
    g.apply(Action(K.BET, 1, amount=5))
    events = g.apply(Action(K.STAND, 1))
    revealed = [e for e in events if e.kind == "seed_revealed"]
    assert [e.data["commitment"] for e in revealed] == [shuffle.data["commitment"]]
    assert g.shoe is None and kinds(events).index(ROUND_SETTLED) < kinds(events).index(
        "seed_revealed"
    )
    assert g.apply(Action(K.START, 1))[0].data["number"] == 2


def test_pro_rata_pays_all_it_can_in_whole_units() -> None:
    assert pro_rata([5, 3], 10) == ([5, 3], [None, None])  # enough: everything
    # 7 of 10 owed: 3.5, 2.1, 1.4 rounded down (3, 2, 1), the unit left to the first
    assert pro_rata([5, 3, 2], 7) == ([4, 2, 1], ["7/2", "21/10", "7/5"])
    assert pro_rata([4, 4], 2) == ([1, 1], [None, None])
    shares, _ = pro_rata([9, 1, 1], 5)
    assert sum(shares) == 5 and all(s <= r for s, r in zip(shares, [9, 1, 1], strict=True))
