"""Sept et demi (``sept_et_demi``): 2-8 players and the rotating bank, through the engine.

The bank moves to the next player after every round, as at the tables. The players who do
not hold the bank ("punters") each bet ``bet`` (at most half their stack, the rule) and
play ``stand-at:H``: they draw while their total is below H points (5, 5.5...), else they
stand. A new card is hidden when it is bigger than the hidden one (the smaller one is
shown); this never changes a total, so no figure depends on it.

The banker is a player too, and plays ``--bank-strategy stand-at:H``: after the players,
the bank's card is turned up and the banker draws while the bank's total is below H. (A
person holding the bank also sees the punters' shown cards; this fixed rule ignores them.)
When every punter busted or sat out the bank does not play, as the engine rules.

By default every stack is large (``--buy-in``), so nobody is ruined and the guarantee fund
is never called on: ``player_ev`` is then the game's own edge. A smaller buy-in plays
whole games (a ruined player leaves, a finished game is followed by a new one).

A "natural" is 7½ in two cards: the card dealt and the first card drawn. One card never
makes 7½ (the highest card is worth 7), and the rules pay 7½ alike with any number of
cards (RULES.md section 4, settlement rule 2; the source has no word for a natural), so
this is a statistic only, the quickest 7½, like a blackjack in the 21 games.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..base import ROUND_SETTLED, Action, ActionKind, Event, Phase
from ..games.sept_et_demi import DECK_SPECS, SeptEtDemi
from ..hands import SEPT_ET_DEMI, format_half_points
from ..shuffle import seeded_entropy
from .base import Mean, Simulator, picked, positive_int, rate, text_rows, timing

HOST = 1
BET = 10
BUY_IN = 10**12  # the most the table accepts
_IN_ROUND = (Phase.BETTING, Phase.PLAYING, Phase.BANK)


@dataclass(slots=True)
class _Hand:
    """What a player knows of their own hand this round."""

    total: int = 0  # half-points, every card
    cards: int = 0
    hidden: str | None = None
    pending: str | None = None  # the new card waiting to be shown or hidden


@dataclass(slots=True)
class _Round:
    """One round as the players follow it."""

    hands: dict[int, _Hand] = field(default_factory=dict)
    bank: int = 0  # the bank's total once turned up
    summary: Mapping[str, Any] | None = None
    over: bool = False  # the game ended with this round


@dataclass(slots=True)
class _Tally:
    """What the rounds added up to (per punter hand, and per round for the bank)."""

    ev: list[float] = field(default_factory=lambda: [0.0, 0.0])  # sum, sum of squares
    hands: int = 0
    busts: int = 0
    naturals: int = 0
    sevens: int = 0
    cards: int = 0
    bank_rounds: int = 0  # rounds where the bank played
    bank_busts: int = 0
    bank_sevens: int = 0
    net: Mean = field(default_factory=Mean)  # money won by the punters, per hand
    fund_paid: int = 0
    shortfall: int = 0
    games: int = 1


def new_game(seed: str, number: int, players: int, options: Mapping[str, Any]) -> SeptEtDemi:
    """Game ``number`` of the run: ``players`` seated (ids 1..n, 1 hosts and banks first)."""
    entropy = seeded_entropy(f"simulate:sept_et_demi:{seed}:{number}")
    game = SeptEtDemi({"buy_in": BUY_IN, **options}, host=HOST, entropy=entropy)
    for p in range(1, players + 1):
        game.apply(Action(ActionKind.JOIN, p))
    return game


def _read(state: _Round, events: Sequence[Event]) -> None:
    """Follow the hands through the events each player is shown."""
    for e in events:
        kind, data = e.kind, e.data
        if kind == "card":  # private: the first card, or a new card
            hand = state.hands.setdefault(e.player or 0, _Hand())
            hand.total, hand.cards = int(data["total"]), hand.cards + 1
            if data.get("pending"):
                hand.pending = str(data["card"])
            else:
                hand.hidden = str(data["card"])
        elif kind == "bust":  # the busting card is shown, never sent privately
            hand = state.hands[e.player or 0]
            hand.total, hand.cards = int(data["total"]), hand.cards + 1
        elif kind in ("show", "swap"):
            hand = state.hands[e.player or 0]
            if kind == "swap":
                hand.hidden = hand.pending
            hand.pending = None
        elif kind in ("bank_reveal", "bank_hit"):
            state.bank = int(data["total"])
        elif kind == ROUND_SETTLED:
            state.summary = data
        elif kind == "game_over":
            state.over = True


def _starter(game: SeptEtDemi) -> Action:
    """START by whoever may start (the host, or a seated player once the host left)."""
    for p in game.seated():
        if ActionKind.START in game.legal_actions(p):
            return Action(ActionKind.START, p)
    raise RuntimeError("nobody can start the round")  # pragma: no cover


def _move(game: SeptEtDemi, state: _Round, stand_at: int, bank_at: int, bet: int) -> Action:
    """The next move of the player (or banker) to act."""
    p = game.to_act
    assert p is not None
    if game.phase is Phase.BETTING:
        low, high = game.bet_limits(p)
        return Action(ActionKind.BET, p, amount=max(low, min(bet, high)))
    total = state.bank if game.phase is Phase.BANK else state.hands[p].total
    if game.phase is Phase.PLAYING:
        hand = state.hands[p]
        if hand.pending is not None:
            assert hand.hidden is not None
            bigger = game.points([hand.pending]) > game.points([hand.hidden])
            return Action(ActionKind.SWAP if bigger else ActionKind.SHOW, p)
    limit = bank_at if game.phase is Phase.BANK else stand_at
    hit = total < limit and ActionKind.HIT in game.legal_actions(p)
    return Action(ActionKind.HIT if hit else ActionKind.STAND, p)


def play_round(game: SeptEtDemi, stand_at: int, bank_at: int, bet: int) -> _Round:
    """One whole round through the engine (half-points limits); what the players saw."""
    state = _Round()
    _read(state, game.apply(_starter(game)))
    while game.phase in _IN_ROUND:
        _read(state, game.apply(_move(game, state, stand_at, bank_at, bet)))
    return state


def _record(tally: _Tally, state: _Round) -> None:
    summary = state.summary
    assert summary is not None
    tally.fund_paid += int(summary["fund_paid"])
    tally.shortfall += int(summary["shortfall"])
    played = False
    for row in summary["results"]:
        hand = state.hands[int(row["player"])]
        net, stake, total = int(row["net"]), int(row["bet"]), int(row["total"])
        tally.net.add(net)
        tally.ev[0] += net / stake
        tally.ev[1] += (net / stake) ** 2
        tally.hands += 1
        tally.busts += row["rule"] == "bust"
        tally.sevens += total == SEPT_ET_DEMI
        tally.naturals += total == SEPT_ET_DEMI and hand.cards == 2
        tally.cards += hand.cards
        played = played or row["rule"] != "bust"
    if played:  # the bank plays when a punter is still in
        tally.bank_rounds += 1
        tally.bank_busts += state.bank > SEPT_ET_DEMI
        tally.bank_sevens += state.bank == SEPT_ET_DEMI


def simulate(
    *,
    rounds: int,
    seed: str,
    stand_at: int = 10,
    bank_at: int = 10,
    players: int = 2,
    bet: int = BET,
    options: Mapping[str, Any] | None = None,
) -> dict[str, Any]:
    """Play ``rounds`` rounds; ``stand_at`` and ``bank_at`` are in half-points (5 = 10)."""
    opts = dict(options or {})
    game = new_game(seed, 0, players, opts)
    tally = _Tally()
    started = time.perf_counter()
    for _ in range(rounds):
        state = play_round(game, stand_at, bank_at, bet)
        _record(tally, state)
        if state.over:
            game = new_game(seed, tally.games, players, opts)
            tally.games += 1
    elapsed = time.perf_counter() - started
    return _results(tally, game, rounds, seed, (stand_at, bank_at, players, bet), elapsed)


def _results(
    tally: _Tally,
    game: SeptEtDemi,
    rounds: int,
    seed: str,
    setup: tuple[int, int, int, int],
    elapsed: float,
) -> dict[str, Any]:
    stand_at, bank_at, players, bet = setup
    n = tally.hands
    mean = tally.ev[0] / n if n else 0.0
    var = max(tally.ev[1] / n - mean * mean, 0.0) if n else 0.0
    return {
        "game": SeptEtDemiSimulator.game,
        "rounds": rounds,
        "seed": seed,
        "players": players,
        "strategy": f"stand-at:{format_half_points(stand_at)}".replace("½", ".5"),
        "bank_strategy": f"stand-at:{format_half_points(bank_at)}".replace("½", ".5"),
        "bet": bet,
        "options": game.options.to_dict(),
        "games": tally.games,
        "hands": n,
        "player_ev": mean,
        "player_ev_stderr": (var / n) ** 0.5 if n else 0.0,
        "player_bust_rate": rate(tally.busts, n),
        "player_natural_rate": rate(tally.naturals, n),
        "player_seven_and_half_rate": rate(tally.sevens, n),
        "cards_per_player_hand": rate(tally.cards, n),
        "bank_play_rate": rate(tally.bank_rounds, rounds),
        "bank_bust_rate": rate(tally.bank_busts, tally.bank_rounds),
        "bank_seven_and_half_rate": rate(tally.bank_sevens, tally.bank_rounds),
        "player_net_per_hand": tally.net.mean(),
        "fund_paid": tally.fund_paid,
        "shortfall": tally.shortfall,
        **timing(rounds, elapsed),
    }


class SeptEtDemiSimulator(Simulator):
    """``simulate sept_et_demi --deck {40,32} --strategy stand-at:H`` and the bank's."""

    game = "sept_et_demi"
    title = "Sept et demi, 2-8 players and the rotating bank, through the real engine."
    strategies = ("stand-at:H",)

    def add_arguments(self, parser: argparse.ArgumentParser) -> None:
        help = "punters draw while below H points (5, 5.5...; default 5)"
        self.add_strategy(parser, "stand-at:H", 10, help, halves=True)
        help = "the banker draws while the bank is below H points (default 5)"
        self.add_strategy(parser, "stand-at:H", 10, help, flag="--bank-strategy", halves=True)
        parser.add_argument("--players", type=positive_int, default=2, help="2-8, bank included")
        parser.add_argument("--bet", type=positive_int, default=BET, help="every punter's bet")
        parser.add_argument(
            "--deck", choices=sorted(DECK_SPECS), default="40", help="table option deck"
        )
        parser.add_argument(
            "--buy-in",
            type=int,
            default=BUY_IN,
            help="table option buy_in (default: nobody is ruined)",
        )
        parser.add_argument("--min-bet", type=int, default=1, help="table option min_bet")
        parser.add_argument(
            "--guarantee-fund", type=int, default=500, help="table option guarantee_fund"
        )
        parser.add_argument(
            "--rounds-limit", type=int, default=None, help="table option rounds (per game)"
        )

    def check(self, args: argparse.Namespace) -> str | None:
        return None if 2 <= args.players <= 8 else "--players must be 2-8"

    def run(self, args: argparse.Namespace) -> dict[str, Any]:
        names = ("deck", "buy_in", "min_bet", "guarantee_fund")
        options = picked(args, *names, rounds="rounds_limit")
        given = picked(args, "rounds", "seed", "players", "bet")
        return simulate(
            **given, stand_at=args.strategy, bank_at=args.bank_strategy, options=options
        )

    def report(self, result: Mapping[str, Any]) -> list[str]:
        return [
            f"sept_et_demi: {result['rounds']} rounds, {result['players']} players, "
            f"deck={result['options']['deck']}, strategy={result['strategy']}, "
            f"bank={result['bank_strategy']}",
            *text_rows(
                [
                    self.ev_row(result, " of the bet"),
                    ("busts", f"{100 * result['player_bust_rate']:.2f}% of hands"),
                    ("7½", f"{100 * result['player_seven_and_half_rate']:.2f}% of hands"),
                    ("naturals", f"{100 * result['player_natural_rate']:.2f}% of hands"),
                    ("cards/hand", f"{result['cards_per_player_hand']:.3f}"),
                    ("bank busts", f"{100 * result['bank_bust_rate']:.2f}% when it plays"),
                ]
            ),
        ]
