"""Cards, ranks, suits and the deck builders of every game."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass

from .enums import FastEnum
from .options import OptionError


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


def card_codes(cards: Iterable[Card]) -> list[str]:
    """The cards as their codes (``["AS", "10H"]``), the form snapshots and events hold."""
    return [c.code for c in cards]


def parse_cards(codes: Iterable[str]) -> list[Card]:
    """The cards of their codes (the inverse of :func:`card_codes`)."""
    return [Card.parse(c) for c in codes]


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


# --------------------------------------------------------------------------- Pirate 21 decks

DEFAULT_PIRATE_DECK: dict[str, int] = {"numbers": 36, "pirates": 14, "flags": 4}
_PIRATE_DECK_MAX: dict[str, int] = {"numbers": 360, "pirates": 140, "flags": 40}
PIRATE_DECK_MIN_SIZE = 4


def _count(value: object) -> int | None:
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    text = value.strip() if isinstance(value, str) else ""
    return int(text) if text.isascii() and text.isdigit() else None  # ASCII digits only


def _deck_error(code: str, **params: object) -> OptionError:
    return OptionError(code, None, option="deck", **params)


def _deck_words(value: object) -> dict[str, object] | None:
    """The counts given, by name (None: the default deck)."""
    if value is None or isinstance(value, Mapping):
        return None if value is None else {str(k): v for k, v in value.items()}
    if not isinstance(value, str):
        raise _deck_error("bad_deck", value=repr(value))
    text = value.strip().lower()
    if text in ("", "pirate54", "standard", "default"):
        return None
    if "=" not in text:
        parts = text.split("/")
        if len(parts) != 3:
            raise _deck_error("bad_deck", value=value)
        return dict(zip(DEFAULT_PIRATE_DECK, parts, strict=True))
    pairs = [part.partition("=") for part in text.split(",")]
    if not all(sep for _, sep, _ in pairs):
        raise _deck_error("bad_deck", value=value)
    return {key.strip(): val.strip() for key, _, val in pairs}


def parse_pirate_deck(value: object) -> dict[str, int]:
    """Validate the ``deck`` option: None, ``"pirate54"``, ``"36/14/4"`` (numbers/pirates/
    flags, the form people type), ``"numbers=36,pirates=14,flags=4"`` (missing keys keep
    their default) or a dict with those keys (the stored form). Raises
    :class:`~bot.engine.options.OptionError`."""
    counts = dict(DEFAULT_PIRATE_DECK)
    for name, count in (_deck_words(value) or {}).items():
        if name not in DEFAULT_PIRATE_DECK:
            raise _deck_error("bad_deck_key", key=name)
        n, most = _count(count), _PIRATE_DECK_MAX[name]
        if n is None or not 0 <= n <= most:
            raise _deck_error("bad_deck_count", kind=name, value=str(count), min=0, max=most)
        counts[name] = n
    size = sum(counts.values())
    if size < PIRATE_DECK_MIN_SIZE:
        raise _deck_error("deck_too_small", size=size, min=PIRATE_DECK_MIN_SIZE)
    return counts


def build_pirate_deck(counts: Mapping[str, int]) -> list[Card]:
    """The unshuffled deck for these counts: exactly ``pirate54()`` for the default counts,
    else numbers, Pirates and Flags each cycled over their cards in a fixed order."""
    return pirate_deck(counts["numbers"], counts["pirates"], counts["flags"])


def pirate_deck_text(counts: Mapping[str, int]) -> str:
    """The deck counts as typed: ``36/14/4`` (numbers/pirates/flags)."""
    return "/".join(str(counts[k]) for k in ("numbers", "pirates", "flags"))


def pirate_deck_spec(counts: Mapping[str, int]) -> str:
    """The deck spec ``verify`` takes for these counts (``pirate54``, ``pirate:N/P/F``)."""
    return pirate_spec(counts["numbers"], counts["pirates"], counts["flags"])
