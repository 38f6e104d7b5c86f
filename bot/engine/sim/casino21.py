"""Casino 21 (``casino21``): 1-8 seats against the bank, through the real engine.

Each seat bets ``bet`` and plays ``threshold:T``: in each following turn it draws one card
while its total is below T (as many turns as it takes), else it stands. An ace is valued
when it is drawn, as the engine's fallback values it (11 unless that takes the hand over
21, the value the timer would give); the bank plays its own fixed rule. A fresh deck is
shuffled for every round, as at the tables. The table is opened without welcome stake or
wagering requirement and every seat brings a stack that covers every bet: only the rounds
are measured, not the casino's money rules.

Figures: ``player_ev`` (net per unit bet, per hand) and its standard error,
``bank_bust_rate`` (per round), ``blackjack_rate`` (player blackjacks per hand), the
outcome shares per hand and ``rounds_per_second``.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..base import Action, ActionKind, Event, Phase
from ..cards import Card
from ..games.casino21 import Casino21
from ..hands import card_value
from ..shuffle import seeded_entropy
from .base import Mean, Simulator, picked, positive_int, rate, text_rows, timing

HOST = 1
BET = 10
STACK = 10**15
OUTCOMES = ("win", "bank_bust", "push", "lose", "bust")
_IN_ROUND = (Phase.BETTING, Phase.PLAYING)


@dataclass(slots=True)
class _Hand:
    """What a seat knows of its hand this round."""

    total: int = 0  # the values known so far (aces once valued)
    ace: int | None = None  # an ace waits for its value: the fallback the engine offers
    bet: bool = False


@dataclass(slots=True)
class _Tally:
    """What the rounds added up to."""

    net: Mean = field(default_factory=Mean)
    blackjacks: int = 0
    cards: int = 0
    bank_busts: int = 0
    bank_blackjacks: int = 0
    outcomes: dict[str, int] = field(default_factory=lambda: dict.fromkeys(OUTCOMES, 0))


def new_game(seed: str, players: int, options: Mapping[str, Any]) -> Casino21:
    """A table with ``players`` seats (ids 1..n, 1 hosts) that never run out of money."""
    opts = {"welcome_stake": 0, "wager_requirement": 0, **options}
    game = Casino21(opts, host=HOST, entropy=seeded_entropy(f"simulate:casino21:{seed}"))
    for p in range(1, players + 1):
        game.apply(Action(ActionKind.JOIN, p, amount=STACK))
    return game


def _read(hands: dict[int, _Hand], events: Sequence[Event]) -> None:
    """Follow the seats' hands through the public events of a move."""
    for e in events:
        kind, p = e.kind, e.player
        if kind in ("dealt", "drew"):
            assert p is not None
            for code in e.data["cards"]:
                hands[p].total += card_value(Card.parse(code)) or 0  # an ace waits
        elif kind == "ace_pending":
            assert p is not None
            hands[p].ace = int(e.data["fallback"])
        elif kind == "ace_chosen":
            assert p is not None
            hands[p].ace = None
            hands[p].total += int(e.data["value"])
        elif kind == "bet":
            assert p is not None
            hands[p].bet = True


def _move(game: Casino21, hands: dict[int, _Hand], threshold: int, bet: int) -> Action:
    """The next move: value a waiting ace, bet, then draw one card below the threshold."""
    for p, hand in hands.items():
        if hand.ace is not None:
            return Action(ActionKind.CHOOSE_ACE, p, value=hand.ace)
    if game.phase is Phase.BETTING:
        for p, hand in hands.items():
            if not hand.bet:
                return Action(ActionKind.BET, p, amount=bet)
    for p, hand in hands.items():
        if ActionKind.DRAW in game.legal_actions(p):
            draw = hand.total < threshold and game.max_draw() > 0
            return Action(ActionKind.DRAW, p, amount=1 if draw else 0)
    raise RuntimeError(f"nobody can move in phase {game.phase.value}")  # pragma: no cover


def play_round(game: Casino21, players: int, threshold: int, bet: int) -> list[Event]:
    """One whole round through the engine; all its events."""
    hands = {p: _Hand() for p in range(1, players + 1)}
    events = game.apply(Action(ActionKind.START, HOST))
    _read(hands, events)
    while game.phase in _IN_ROUND:
        step = game.apply(_move(game, hands, threshold, bet))
        _read(hands, step)
        events += step
    return events


