"""Black Jack (``blackjack``, also ``classic``): one seat against the dealer.

Every round is played by :class:`~bot.engine.games.blackjack.BlackjackGame` itself: the seat bets
``bet``, never insures, and moves with a fixed strategy (:mod:`.basic_strategy`) from its
hand, the dealer's up card and the moves ``legal_actions`` allows. The stack is large
enough to cover every stake.

``--decks 1..8`` deals from the table's shoe (reshuffled at the table's penetration).
``--decks inf`` deals from an infinite deck (every card drawn uniformly from a 52-card
pack, with replacement, the textbook figures): the simulator feeds those cards to the
engine through its rigged-cards hook ahead of every move, and checks that the shoe itself
never dealt.

The dealer outcome is "played out": when the dealer does not draw (every hand busted or
surrendered) the statistic still draws the cards that would have come, without dealing
them, so the figures are the dealer's own whatever the player did.
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..base import Action, ActionKind, Event, Phase
from ..cards import Card, pack52
from ..games.blackjack import PAYOUT_RATIOS, BlackjackGame, BlackjackOptions, dealer_should_hit
from ..hands import bj_total
from ..shuffle import seeded_entropy
from .base import Mean, Simulator, rate, text_rows, timing
from .basic_strategy import DOUBLE, HIT, SPLIT, STAND, STRATEGIES, SURRENDER, Strategy

PLAYER = 1
BET = 10
DEALER_OUTCOMES = ("17", "18", "19", "20", "21", "blackjack", "bust")
#: The events that deal one card each (player cards, the dealer's up card and draws, hole).
CARD_EVENTS = frozenset({"card", "dealer_card", "hole_card"})
#: Infinite deck: the cards rigged ahead, topped up before a move when fewer than RIG_LOW
#: are left (one move deals at most 15: the deal and the dealer's draws, or a hit or a
#: split and the dealer's draws; the dealer draws at most 11 cards).
RIG_AHEAD = 48
RIG_LOW = 16

_MOVES: dict[str, ActionKind] = {
    HIT: ActionKind.HIT,
    STAND: ActionKind.STAND,
    DOUBLE: ActionKind.DOUBLE,
    SPLIT: ActionKind.SPLIT,
    SURRENDER: ActionKind.SURRENDER,
}
_ACTIONS: dict[str, Action] = {m: Action(k, PLAYER) for m, k in _MOVES.items()}
_NO_INSURANCE = Action(ActionKind.NO_INSURANCE, PLAYER)
_START = Action(ActionKind.START, PLAYER)


class _Cards:
    """Where the cards come from: before/after each move, and a peek at the next ones."""

    def before(self, game: BlackjackGame) -> None:
        """Called before each move."""

    def after(self, events: Sequence[Event]) -> None:
        """Called with each move's events."""

    def peek(self, game: BlackjackGame, k: int) -> Card:
        """The k-th card after the last one dealt, without dealing it."""
        raise NotImplementedError


class _Shoe(_Cards):
    """The table's own shoe; a peek reads its committed order (wrapping at its end)."""

    def __init__(self) -> None:
        self._shoe: object = None
        self._order: list[Card] = []

    def peek(self, game: BlackjackGame, k: int) -> Card:
        shoe = game.shoe
        assert shoe is not None
        if shoe is not self._shoe:  # the order is computed once per shoe
            self._shoe, self._order = shoe, shoe.order
        return self._order[(shoe.pos + k) % len(self._order)]


class _Infinite(_Cards):
    """Cards drawn with replacement, rigged into the engine ahead of every move."""

    def __init__(self, seed: str) -> None:
        self._rng = random.Random(f"simulate:blackjack:{seed}")
        self._pack = pack52()
        self._ahead: list[Card] = []  # the next cards, in order
        self._rigged = 0  # how many of them the engine holds rigged

    def _fill(self, n: int) -> None:
        pack, below = self._pack, self._rng.randrange
        while len(self._ahead) < n:
            self._ahead.append(pack[below(52)])

    def before(self, game: BlackjackGame) -> None:
        if self._rigged < RIG_LOW:  # re-rigging every move would cost a third of the time
            self._fill(RIG_AHEAD)
            game.rig([c.code for c in self._ahead])
            self._rigged = len(self._ahead)

    def after(self, events: Sequence[Event]) -> None:
        dealt = sum(1 for e in events if e.kind in CARD_EVENTS)
        if dealt > self._rigged:  # pragma: no cover - RIG_LOW makes this impossible
            raise RuntimeError("a move dealt more cards than were rigged")
        del self._ahead[:dealt]
        self._rigged -= dealt

    def peek(self, game: BlackjackGame, k: int) -> Card:
        self._fill(k + 1)
        return self._ahead[k]


