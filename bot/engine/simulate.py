"""Monte Carlo simulators: ``python -m bot simulate <game> ...``.

Each game registers a ``main(argv) -> int`` in :data:`SIMULATORS`; :func:`main` dispatches
on the first argument. ``classic`` plays one seat against the dealer with a fixed
strategy. For speed it uses a lean loop (:func:`play_classic_round`) built on the same
``hands.py`` totals and the same settlement rules as :class:`~bot.engine.classic.ClassicGame`;
``tests/engine/test_classic_simulate.py`` checks that both give identical results on the
same card sequences.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from .cards import Card, build_deck, pack52
from .classic import PAYOUT_RATIOS, ClassicOptions, dealer_should_hit, is_ten_or_ace
from .hands import bj_total, bj_value, is_blackjack
from .shuffle import seeded_entropy, shuffled
from .strategy import DOUBLE, HIT, SPLIT, STAND, STRATEGIES, SURRENDER, Strategy

SIMULATORS: dict[str, Callable[[list[str]], int]] = {}


def register(name: str) -> Callable[[Callable[[list[str]], int]], Callable[[list[str]], int]]:
    """Decorator: add a game's simulator ``main(argv) -> int`` to the registry."""

    def deco(fn: Callable[[list[str]], int]) -> Callable[[list[str]], int]:
        SIMULATORS[name] = fn
        return fn

    return deco


def main(argv: Sequence[str] | None = None) -> int:
    """``simulate <game> [options]``: run a game's simulator (``--help`` per game)."""
    args = list(argv or [])
    if not args or args[0] in ("-h", "--help") or args[0] not in SIMULATORS:
        print(f"usage: simulate {{{','.join(sorted(SIMULATORS))}}} [options]")
        return 0 if args and args[0] in ("-h", "--help") else 2
    return SIMULATORS[args[0]](args[1:])


# --------------------------------------------------------------------------- card sources


class ShoeSource:
    """A finite n-deck shoe shuffled with the provable-fairness shuffle, reshuffled at the
    table's penetration before a round (and mid-round if it runs out), like the game."""

    def __init__(self, decks: int, penetration: float, seed: str) -> None:
        self.deck = build_deck(f"std52*{decks}")
        self.penetration = penetration
        self.entropy = seeded_entropy(f"simulate:classic:{seed}")
        self.shuffles = 0
        self.order: list[Card] = []
        self.pos = 0
        self._shuffle()

    def _shuffle(self) -> None:
        self.order = shuffled(self.deck, self.entropy(self.shuffles))
        self.shuffles += 1
        self.pos = 0

    def start_round(self) -> None:
        if self.pos >= self.penetration * len(self.order):
            self._shuffle()

    def draw(self) -> Card:
        if self.pos >= len(self.order):
            self._shuffle()
        card = self.order[self.pos]
        self.pos += 1
        return card

    def peek(self, k: int) -> Card:
        """The k-th card after the next one, without dealing it (statistics only)."""
        return self.order[(self.pos + k) % len(self.order)]


class InfiniteSource:
    """An infinite deck: every card drawn uniformly from a 52-card pack, with replacement."""

    def __init__(self, seed: str) -> None:
        self.pack = pack52()
        self.rng = random.Random(f"simulate:classic:{seed}")
        self.ahead: list[Card] = []

    def start_round(self) -> None:
        pass

    def draw(self) -> Card:
        if self.ahead:
            return self.ahead.pop(0)
        return self.pack[self.rng.randrange(52)]

    def peek(self, k: int) -> Card:
        while len(self.ahead) <= k:
            self.ahead.append(self.pack[self.rng.randrange(52)])
        return self.ahead[k]


class Recorder:
    """Wraps a source and records the cards dealt (for the fast path vs game test)."""

    def __init__(self, source: ShoeSource | InfiniteSource) -> None:
        self.source = source
        self.dealt: list[Card] = []

    def start_round(self) -> None:
        self.source.start_round()
        self.dealt = []

    def draw(self) -> Card:
        card = self.source.draw()
        self.dealt.append(card)
        return card

    def peek(self, k: int) -> Card:
        return self.source.peek(k)


# --------------------------------------------------------------------------- fast path


@dataclass(slots=True)
class RoundResult:
    """One simulated round for one seat."""

    net: int  # in money units, for the initial bet given
    natural: bool
    cards: int  # cards dealt by the game
    dealer: str  # "17".."21", "blackjack" or "bust" (played out even when the game skips)
    hands: list[tuple[str, int]] = field(default_factory=list)  # (result, net) per hand