def _record(tally: _Tally, events: Sequence[Event]) -> None:
    for e in events:
        if e.kind != "round_settled":
            continue
        bank = e.data["bank"]
        tally.bank_busts += bool(bank["bust"])
        tally.bank_blackjacks += bool(bank["blackjack"])
        for row in e.data["results"]:
            tally.net.add(int(row["net"]))
            tally.outcomes[str(row["outcome"])] += 1
            tally.blackjacks += bool(row["blackjack"])
            tally.cards += len(row["cards"])


def _bonus(text: str) -> int | str:
    if text == "half":
        return text
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r}: a whole number or half") from None


def simulate(
    *,
    rounds: int,
    seed: str,
    threshold: int = 17,
    players: int = 1,
    bet: int = BET,
    options: Mapping[str, Any] | None = None,
) -> dict[str, Any]:
    """Play ``rounds`` rounds with ``players`` seats playing ``threshold:T``."""
    game = new_game(seed, players, options or {})
    tally = _Tally()
    started = time.perf_counter()
    for _ in range(rounds):
        _record(tally, play_round(game, players, threshold, bet))
    elapsed = time.perf_counter() - started
    hands = tally.net.n
    return {
        "game": Casino21Simulator.game,
        "rounds": rounds,
        "seed": seed,
        "players": players,
        "strategy": f"threshold:{threshold}",
        "bet": bet,
        "options": game.options.to_dict(),
        "hands": hands,
        "player_ev": tally.net.mean(bet),
        "player_ev_stderr": tally.net.stderr(bet),
        "bank_bust_rate": rate(tally.bank_busts, rounds),
        "bank_blackjack_rate": rate(tally.bank_blackjacks, rounds),
        "blackjack_rate": rate(tally.blackjacks, hands),
        "player_bust_rate": rate(tally.outcomes["bust"], hands),
        "outcomes": {k: rate(v, hands) for k, v in tally.outcomes.items()},
        "cards_per_player_hand": rate(tally.cards, hands),
        **timing(rounds, elapsed),
    }


class Casino21Simulator(Simulator):
    """``simulate casino21 --strategy threshold:T --players N`` and the table options."""

    game = "casino21"
    title = "Casino 21, 1-8 seats against the bank, through the real engine."
    strategies = ("threshold:T",)

    def add_arguments(self, parser: argparse.ArgumentParser) -> None:
        help = "draw one card at a time while the total is below T (default 17)"
        self.add_strategy(parser, "threshold:T", 17, help)
        parser.add_argument("--players", type=positive_int, default=1, help="seats, 1-8")
        parser.add_argument("--bet", type=positive_int, default=BET, help="every hand's bet")
        parser.add_argument("--decks", type=int, default=1, help="table option decks (1-8)")
        parser.add_argument(
            "--bank-bust-bonus",
            type=_bonus,
            default=5,
            help="table option bank_bust_bonus: a whole number, or half",
        )

    def check(self, args: argparse.Namespace) -> str | None:
        return None if args.players <= 8 else "--players must be 1-8"

    def run(self, args: argparse.Namespace) -> dict[str, Any]:
        # the table takes the simulated bet, below the default minimum too (the figures of
        # a bet of 1 show why the default is 10)
        bets = {"min_bet": min(args.bet, 10), "max_bet": max(args.bet, 100)}
        options = {**picked(args, "decks", "bank_bust_bonus"), **bets}
        given = picked(args, "rounds", "seed", "players", "bet", threshold="strategy")
        return simulate(**given, options=options)

    def report(self, result: Mapping[str, Any]) -> list[str]:
        return [
            f"casino21: {result['rounds']} rounds, {result['players']} seat(s), "
            f"strategy={result['strategy']}, bet={result['bet']}",
            *text_rows(
                [
                    self.ev_row(result, " of the bet"),
                    ("bank busts", f"{100 * result['bank_bust_rate']:.2f}% of rounds"),
                    ("blackjacks", f"{100 * result['blackjack_rate']:.2f}% of hands"),
                    ("outcomes", self.shares(result["outcomes"])),
                ]
            ),
        ]
