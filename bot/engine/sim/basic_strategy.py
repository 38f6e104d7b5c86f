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


def _chart(
    totals: range, move: Callable[[int, int, bool], str], h17: bool
) -> dict[int, dict[int, str]]:
    """Total -> dealer up value (ace = 11) -> the move ``move`` gives."""
    return {total: {up: move(total, up, h17) for up in range(2, 12)} for total in totals}


def _hard_move(total: int, up: int, h17: bool) -> str:
    if total >= 17:
        return STAND
    if total >= 13:
        return STAND if up <= 6 else HIT
    if total == 12:
        return STAND if 4 <= up <= 6 else HIT
    if total == 11:
        return DOUBLE if (up <= 10 or h17) else HIT
    if total == 10:
        return DOUBLE if up <= 9 else HIT
    if total == 9:
        return DOUBLE if 3 <= up <= 6 else HIT
    return HIT


# "Ds" = double if allowed, else stand
DOUBLE_OR_STAND = "Ds"


def _soft_move(total: int, up: int, h17: bool) -> str:
    if total >= 20:
        return STAND
    if total == 19:
        return DOUBLE_OR_STAND if (h17 and up == 6) else STAND
    if total == 18:
        if up in (_rng(2, 6) if h17 else _rng(3, 6)):
            return DOUBLE_OR_STAND
        return STAND if up <= 8 else HIT
    if total == 17:
        return DOUBLE if 3 <= up <= 6 else HIT
    if total in (15, 16):
        return DOUBLE if 4 <= up <= 6 else HIT
    if total in (13, 14):
        return DOUBLE if 5 <= up <= 6 else HIT
    return HIT  # soft 12 (two aces that cannot be split)


def _pair_chart(das: bool) -> dict[int, set[int]]:
    """Pair card value (ace = 1) -> dealer up values against which to split."""
    every = _rng(2, 11)
    chart = {
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
    if not das:  # splitting weak pairs pays less when the split hands cannot double
        chart.update({6: _rng(3, 6), 4: set(), 3: _rng(4, 7), 2: _rng(4, 7)})
    return chart


def _surrender_cells(h17: bool) -> set[tuple[int, int]]:
    cells = {(16, 9), (16, 10), (16, 11), (15, 10)}
    if h17:
        cells |= {(15, 11), (17, 11)}
    return cells


def basic_strategy(*, h17: bool = False, das: bool = True) -> Strategy:
    """The multi-deck basic strategy for S17 (or H17) with or without double after split."""
    hard, soft = _chart(range(4, 22), _hard_move, h17), _chart(range(12, 22), _soft_move, h17)
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