def play_classic_round(
    src: ShoeSource | InfiniteSource | Recorder,
    opts: ClassicOptions,
    strategy: Strategy,
    bet: int,
) -> RoundResult:
    """One round of one seat, following ClassicGame's order of cards and rules exactly
    (insurance is never taken; the seat's stack is assumed to cover every stake)."""
    draw = src.draw
    p1 = draw()
    up = draw()
    p2 = draw()
    hole = draw()
    dealt = 4
    dealer = [up, hole]
    dealer_bj = is_blackjack(dealer)
    natural = is_blackjack([p1, p2])
    # hands: [cards, bet, split, status, result, net]
    hands: list[list[Any]] = [[[p1, p2], bet, False, "blackjack" if natural else "active", None, 0]]
    peeked_bj = opts.dealer_peeks and is_ten_or_ace(up) and dealer_bj
    if not peeked_bj:
        i = 0
        while i < len(hands):
            h = hands[i]
            if h[3] != "active":
                i += 1
                continue
            cards: list[Card] = h[0]
            if len(cards) == 1:
                cards.append(draw())
                dealt += 1
                if opts.split_aces_one_card and h[2] and cards[0].rank.value == "A":
                    h[3] = "stood"
                    i += 1
                    continue
            total = bj_total(cards)
            if total.value == 21:
                h[3] = "stood"
                i += 1
                continue
            allowed = {HIT, STAND}
            if len(cards) == 2:
                if opts.double:
                    allowed.add(DOUBLE)
                if bj_value(cards[0]) == bj_value(cards[1]) and len(hands) < opts.max_hands:
                    allowed.add(SPLIT)
                if opts.surrender and not h[2]:
                    allowed.add(SURRENDER)
            move = strategy(cards, up, frozenset(allowed))
            if move == STAND:
                h[3] = "stood"
                i += 1
            elif move == HIT:
                cards.append(draw())
                dealt += 1
                if bj_total(cards).bust:
                    h[3], h[4], h[5] = "bust", "bust", -h[1]
                    i += 1
            elif move == DOUBLE:
                h[1] *= 2
                cards.append(draw())
                dealt += 1
                if bj_total(cards).bust:
                    h[3], h[4], h[5] = "bust", "bust", -h[1]
                else:
                    h[3] = "stood"
                i += 1
            elif move == SPLIT:
                second = cards.pop()
                h[2] = True
                hands.insert(i + 1, [[second], h[1], True, "active", None, 0])
                cards.append(draw())
                dealt += 1
                if opts.split_aces_one_card and cards[0].rank.value == "A":
                    h[3] = "stood"
                    i += 1
            elif move == SURRENDER:
                back = h[1] // 2
                h[3], h[4], h[5] = "surrendered", "surrender", back - h[1]
                i += 1
            else:  # pragma: no cover - strategies only return the moves above
                raise ValueError(f"bad move {move!r}")
        live = any(h[3] == "stood" for h in hands)
        if live and not dealer_bj:
            while dealer_should_hit(bj_total(dealer), opts.dealer_hits_soft_17):
                dealer.append(draw())
                dealt += 1
    # settlement, as ClassicGame._settle
    dtotal = bj_total(dealer)
    num, den = PAYOUT_RATIOS[opts.blackjack_pays]
    for h in hands:
        if h[4] is not None:
            continue
        b = h[1]
        total = bj_total(h[0])
        if h[3] == "blackjack":
            if dealer_bj:
                h[4], h[5] = "push", 0
            else:
                h[4], h[5] = "blackjack", b * num // den
        elif dealer_bj or (not dtotal.bust and total.value < dtotal.value):
            h[4], h[5] = "loss", -b
        elif dtotal.bust or total.value > dtotal.value:
            h[4], h[5] = "win", b
        else:
            h[4], h[5] = "push", 0
    # dealer outcome statistic: play the dealer's hand out without dealing those cards
    if dealer_bj:
        outcome = "blackjack"
    else:
        probe = list(dealer)
        k = 0
        while dealer_should_hit(bj_total(probe), opts.dealer_hits_soft_17):
            probe.append(src.peek(k))
            k += 1
        final = bj_total(probe)
        outcome = "bust" if final.bust else str(final.value)
    return RoundResult(
        net=sum(h[5] for h in hands),
        natural=natural,
        cards=dealt,
        dealer=outcome,
        hands=[(h[4], h[5]) for h in hands],
    )


DEALER_OUTCOMES = ("17", "18", "19", "20", "21", "blackjack", "bust")