@dataclass(slots=True)
class _Tally:
    """What the rounds added up to."""

    net: Mean = field(default_factory=Mean)
    naturals: int = 0
    cards: int = 0
    outcomes: dict[str, int] = field(default_factory=lambda: dict.fromkeys(DEALER_OUTCOMES, 0))


def _apply(game: BlackjackGame, cards: _Cards, action: Action) -> list[Event]:
    cards.before(game)
    events = game.apply(action)
    cards.after(events)
    return events


class _Allowed:
    """The moves the engine allows the seat now, asked only if the strategy wants to know
    (``legal_actions`` checks every move: a fifth of the time of a round)."""

    __slots__ = ("_game", "_legal", "_split")

    def __init__(self, game: BlackjackGame, split: bool) -> None:
        self._game = game
        self._split = split
        self._legal: frozenset[ActionKind] | None = None

    def __contains__(self, move: object) -> bool:
        if move in (HIT, STAND):
            return True
        if move == SPLIT and not self._split:
            return False
        if self._legal is None:
            self._legal = self._game.legal_actions(PLAYER)
        return isinstance(move, str) and _MOVES.get(move) in self._legal


def _move(game: BlackjackGame, strategy: Strategy, split: bool) -> Action:
    """The seat's next move: no insurance, else the strategy's move among the legal ones
    (never a split with ``split`` False)."""
    if game.phase is Phase.INSURANCE:
        return _NO_INSURANCE
    hand = game.hands[game.current]
    return _ACTIONS[strategy(hand.cards, game.dealer[0], _Allowed(game, split))]


def play_round(
    game: BlackjackGame, cards: _Cards, strategy: Strategy, bet: Action, split: bool = True
) -> list[Event]:
    """One whole round through the engine; all its events."""
    events = _apply(game, cards, _START)
    events += _apply(game, cards, bet)
    while game.phase is not Phase.BETWEEN_ROUNDS:
        events += _apply(game, cards, _move(game, strategy, split))
    return events


def _dealer_outcome(summary: Mapping[str, Any], game: BlackjackGame, cards: _Cards) -> str:
    """The dealer's final hand, drawing (without dealing) what the dealer skipped."""
    if summary["dealer_blackjack"]:
        return "blackjack"
    hand = [Card.parse(c) for c in summary["dealer"]]
    k = 0
    while dealer_should_hit(bj_total(hand), game.options.dealer_hits_soft_17):
        hand.append(cards.peek(game, k))
        k += 1
    total = bj_total(hand)
    return "bust" if total.bust else str(total.value)


def _record(tally: _Tally, events: Sequence[Event], game: BlackjackGame, cards: _Cards) -> None:
    summary: Mapping[str, Any] = {}
    for e in events:
        if e.kind in CARD_EVENTS:
            tally.cards += 1
        elif e.kind == "blackjack":
            tally.naturals += 1
        elif e.kind == "round_settled":
            summary = e.data
    tally.net.add(sum(int(row["net"]) for row in summary["net"]))
    tally.outcomes[_dealer_outcome(summary, game, cards)] += 1


def _decks(text: str) -> int | None:
    if text == "inf":
        return None
    try:
        value = int(text)
    except ValueError:
        value = 0
    if not 1 <= value <= 8:
        raise argparse.ArgumentTypeError("decks must be 1-8 or inf")
    return value


def simulate(
    *,
    rounds: int,
    seed: str,
    decks: int | None,
    strategy: str,
    opts: BlackjackOptions,
    bet: int = BET,
    split: bool = True,
) -> dict[str, Any]:
    """Play ``rounds`` rounds and return the statistics (``decks=None``: infinite deck;
    ``split=False``: the seat never splits, as no table option can forbid it)."""
    game = BlackjackGame(opts, host=PLAYER, entropy=seeded_entropy(f"simulate:blackjack:{seed}"))
    game.apply(Action(ActionKind.JOIN, PLAYER, amount=10**15))
    cards: _Cards = _Shoe() if decks is not None else _Infinite(seed)
    strat = STRATEGIES[strategy](h17=opts.dealer_hits_soft_17, das=opts.double)
    bet_action = Action(ActionKind.BET, PLAYER, amount=bet)
    tally = _Tally()
    started = time.perf_counter()
    for _ in range(rounds):
        events = play_round(game, cards, strat, bet_action, split)
        _record(tally, events, game, cards)
    elapsed = time.perf_counter() - started
    if decks is None and game.shoe is not None and game.shoe.pos:
        raise RuntimeError("the infinite deck ran dry: the shoe dealt")  # pragma: no cover
    setup = {"decks": "inf" if decks is None else decks, "strategy": strategy, "bet": bet}
    return _results(tally, rounds, seed, setup, opts, split, elapsed)


