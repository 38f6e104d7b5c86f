"""Cards, ranks, suits and the deck builders of every game."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from .enums import FastEnum


class Suit(FastEnum):
    """A card suit; the value is the one-letter code used in snapshots."""

    SPADES = "S"
    HEARTS = "H"
    DIAMONDS = "D"
    CLUBS = "C"

    @property
    def symbol(self) -> str:
        """The suit as a symbol for display."""
        return {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}[self.value]


class Rank(FastEnum):
    """A card rank; the value is the code used in snapshots (T is ten, X a joker)."""

    ACE = "A"
    TWO = "2"
    THREE = "3"
    FOUR = "4"
    FIVE = "5"
    SIX = "6"
    SEVEN = "7"
    EIGHT = "8"
    NINE = "9"
    TEN = "T"
    JACK = "J"
    QUEEN = "Q"
    KING = "K"
    JOKER = "X"

    @property
    def label(self) -> str:
        """The rank as players write it."""
        return {"T": "10", "X": "Joker"}.get(self.value, self.value)

    @property
    def pip(self) -> int:
        """Face value: ace 1, 2-10 as printed, court cards and jokers 10."""
        # every hand total reads this: a dict lookup on the plain ``_value_`` attribute
        # is several times cheaper than Enum's ``value`` property
        return _PIPS[self._value_]

    @property
    def is_court(self) -> bool:
        """True for jack, queen and king."""
        return self in (Rank.JACK, Rank.QUEEN, Rank.KING)


_PIPS: dict[str, int] = {"A": 1, "T": 10, "J": 10, "Q": 10, "K": 10, "X": 10} | {
    str(n): n for n in range(2, 10)
}

STANDARD_RANKS: tuple[Rank, ...] = tuple(r for r in Rank if r is not Rank.JOKER)


@dataclass(frozen=True, slots=True)
class Card:
    """One playing card. Jokers use the spades (black) and hearts (red) suits."""

    rank: Rank
    suit: Suit

    @property
    def code(self) -> str:
        """Two-letter code, e.g. ``AS``, ``TH``, ``XS``; stable across versions."""
        return self.rank._value_ + self.suit._value_  # see Rank.pip

    @classmethod
    def parse(cls, code: str) -> Card:
        """Build a card from its code (``AS``) or its label (``10H``, ``A♠``).

        Cards are immutable, so one instance per code is shared (restored snapshots hold
        whole shoes: this keeps them to a pointer per card)."""
        card = _PARSED.get(code)
        if card is None:
            card = cls._parse(code)
            if len(_PARSED) < _PARSED_MAX:
                _PARSED[code] = card
        return card

    @classmethod
    def _parse(cls, code: str) -> Card:
        text = code.strip().upper().replace("10", "T")
        for suit in Suit:
            text = text.replace(suit.symbol, suit.value)
        if len(text) != 2:
            raise ValueError(f"bad card code {code!r}")
        return cls(Rank(text[0]), Suit(text[1]))

    def __str__(self) -> str:
        if self.rank is Rank.JOKER:
            return "🃏"
        return f"{self.rank.label}{self.suit.symbol}"


_PARSED: dict[str, Card] = {}  # code -> the shared Card (codes and labels as typed)
_PARSED_MAX = 4096


def pack52() -> list[Card]:
    """A standard 52-card pack in a fixed order (suits then ranks)."""
    return [Card(r, s) for s in Suit for r in STANDARD_RANKS]


def shoe(decks: int) -> list[Card]:
    """An n-deck blackjack shoe in a fixed order."""
    if decks < 1:
        raise ValueError("a shoe needs at least one deck")
    return pack52() * decks


def pirate54() -> list[Card]:
    """The Pirate 21 deck: 52 cards plus two jokers (court cards and jokers are Pirates)."""
    return [*pack52(), Card(Rank.JOKER, Suit.SPADES), Card(Rank.JOKER, Suit.HEARTS)]


_COURT = (Rank.JACK, Rank.QUEEN, Rank.KING)
_NUMBER_RANKS = STANDARD_RANKS[1:10]  # 2 to 10
#: Pirate 21's three kinds of cards: numbers 2-10, Pirates (court cards, jokers), Flags.
NUMBER_CARDS: tuple[Card, ...] = tuple(Card(r, s) for s in Suit for r in _NUMBER_RANKS)
PIRATE_CARDS: tuple[Card, ...] = (
    *(Card(r, s) for s in Suit for r in _COURT),
    Card(Rank.JOKER, Suit.SPADES),
    Card(Rank.JOKER, Suit.HEARTS),
)
FLAG_CARDS: tuple[Card, ...] = tuple(Card(Rank.ACE, s) for s in Suit)


def pirate_deck(numbers: int, pirates: int, flags: int) -> list[Card]:
    """A Pirate 21 deck with these counts: exactly ``pirate54()`` for 36/14/4, else
    numbers, Pirates and Flags each cycled over their cards in a fixed order."""
    if (numbers, pirates, flags) == (36, 14, 4):
        return pirate54()
    out: list[Card] = []
    for count, pool in ((numbers, NUMBER_CARDS), (pirates, PIRATE_CARDS), (flags, FLAG_CARDS)):
        out.extend(pool[i % len(pool)] for i in range(count))
    return out


def pirate_spec(numbers: int, pirates: int, flags: int) -> str:
    """The deck spec of a Pirate 21 deck (``pirate54`` for the standard counts)."""
    if (numbers, pirates, flags) == (36, 14, 4):
        return "pirate54"
    return f"pirate:{numbers}/{pirates}/{flags}"


def sept40() -> list[Card]:
    """The 40-card Sept et demi deck: ace to 7 and the court cards."""
    keep = {*STANDARD_RANKS[:7], *_COURT}  # ace to 7, and the court cards
    return [c for c in pack52() if c.rank in keep]


def piquet32() -> list[Card]:
    """The 32-card piquet deck: 7 to ace."""
    keep = {*STANDARD_RANKS[6:], Rank.ACE}
    return [c for c in pack52() if c.rank in keep]


DECKS: dict[str, Callable[[], list[Card]]] = {
    "std52": pack52,
    "pirate54": pirate54,
    "sept40": sept40,
    "sept32": piquet32,
}


def build_deck(spec: str) -> list[Card]:
    """Build an unshuffled deck from a spec such as ``std52``, ``std52*6``, ``sept40`` or
    ``pirate:36/14/4`` (Pirate 21 numbers/Pirates/Flags)."""
    name, _, count = spec.partition("*")
    n = int(count) if count else 1
    if n < 1:
        raise ValueError("deck count must be positive")
    if name.startswith("pirate:"):
        parts = name.removeprefix("pirate:").split("/")
        if len(parts) != 3 or not all(p.isascii() and p.isdigit() for p in parts):
            raise ValueError(f"a Pirate 21 deck is pirate:N/P/F, not {name!r}")
        return pirate_deck(*(int(p) for p in parts)) * n
    if name not in DECKS:
        raise ValueError(f"unknown deck {name!r}")
    return DECKS[name]() * n
