"""The typed options of each game: what ``/table open`` accepts, ``/rules`` lists and the
option tables of docs/RULES.md show (``python -m bot rules-doc``).

One tuple of :class:`~bot.engine.options.OptionSpec` per game and the frozen dataclass a
game reads them from (``self.options``); the game's registry entry
(:mod:`bot.engine.registry`) points at them, nothing else lists them. The parsing, checks
and texts common to every option are in :mod:`bot.engine.options`.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from .cards import Card, pirate_deck, pirate_spec
from .options import GameOptions, OptionError, OptionKind, OptionSpec, check_values

_I, _B = OptionKind.INT, OptionKind.BOOL
_MONEY_MAX = 1_000_000

# --------------------------------------------------------------------------- Black Jack

PAYOUT_RATIOS: dict[str, tuple[int, int]] = {"3:2": (3, 2), "6:5": (6, 5), "1:1": (1, 1)}

#: The options of a Black Jack table (RULES.md section 1): ``/table open``, ``/rules``.
BLACKJACK_OPTIONS: tuple[OptionSpec, ...] = (
    OptionSpec("decks", _I, 6, "decks in the shoe", "paquets dans le sabot", min=1, max=8),
    OptionSpec(
        "penetration",
        OptionKind.FLOAT,
        0.75,
        "share of the shoe dealt before a reshuffle",
        "part du sabot distribuée avant de rebattre",
        min=0.5,
        max=0.9,
    ),
    OptionSpec("min_bet", _I, 10, "smallest bet", "mise minimale", min=1, max=1_000_000_000),
    OptionSpec(
        "max_bet",
        _I,
        500,
        "largest bet",
        "mise maximale",
        min=1,
        max=1_000_000_000,
        at_least=("min_bet", 1),
    ),
    OptionSpec(
        "max_hands",
        _I,
        4,
        "hands a player may hold by splitting",
        "mains qu'un joueur peut tenir en séparant",
        min=2,
        max=4,
    ),
    OptionSpec(
        "split_aces_one_card",
        _B,
        True,
        "split aces get one card each",
        "les as séparés ne reçoivent qu'une carte chacun",
    ),
    OptionSpec("double", _B, True, "doubling allowed", "doubler est permis"),
    OptionSpec("surrender", _B, False, "surrender allowed", "abandonner est permis"),
    OptionSpec(
        "dealer_peeks",
        _B,
        True,
        "the dealer checks for blackjack under an ace or a ten",
        "le croupier vérifie son Black Jack sous un as ou un dix",
    ),
    OptionSpec(
        "dealer_hits_soft_17",
        _B,
        False,
        "the dealer draws on a soft 17",
        "le croupier tire sur un 17 souple",
    ),
    OptionSpec(
        "blackjack_pays",
        OptionKind.CHOICE,
        "3:2",
        "what a blackjack pays",
        "ce que paie un Black Jack",
        choices=tuple(PAYOUT_RATIOS),
    ),
)


@dataclass(frozen=True, slots=True)
class BlackjackOptions(GameOptions):
    """Per-table options of Black Jack (RULES.md section 1), typed, with their defaults."""

    SPECS = BLACKJACK_OPTIONS
    #: options of earlier versions still found in stored snapshots (the table settings
    #: hold the timers now): read and dropped
    LEGACY = ("bet_seconds", "turn_seconds")

    decks: int = 6
    penetration: float = 0.75
    min_bet: int = 10
    max_bet: int = 500
    max_hands: int = 4
    split_aces_one_card: bool = True
    double: bool = True
    surrender: bool = False
    dealer_peeks: bool = True
    dealer_hits_soft_17: bool = False
    blackjack_pays: str = "3:2"


# --------------------------------------------------------------------------- Casino 21

CASINO21_MAX_PLAYERS = 8
CASINO21_MAX_DECKS = 8

#: The options of a Casino 21 table (RULES.md section 2): ``/table open``, ``/rules``.
CASINO21_OPTIONS: tuple[OptionSpec, ...] = (
    OptionSpec(
        "welcome_stake",
        _I,
        100,
        "stake the casino gives each player who sits down",
        "mise de bienvenue offerte par le casino à chaque joueur",
        min=0,
        max=_MONEY_MAX,
        cap="max_welcome_stake",
    ),
    OptionSpec(
        "wager_requirement",
        _I,
        100,
        "total to bet before leaving with winnings",
        "total à miser avant de repartir avec ses gains",
        min=0,
        max=_MONEY_MAX,
        open_at_least=("welcome_stake", "wager_below_stake"),
    ),
    OptionSpec(
        "decks",
        _I,
        1,
        "52-card decks, shuffled each round",
        "paquets de 52 cartes, battus à chaque manche",
        min=1,
        max=CASINO21_MAX_DECKS,
    ),
    OptionSpec("min_bet", _I, 1, "smallest bet", "mise minimale", min=1, max=_MONEY_MAX),
    OptionSpec(
        "max_bet",
        _I,
        100,
        "largest bet",
        "mise maximale",
        min=1,
        max=_MONEY_MAX,
        at_least=("min_bet", 1),
    ),
    OptionSpec(
        "bank_bust_bonus",
        _I,
        5,
        "paid with the bet back when the bank busts (half: half the bet)",
        "payé avec la mise quand la banque saute (half : la moitié de la mise)",
        min=0,
        max=_MONEY_MAX,
        choices=("half",),
        cap="max_bank_bust_bonus",
    ),
    OptionSpec(
        "max_players",
        _I,
        CASINO21_MAX_PLAYERS,
        "players at the table, host included",
        "joueurs à la table, hôte compris",
        min=1,
        max=CASINO21_MAX_PLAYERS,
    ),
)


@dataclass(frozen=True, slots=True)
class Casino21Options(GameOptions):
    """Per-table options of Casino 21 (RULES.md section 2), typed, with their defaults."""

    SPECS = CASINO21_OPTIONS

    welcome_stake: int = 100
    wager_requirement: int = 100
    decks: int = 1
    min_bet: int = 1
    max_bet: int = 100
    bank_bust_bonus: int | str = 5  # a fixed amount, or "half" (half the bet)
    max_players: int = CASINO21_MAX_PLAYERS


# --------------------------------------------------------------------------- Pirate 21

DEFAULT_DECK: dict[str, int] = {"numbers": 36, "pirates": 14, "flags": 4}
_DECK_MAX: dict[str, int] = {"numbers": 360, "pirates": 140, "flags": 40}
DECK_MIN_SIZE = 4
VARIANTS = ("standard", "shared")


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
        return dict(zip(DEFAULT_DECK, parts, strict=True))
    pairs = [part.partition("=") for part in text.split(",")]
    if not all(sep for _, sep, _ in pairs):
        raise _deck_error("bad_deck", value=value)
    return {key.strip(): val.strip() for key, _, val in pairs}


def parse_deck(value: object) -> dict[str, int]:
    """Validate the ``deck`` option: None, ``"pirate54"``, ``"36/14/4"`` (numbers/pirates/
    flags, the form people type), ``"numbers=36,pirates=14,flags=4"`` (missing keys keep
    their default) or a dict with those keys (the stored form). Raises
    :class:`~bot.engine.options.OptionError`."""
    counts = dict(DEFAULT_DECK)
    for name, count in (_deck_words(value) or {}).items():
        if name not in DEFAULT_DECK:
            raise _deck_error("bad_deck_key", key=name)
        n, most = _count(count), _DECK_MAX[name]
        if n is None or not 0 <= n <= most:
            raise _deck_error("bad_deck_count", kind=name, value=str(count), min=0, max=most)
        counts[name] = n
    size = sum(counts.values())
    if size < DECK_MIN_SIZE:
        raise _deck_error("deck_too_small", size=size, min=DECK_MIN_SIZE)
    return counts


def build_pirate_deck(counts: Mapping[str, int]) -> list[Card]:
    """The unshuffled deck for these counts: exactly ``pirate54()`` for the default counts,
    else numbers, Pirates and Flags each cycled over their cards in a fixed order."""
    return pirate_deck(counts["numbers"], counts["pirates"], counts["flags"])


def deck_text(counts: Mapping[str, int]) -> str:
    """The deck counts as typed: ``36/14/4`` (numbers/pirates/flags)."""
    return "/".join(str(counts[k]) for k in ("numbers", "pirates", "flags"))


_MENTION = re.compile(r"<@!?([0-9]+)>|([0-9]+)", re.ASCII)


def parse_dealer(value: object) -> int:
    """The ``dealer`` option: a player id, as a number, digits or a mention ``<@id>``."""
    if isinstance(value, int) and not isinstance(value, bool) and value >= 0:
        return value
    found = _MENTION.fullmatch(value.strip()) if isinstance(value, str) else None
    if found is None:
        raise OptionError("option_bad_value", _DEALER, value=str(value))
    return int(found[1] or found[2])


_DEALER = OptionSpec(
    "dealer",
    OptionKind.FORM,
    None,
    "the player who deals, fixed for the game (none: the host)",
    "le joueur qui donne, pour toute la partie (none : l'hôte)",
    none=True,
    form=parse_dealer,
    show=lambda pid: f"<@{pid}>",
    examples=("none",),
    allowed_en="a player (a mention or an id)",
    allowed_fr="un joueur (mention ou identifiant)",
)
#: The options of a Pirate 21 table (RULES.md section 3): ``/table open``, ``/rules``.
PIRATE21_OPTIONS: tuple[OptionSpec, ...] = (
    OptionSpec(
        "variant",
        OptionKind.CHOICE,
        "standard",
        "standard, or shared: the treasure is divided among the players",
        "standard, ou shared : le trésor est partagé entre les joueurs",
        choices=VARIANTS,
    ),
    OptionSpec(
        "treasure",
        OptionKind.INT,
        10,
        "gold coins in the treasure",
        "pièces d'or du trésor",
        min=1,
        max=1000,
    ),
    OptionSpec(
        "coins_per_player",
        OptionKind.INT,
        None,
        "shared variant: coins given to each player instead of dividing the treasure",
        "variante partagée : pièces données à chaque joueur au lieu de diviser le trésor",
        min=1,
        max=1000,
        none=True,
    ),
    _DEALER,
    OptionSpec(
        "deck",
        OptionKind.FORM,
        DEFAULT_DECK,
        "the cards: numbers/pirates/flags",
        "les cartes : nombres/pirates/drapeaux",
        form=parse_deck,
        show=deck_text,
        examples=("36/14/4", "18/7/2", "72/28/8"),
        allowed_en="numbers/pirates/flags counts, e.g. `36/14/4`",
        allowed_fr="les nombres de cartes nombres/pirates/drapeaux, par ex. `36/14/4`",
    ),
)


@dataclass(frozen=True, slots=True)
class Pirate21Options(GameOptions):
    """Per-table options of Pirate 21 (RULES.md section 3), typed, with their defaults."""

    SPECS = PIRATE21_OPTIONS

    variant: str = "standard"
    treasure: int = 10
    coins_per_player: int | None = None  # None: the shared treasure is divided
    dealer: int | None = None
    deck: tuple[tuple[str, int], ...] = tuple(DEFAULT_DECK.items())

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Pirate21Options:
        """Validate typed options (``deck`` as counts or as typed); raises
        :class:`~bot.engine.errors.InvalidOptions` on the first problem."""
        values = check_values(cls.SPECS, data, ignore=cls.LEGACY)
        values["deck"] = tuple(values["deck"].items())
        return cls(**values)

    @property
    def deck_counts(self) -> dict[str, int]:
        """The deck counts as a dict."""
        return dict(self.deck)

    @property
    def deck_spec(self) -> str:
        """The deck spec ``verify`` takes (``pirate54``, ``pirate:N/P/F``)."""
        counts = self.deck_counts
        return pirate_spec(counts["numbers"], counts["pirates"], counts["flags"])

    def to_dict(self) -> dict[str, Any]:
        """JSON-able form (what ``/rules`` shows); ``from_dict`` accepts it back."""
        return {**GameOptions.to_dict(self), "deck": self.deck_counts}


# --------------------------------------------------------------------------- Sept et demi

DECK_SPECS: dict[str, str] = {"40": "sept40", "32": "sept32"}

#: The options of a Sept et demi table (RULES.md section 4): ``/table open``, ``/rules``.
SEPT_ET_DEMI_OPTIONS: tuple[OptionSpec, ...] = (
    OptionSpec(
        "deck",
        OptionKind.CHOICE,
        "40",
        "40 cards (ace to 7, heads ½) or 32 (7 to ace)",
        "40 cartes (as à 7, figures ½) ou 32 (7 à as)",
        choices=tuple(DECK_SPECS),
    ),
    OptionSpec(
        "buy_in",
        _I,
        200,
        "chips each player brings, at least twice min_bet",
        "jetons apportés par chaque joueur, au moins deux fois min_bet",
        min=2,
        max=10**12,
        at_least=("min_bet", 2),
    ),
    OptionSpec("min_bet", _I, 1, "smallest bet", "mise minimale", min=1, max=10**9),
    OptionSpec(
        "guarantee_fund",
        _I,
        500,
        "fund the casino sets aside to pay when a banker cannot",
        "fonds mis de côté par le casino quand un banquier ne peut pas payer",
        min=0,
        max=10**12,
        cap="max_guarantee_fund",
    ),
    OptionSpec(
        "rounds",
        _I,
        None,
        "rounds before the game ends (none: no limit)",
        "manches avant la fin de la partie (none : sans limite)",
        min=1,
        max=10**6,
        none=True,
    ),
)


@dataclass(frozen=True, slots=True)
class SeptEtDemiOptions(GameOptions):
    """Per-table options of Sept et demi (RULES.md section 4), typed, with their defaults."""

    SPECS = SEPT_ET_DEMI_OPTIONS

    deck: str = "40"  # "40" or "32"
    buy_in: int = 200
    min_bet: int = 1
    guarantee_fund: int = 500
    rounds: int | None = None  # None: no round limit