def simulate_classic(
    *,
    rounds: int,
    seed: str,
    decks: int | None,
    strategy: str,
    opts: ClassicOptions,
    bet: int = 10,
) -> dict[str, Any]:
    """Play ``rounds`` rounds and return the statistics (``decks=None``: infinite deck)."""
    src: ShoeSource | InfiniteSource = (
        InfiniteSource(seed) if decks is None else ShoeSource(decks, opts.penetration, seed)
    )
    strat = STRATEGIES[strategy](h17=opts.dealer_hits_soft_17, das=opts.double)
    total = 0
    total_sq = 0
    naturals = 0
    cards = 0
    outcomes = dict.fromkeys(DEALER_OUTCOMES, 0)
    started = time.perf_counter()
    for _ in range(rounds):
        src.start_round()
        r = play_classic_round(src, opts, strat, bet)
        total += r.net
        total_sq += r.net * r.net
        naturals += r.natural
        cards += r.cards
        outcomes[r.dealer] += 1
    elapsed = time.perf_counter() - started
    n = max(rounds, 1)
    mean = total / n / bet
    var = max(total_sq / n / bet**2 - mean * mean, 0.0)
    return {
        "game": "classic",
        "rounds": rounds,
        "seed": seed,
        "decks": "inf" if decks is None else decks,
        "strategy": strategy,
        "rules": {
            "dealer_hits_soft_17": opts.dealer_hits_soft_17,
            "blackjack_pays": opts.blackjack_pays,
            "double": opts.double,
            "split": opts.max_hands > 1,
            "max_hands": opts.max_hands,
            "surrender": opts.surrender,
            "penetration": opts.penetration,
        },
        "player_ev": mean,
        "player_ev_stderr": math.sqrt(var / n),
        "net_stddev": math.sqrt(var),
        "natural_rate": naturals / n,
        "dealer_outcomes": {k: v / n for k, v in outcomes.items()},
        "cards_per_round": cards / n,
        "elapsed_seconds": elapsed,
        "rounds_per_second": rounds / elapsed if elapsed > 0 else None,
    }


def _decks(text: str) -> int | None:
    if text == "inf":
        return None
    value = int(text)
    if not 1 <= value <= 8:
        raise argparse.ArgumentTypeError("decks must be 1-8 or inf")
    return value


@register("classic")
def classic_main(argv: list[str]) -> int:
    """``simulate classic --rounds N --seed S --decks {1..8|inf} --strategy {mimic,basic}``."""
    ap = argparse.ArgumentParser(
        prog="python -m bot simulate classic",
        description="Monte Carlo of casino Black Jack, one seat.",
    )
    ap.add_argument("--rounds", type=int, default=100_000)
    ap.add_argument("--seed", default="0")
    ap.add_argument("--decks", type=_decks, default=6, help="1-8, or inf (with replacement)")
    ap.add_argument("--strategy", choices=sorted(STRATEGIES), default="basic")
    ap.add_argument("--h17", action="store_true", help="dealer hits soft 17")
    ap.add_argument("--blackjack-pays", choices=sorted(PAYOUT_RATIOS), default="3:2")
    ap.add_argument("--no-double", action="store_true")
    ap.add_argument("--no-split", action="store_true")
    ap.add_argument("--surrender", action="store_true", help="late surrender allowed")
    ap.add_argument("--penetration", type=float, default=0.75)
    ap.add_argument("--json", action="store_true", help="print JSON")
    args = ap.parse_args(argv)
    if args.rounds < 1:
        ap.error("--rounds must be positive")
    opts = ClassicOptions(
        decks=args.decks or 1,
        penetration=args.penetration,
        dealer_hits_soft_17=args.h17,
        blackjack_pays=args.blackjack_pays,
        double=not args.no_double,
        surrender=args.surrender,
    )
    opts.validate()
    if args.no_split:  # one hand only: below the 2..4 tables accept, so not validated
        opts = replace(opts, max_hands=1)
    result = simulate_classic(
        rounds=args.rounds, seed=str(args.seed), decks=args.decks, strategy=args.strategy, opts=opts
    )
    if args.json:
        print(json.dumps(result, indent=2))
    else:
        print(
            f"classic: {result['rounds']} rounds, decks={result['decks']}, "
            f"strategy={result['strategy']}"
        )
        print(
            f"  player EV: {100 * result['player_ev']:+.3f}% "
            f"(± {100 * result['player_ev_stderr']:.3f}%)"
        )
        print(
            f"  naturals: {100 * result['natural_rate']:.2f}%, "
            f"cards/round: {result['cards_per_round']:.2f}"
        )
        print(
            "  dealer: "
            + ", ".join(f"{k} {100 * v:.2f}%" for k, v in result["dealer_outcomes"].items())
        )
        print(f"  {result['rounds_per_second']:.0f} rounds/s")
    return 0
