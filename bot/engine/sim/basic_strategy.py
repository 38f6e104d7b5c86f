"""Player strategies for Black Jack, used by its simulator and tests.

A strategy is a function ``(cards, up, allowed) -> move`` where ``move`` is one of
``"H"`` (hit), ``"S"`` (stand), ``"D"`` (double), ``"P"`` (split), ``"R"`` (surrender) and
is always one of the moves in ``allowed`` (hit and stand are always allowed). ``allowed``
is only asked about a move the strategy would make (the simulator asks the engine lazily).

- ``mimic``: the "mimic the dealer" strategy: hit below 17, stand on 17 or more; never
  doubles, splits, insures or surrenders.
- ``basic_strategy(h17=..., das=...)``: the standard multi-deck (4-8 decks) basic strategy
  for the rules in force: dealer stands or hits soft 17, double after split or not. With
  fewer decks it is the same chart (the 1-2 deck charts differ in a few marginal cells).
  Late surrender is used only when allowed. Insurance is never taken.
"""

from __future__ import annotations

from collections.abc import Callable, Container, Sequence

from ..cards import Card, Rank
from ..hands import bj_total, bj_value

HIT, STAND, DOUBLE, SPLIT, SURRENDER = "H", "S", "D", "P", "R"

Strategy = Callable[[Sequence[Card], Card, Container[str]], str]


def up_value(card: Card) -> int:
    """Dealer up card as 2..11 (ace = 11)."""
    return 11 if card.rank is Rank.ACE else bj_value(card)


def mimic(cards: Sequence[Card], up: Card, allowed: Container[str]) -> str:
    """Hit below 17, stand on 17 or more."""
    return HIT if bj_total(cards).value < 17 else STAND


def _rng(lo: int, hi: int) -> set[int]:
    return set(range(lo, hi + 1))


def _hard_chart(h17: bool) -> dict[int, dict[int, str]]:
    chart: dict[int, dict[int, str]] = {}
    for total in range(4, 22):
        row: dict[int, str] = {}
        for up in range(2, 12):
            if total >= 17:
                move = STAND
            elif total >= 13:
                move = STAND if up <= 6 else HIT
            elif total == 12:
                move = STAND if 4 <= up <= 6 else HIT
            elif total == 11:
                move = DOUBLE if (up <= 10 or h17) else HIT
            elif total == 10:
                move = DOUBLE if up <= 9 else HIT
            elif total == 9:
                move = DOUBLE if 3 <= up <= 6 else HIT
            else:
                move = HIT
            row[up] = move
        chart[total] = row
    return chart


# "Ds" = double if allowed, else stand
DOUBLE_OR_STAND = "Ds"


def _soft_chart(h17: bool) -> dict[int, dict[int, str]]:
    chart: dict[int, dict[int, str]] = {}
    for total in range(12, 22):
        row: dict[int, str] = {}
        for up in range(2, 12):
            if total >= 20:
                move = STAND
            elif total == 19:
                move = DOUBLE_OR_STAND if (h17 and up == 6) else STAND
            elif total == 18:
                if up in (_rng(2, 6) if h17 else _rng(3, 6)):
                    move = DOUBLE_OR_STAND
                elif up <= 8:
                    move = STAND
                else:
                    move = HIT
            elif total == 17:
                move = DOUBLE if 3 <= up <= 6 else HIT
            elif total in (15, 16):
                move = DOUBLE if 4 <= up <= 6 else HIT
            elif total in (13, 14):
                move = DOUBLE if 5 <= up <= 6 else HIT
            else:  # soft 12 (two aces that cannot be split)
                move = HIT
            row[up] = move
        chart[total] = row
    return chart


def _pair_chart(das: bool) -> dict[int, set[int]]:
    """Pair card value (ace = 1) -> dealer up values against which to split."""
    every = _rng(2, 11)
    if das:
        return {
            1: every,
            10: set(),
            9: _rng(2, 6) | {8, 9},
            8: every,
            7: _rng(2, 7),
            6: _rng(2, 6),
            5: set(),
            4: {5, 6},
            3: _rng(2, 7),
            2: _rng(2, 7),
        }
    return {
        1: every,
        10: set(),
        9: _rng(2, 6) | {8, 9},
        8: every,
        7: _rng(2, 7),
        6: _rng(3, 6),
        5: set(),
        4: set(),
        3: _rng(4, 7),
        2: _rng(4, 7),
    }


def _surrender_cells(h17: bool) -> set[tuple[int, int]]:
    cells = {(16, 9), (16, 10), (16, 11), (15, 10)}
    if h17:
        cells |= {(15, 11), (17, 11)}
    return cells


def basic_strategy(*, h17: bool = False, das: bool = True) -> Strategy:
    """The multi-deck basic strategy for S17 (or H17) with or without double after split."""
    hard, soft = _hard_chart(h17), _soft_chart(h17)
    pairs = _pair_chart(das)
    surrender = _surrender_cells(h17)

    def decide(cards: Sequence[Card], up: Card, allowed: Container[str]) -> str:
        total = bj_total(cards)
        upv = up_value(up)
        two = len(cards) == 2
        if two and not total.soft:
            pair8 = bj_value(cards[0]) == 8 == bj_value(cards[1])
            wants = (total.value, upv) in surrender and not (pair8 and not h17)
            if (wants or (h17 and pair8 and upv == 11)) and SURRENDER in allowed:
                return SURRENDER
        pair = two and bj_value(cards[0]) == bj_value(cards[1])
        if pair and upv in pairs[bj_value(cards[0])] and SPLIT in allowed:
            return SPLIT
        move = (soft if total.soft else hard)[min(total.value, 21)][upv]
        if move == DOUBLE_OR_STAND:
            return DOUBLE if DOUBLE in allowed else STAND
        if move == DOUBLE and DOUBLE not in allowed:
            return HIT
        return move

    return decide


STRATEGIES: dict[str, Callable[..., Strategy]] = {
    "mimic": lambda **_: mimic,
    "basic": basic_strategy,
}
