"""Pirate 21 (``pirate21``): whole games of 2-8 players, through the real engine.

Every player plays ``stand-at:H``: ask for a card while the best total of the hand is below
H, else stand (a player over 21 stands too, as anyone would). The host deals and is last to
move. ``--rounds N`` plays whole games until N rounds have been played (so a little more
than N), because the figures are per game: the win share of each seat (seat 1 is the
dealer's left, the last seat is the dealer; a game won by several players counts a share
for each), the share of void rounds (ties below 21, everyone bust) and the rounds per game.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..base import ROUND_SETTLED, Action, ActionKind, Event, Phase
from ..games.pirate21 import VARIANTS, Pirate21
from ..shuffle import seeded_entropy
from .base import Simulator, per_second, picked, positive_int, rate, text_rows, timing

HOST = 1
OUTCOMES = ("win", "tie", "tie21", "all_bust")


@dataclass(slots=True)
class _Game:
    """One game as the players follow it."""

    order: list[int] = field(default_factory=list)  # seat order, the dealer last
    totals: dict[int, int] = field(default_factory=dict)  # each player's own total
    rounds: int = 0
    voids: int = 0
    hands: int = 0
    busts: int = 0
    outcomes: dict[str, int] = field(default_factory=lambda: dict.fromkeys(OUTCOMES, 0))
    winners: list[int] = field(default_factory=list)
    coins: dict[int, int] = field(default_factory=dict)
    reason: str = ""


@dataclass(slots=True)
class _Tally:
    """What the games added up to."""

    players: int
    games: int = 0
    rounds: int = 0
    voids: int = 0
    hands: int = 0
    busts: int = 0
    wins: list[float] = field(default_factory=list)  # per seat
    coins: list[int] = field(default_factory=list)  # per seat
    outcomes: dict[str, int] = field(default_factory=lambda: dict.fromkeys(OUTCOMES, 0))
    reasons: dict[str, int] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.wins = [0.0] * self.players
        self.coins = [0] * self.players


def new_game(seed: str, number: int, players: int, options: Mapping[str, Any]) -> Pirate21:
    """Game ``number`` of the run, ``players`` seated (ids 1..n; 1 hosts and deals)."""
    entropy = seeded_entropy(f"simulate:pirate21:{seed}:{number}")
    game = Pirate21.create(HOST, options, entropy)
    for p in range(2, players + 1):
        game.apply(Action(ActionKind.JOIN, p))
    return game


def _read_round(state: _Game, data: Mapping[str, Any]) -> None:
    state.rounds += 1
    state.voids += bool(data["void"])
    state.outcomes[str(data["outcome"])] += 1


def _read(state: _Game, events: Sequence[Event]) -> None:
    """Follow the game through the events the players are shown (their own cards too)."""
    for e in events:
        kind, data = e.kind, e.data
        if kind in ("cards", "hand"):  # private: the player's own hand and total
            state.totals[e.player or 0] = int(data["total"])
        elif kind == "game_started":
            state.order = [int(p) for p in data["order"]]
        elif kind == "showdown":
            state.hands += len(data["hands"])
            state.busts += sum(1 for h in data["hands"] if h["bust"])
        elif kind == ROUND_SETTLED:
            _read_round(state, data)
        elif kind == "game_over":
            state.winners = [int(p) for p in data["winners"]]
            state.coins = {int(r["player"]): int(r["coins"]) for r in data["ranking"]}
            state.reason = str(data["reason"])


def play_game(game: Pirate21, stand_at: int) -> _Game:
    """A whole game through the engine, from START to its end."""
    state = _Game()
    _read(state, game.apply(Action(ActionKind.START, HOST)))
    while game.phase is Phase.PLAYING:
        p = game.to_act
        assert p is not None
        hit = state.totals[p] < stand_at and ActionKind.HIT in game.legal_actions(p)
        _read(state, game.apply(Action(ActionKind.HIT if hit else ActionKind.STAND, p)))
    return state


def _record(tally: _Tally, state: _Game) -> None:
    tally.games += 1
    tally.rounds += state.rounds
    tally.voids += state.voids
    tally.hands += state.hands
    tally.busts += state.busts
    for k, v in state.outcomes.items():
        tally.outcomes[k] += v
    tally.reasons[state.reason] = tally.reasons.get(state.reason, 0) + 1
    for p in state.winners:
        tally.wins[state.order.index(p)] += 1 / len(state.winners)
    for p, coins in state.coins.items():
        tally.coins[state.order.index(p)] += coins


def simulate(
    *,
    rounds: int,
    seed: str,
    stand_at: int = 17,
    players: int = 4,
    options: Mapping[str, Any] | None = None,
) -> dict[str, Any]:
    """Play whole games of ``players`` playing ``stand-at:H`` until ``rounds`` rounds."""
    opts = dict(options or {})
    tally = _Tally(players)
    started = time.perf_counter()
    while tally.rounds < rounds:
        game = new_game(seed, tally.games, players, opts)
        _record(tally, play_game(game, stand_at))
    elapsed = time.perf_counter() - started
    games, played = tally.games, tally.rounds
    return {
        "game": Pirate21Simulator.game,
        "rounds": played,
        "seed": seed,
        "players": players,
        "strategy": f"stand-at:{stand_at}",
        "options": game.options.to_dict(),
        "games": games,
        "rounds_per_game": rate(played, games),
        "void_round_rate": rate(tally.voids, played),
        "win_share_per_seat": [w / games for w in tally.wins],
        "coins_per_seat": [c / games for c in tally.coins],
        "outcomes": {k: rate(v, played) for k, v in tally.outcomes.items()},
        "player_bust_rate": rate(tally.busts, tally.hands),
        "end_reasons": {k: rate(v, games) for k, v in sorted(tally.reasons.items())},
        **timing(played, elapsed),
        "games_per_second": per_second(games, elapsed),
    }


class Pirate21Simulator(Simulator):
    """``simulate pirate21 --players N --strategy stand-at:H`` and the table options."""

    game = "pirate21"
    title = "Pirate 21, whole games of 2-8 players, through the real engine."
    strategies = ("stand-at:H",)
    rounds_help = "whole games are played until this many rounds"

    def add_arguments(self, parser: argparse.ArgumentParser) -> None:
        help = "ask for cards while the total is below H (default 17)"
        self.add_strategy(parser, "stand-at:H", 17, help)
        parser.add_argument("--players", type=positive_int, default=4, help="2-8")
        parser.add_argument("--variant", choices=VARIANTS, default="standard")
        parser.add_argument("--treasure", type=int, default=10, help="table option treasure")
        parser.add_argument(
            "--coins-per-player", type=int, default=None, metavar="N", help="shared variant"
        )
        parser.add_argument("--deck", default=None, help="table option deck: numbers/pirates/flags")

    def check(self, args: argparse.Namespace) -> str | None:
        return None if 2 <= args.players <= 8 else "--players must be 2-8"

    def run(self, args: argparse.Namespace) -> dict[str, Any]:
        options: dict[str, Any] = {"variant": args.variant, "treasure": args.treasure}
        if args.coins_per_player is not None:
            options["coins_per_player"] = args.coins_per_player
        if args.deck is not None:
            options["deck"] = args.deck
        given = picked(args, "rounds", "seed", "players", stand_at="strategy")
        return simulate(**given, options=options)

    def report(self, result: Mapping[str, Any]) -> list[str]:
        shares = ", ".join(f"{100 * w:.2f}%" for w in result["win_share_per_seat"])
        return [
            f"pirate21: {result['games']} games, {result['rounds']} rounds, "
            f"{result['players']} players, strategy={result['strategy']}",
            *text_rows(
                [
                    ("win share per seat (dealer last)", shares),
                    ("void rounds", f"{100 * result['void_round_rate']:.2f}%"),
                    ("rounds per game", f"{result['rounds_per_game']:.2f}"),
                    ("busts", f"{100 * result['player_bust_rate']:.2f}% of hands"),
                ]
            ),
        ]
