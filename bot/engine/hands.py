"""Hand totals: blackjack soft/hard totals, Casino 21's chosen aces and Sept et demi
half-points."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from .cards import Card, Rank

_ACE = Rank.ACE  # read on every view (an Enum member through its class is slow)


@dataclass(frozen=True, slots=True)
class BJTotal:
    """A blackjack total: the best value <= 21 if any, and whether an ace counts 11."""

    value: int
    soft: bool

    @property
    def bust(self) -> bool:
        """True when over 21."""
        return self.value > 21


def bj_value(card: Card) -> int:
    """Blackjack value of one card with aces as 1 (court cards and jokers 10)."""
    return card.rank.pip


def bj_total(cards: Iterable[Card]) -> BJTotal:
    """Best blackjack total: aces count 11 while that does not bust the hand."""
    hard = 0
    aces = 0
    for card in cards:
        hard += bj_value(card)
        if card.rank is Rank.ACE:
            aces += 1
    if aces and hard + 10 <= 21:
        return _total(hard + 10, True)
    return _total(hard, False)


_TOTALS: dict[tuple[int, bool], BJTotal] = {}


def _total(value: int, soft: bool) -> BJTotal:
    """The one BJTotal of each (value, soft): totals are immutable, and a frozen dataclass
    costs ~3 us to build; the renderer and the engine ask for several per move."""
    known = _TOTALS.get((value, soft))
    if known is None:
        known = _TOTALS[value, soft] = BJTotal(value, soft)
    return known


def is_blackjack(cards: Iterable[Card]) -> bool:
    """A two-card 21 (ace and a ten-value card)."""
    hand = list(cards)
    return len(hand) == 2 and bj_total(hand).value == 21


def same_value(a: Card, b: Card) -> bool:
    """Split eligibility: two cards of the same blackjack value (K and 10 qualify)."""
    return bj_value(a) == bj_value(b)


def card_value(card: Card) -> int | None:
    """Casino 21's value of a non-ace card; None for an ace (its holder chooses)."""
    return None if card.rank is _ACE else card.rank.pip


def valued_blackjack(cards: Sequence[Card], values: Sequence[int | None]) -> bool:
    """Casino 21's blackjack: an ace valued 11 and a bûche as the first two cards."""
    if len(cards) < 2:
        return False
    a, b = cards[0].rank, cards[1].rank  # an ace is never a bûche: one of each
    if a is _ACE:
        return values[0] == 11 and b.pip == 10
    return b is _ACE and values[1] == 11 and a.pip == 10


def fallback_ace(values: Sequence[int | None]) -> int:
    """Casino 21's value for the first unvalued ace: 11 unless that takes the hand over 21."""
    total = sum(1 if v is None else v for v in values)
    return 11 if total + 10 <= 21 else 1


def fixed_total(cards: Iterable[Card], ace_values: Iterable[int]) -> int:
    """Casino 21 total where each ace's value (1 or 11) was fixed when drawn.

    ``ace_values`` lists the chosen values of the aces in the order they appear.
    """
    values = iter(ace_values)
    total = 0
    for card in cards:
        total += next(values) if card.rank is Rank.ACE else bj_value(card)
    return total


SEPT40_HALF_POINTS: dict[Rank, int] = {
    Rank.ACE: 2,
    Rank.TWO: 4,
    Rank.THREE: 6,
    Rank.FOUR: 8,
    Rank.FIVE: 10,
    Rank.SIX: 12,
    Rank.SEVEN: 14,
    Rank.JACK: 1,
    Rank.QUEEN: 1,
    Rank.KING: 1,
}
SEPT32_HALF_POINTS: dict[Rank, int] = {
    Rank.ACE: 14,
    Rank.KING: 8,
    Rank.QUEEN: 6,
    Rank.JACK: 4,
    Rank.TEN: 1,
    Rank.NINE: 1,
    Rank.EIGHT: 1,
    Rank.SEVEN: 1,
}
SEPT_ET_DEMI = 15  # 7½ in half-points


def half_points(cards: Iterable[Card], deck: str = "40") -> int:
    """Sept et demi total in integer half-points (7½ = 15) for the 40 or 32-card deck."""
    table = SEPT40_HALF_POINTS if deck == "40" else SEPT32_HALF_POINTS
    return sum(table[c.rank] for c in cards)


def format_half_points(points: int) -> str:
    """Show half-points as players write them: 15 -> '7½', 4 -> '2'."""
    whole, half = divmod(points, 2)
    return f"{whole}½" if half else str(whole)