def _results(
    tally: _Tally,
    rounds: int,
    seed: str,
    setup: Mapping[str, Any],
    opts: BlackjackOptions,
    split: bool,
    elapsed: float,
) -> dict[str, Any]:
    bet = int(setup["bet"])
    return {
        "game": BlackjackSimulator.game,
        "rounds": rounds,
        "seed": seed,
        **setup,
        "rules": {
            "dealer_hits_soft_17": opts.dealer_hits_soft_17,
            "blackjack_pays": opts.blackjack_pays,
            "double": opts.double,
            "split": split,
            "max_hands": opts.max_hands if split else 1,
            "surrender": opts.surrender,
            "penetration": opts.penetration,
            "dealer_peeks": opts.dealer_peeks,
            "split_aces_one_card": opts.split_aces_one_card,
        },
        "player_ev": tally.net.mean(bet),
        "player_ev_stderr": tally.net.stderr(bet),
        "net_stddev": tally.net.stddev(bet),
        "natural_rate": rate(tally.naturals, rounds),
        "dealer_outcomes": {k: rate(v, rounds) for k, v in tally.outcomes.items()},
        "cards_per_round": rate(tally.cards, rounds),
        **timing(rounds, elapsed),
    }


class BlackjackSimulator(Simulator):
    """``simulate blackjack --decks {1..8|inf} --strategy {basic,mimic}`` and the rules."""

    game = "blackjack"
    title = "Black Jack, one seat against the dealer, through the real engine."
    strategies = tuple(sorted(STRATEGIES))

    def add_arguments(self, parser: argparse.ArgumentParser) -> None:
        parser.add_argument("--decks", type=_decks, default=6, help="1-8, or inf")
        parser.add_argument("--strategy", choices=self.strategies, default="basic")
        parser.add_argument("--bet", type=int, default=BET, help="the bet of every round")
        parser.add_argument("--h17", action="store_true", help="dealer hits soft 17")
        parser.add_argument("--blackjack-pays", choices=sorted(PAYOUT_RATIOS), default="3:2")
        parser.add_argument("--no-double", action="store_true")
        parser.add_argument("--no-split", action="store_true", help="the seat never splits")
        parser.add_argument("--surrender", action="store_true", help="late surrender allowed")
        parser.add_argument("--penetration", type=float, default=0.75)
        parser.add_argument("--max-hands", type=int, default=4, help="hands after splits, 2-4")
        parser.add_argument(
            "--no-dealer-peeks", action="store_true", help="the dealer does not peek"
        )
        parser.add_argument(
            "--no-split-aces-one-card", action="store_true", help="split aces play on"
        )

    def options(self, args: argparse.Namespace) -> BlackjackOptions:
        """The table options the flags describe (validated by the engine)."""
        opts = BlackjackOptions(
            decks=args.decks or 1,  # inf: the shoe is built but never deals
            penetration=args.penetration,
            dealer_hits_soft_17=args.h17,
            blackjack_pays=args.blackjack_pays,
            double=not args.no_double,
            surrender=args.surrender,
            max_hands=args.max_hands,
            dealer_peeks=not args.no_dealer_peeks,
            split_aces_one_card=not args.no_split_aces_one_card,
            min_bet=1,
            max_bet=max(args.bet, 1),
        ).validate()
        return opts

    def run(self, args: argparse.Namespace) -> dict[str, Any]:
        return simulate(
            rounds=args.rounds,
            seed=str(args.seed),
            decks=args.decks,
            strategy=args.strategy,
            opts=self.options(args),
            bet=args.bet,
            split=not args.no_split,
        )

    def report(self, result: Mapping[str, Any]) -> list[str]:
        dealer = self.shares(result["dealer_outcomes"])
        return [
            f"blackjack: {result['rounds']} rounds, decks={result['decks']}, "
            f"strategy={result['strategy']}",
            *text_rows(
                [
                    self.ev_row(result),
                    ("naturals", f"{100 * result['natural_rate']:.2f}%"),
                    ("cards/round", f"{result['cards_per_round']:.2f}"),
                    ("dealer", dealer),
                ]
            ),
        ]
