"""The views a game hands the renderers: frozen dataclasses, read by attribute.

:meth:`TableGame.public_view` builds a :class:`TableView` (what everybody may see: never a
face-down card) and :meth:`TableGame.private_view` a :class:`PrivateView` (that, plus one
player's own part). The base fills the fields every table shares; a game adds its public
per-seat state by returning a :class:`SeatView` subclass from ``seat_view``, its public
table state as a :class:`GamePart` subclass from ``view`` (``TableView.own``) and what only
one player sees as a :class:`PrivatePart` subclass from ``private_part`` (``YouView.own``).

A view is built once per state (the game keeps it until ``touch``; the publisher reads
it several times a move): it holds tuples and the game's own immutable values, never a
deep copy of its state. The summaries of rounds and results (``last_round``, a result
row, a ranking) are typed too (:mod:`.summaries`), read from the mappings the events and
snapshots keep. :func:`as_dict` gives the JSON-able form (tests, tools).
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import TYPE_CHECKING, Any

from .options import GameOptions
from .summaries import CasinoResult, PirateRank, RoundSummary, SeptGameOver

if TYPE_CHECKING:
    from _typeshed import DataclassInstance

#: A card as a view shows it: its code, or None face down.
Shown = str | None


@dataclass(frozen=True, slots=True)
class SeatView:
    """One seat in the public view: the player, their stack (a game's points) and bet."""

    player: int
    stack: int
    bet: int


@dataclass(frozen=True, slots=True)
class ShoeView:
    """The shoe in use: its number, public commitment, size and cards left in it, and the
    client seeds (user id, seed) mixed into its order."""

    number: int
    commitment: str
    size: int
    remaining: int
    clients: tuple[tuple[int, str], ...] = ()


@dataclass(frozen=True, slots=True)
class GamePart:
    """A game's own public state (``TableView.own``); a game subclasses it."""


@dataclass(frozen=True, slots=True)
class PrivatePart:
    """What only one player sees at a game (``YouView.own``); a game subclasses it."""


@dataclass(frozen=True, slots=True)
class TableView:
    """What everybody may see at a table."""

    game: str
    phase: str
    round: int
    host: int | None
    options: GameOptions
    seats: tuple[SeatView, ...]
    to_act: int | None
    waiting: tuple[int, ...]
    deadline: str | None
    pot: int
    shoe: ShoeView | None
    next_commitment: str | None
    last_round: RoundSummary | None  # the last round's (from its ``round_settled`` data)
    own: GamePart | None  # the game's own public state

    def seat(self, player: int) -> SeatView | None:
        """``player``'s seat, None when they have none."""
        return next((s for s in self.seats if s.player == player), None)


@dataclass(frozen=True, slots=True)
class YouView:
    """One player's own part: seated or not, their stack, the moves they may make."""

    player: int
    seated: bool
    stack: int | None
    legal: tuple[str, ...]  # the action kinds' values, sorted
    own: PrivatePart | None  # the game's part only they see (their hidden cards)


@dataclass(frozen=True, slots=True)
class PrivateView:
    """The public view and one player's own part."""

    table: TableView
    you: YouView


def as_dict(view: DataclassInstance) -> dict[str, Any]:
    """A view as plain JSON-able data (deep: for tests and tools, never per edit)."""
    return asdict(view)


# ====================================================================== Black Jack


@dataclass(frozen=True, slots=True)
class HandView:
    """A Black Jack hand (a split makes more): its cards, total, bet and how it ended."""

    index: int
    player: int
    cards: tuple[str, ...]
    total: int
    soft: bool
    bet: int
    status: str
    doubled: bool
    split: bool
    result: str | None
    net: int


@dataclass(frozen=True, slots=True)
class DealerView:
    """The dealer's hand, the hole card face down (None) until it is turned."""

    cards: tuple[Shown, ...]
    total: int | None  # of the cards face up; None before the deal
    soft: bool
    hole_hidden: bool


@dataclass(frozen=True, slots=True)
class InsuranceView:
    """One player's insurance stake."""

    player: int
    amount: int


@dataclass(frozen=True, slots=True)
class BlackjackPart(GamePart):
    """A Black Jack table: the insurance stakes, every hand, the hand playing, the dealer."""

    insurance: tuple[InsuranceView, ...]
    hands: tuple[HandView, ...]
    current_hand: int | None
    dealer: DealerView


@dataclass(frozen=True, slots=True)
class BlackjackYou(PrivatePart):
    """A Black Jack player's own part: the bets they may place (None: not seated)."""

    bet_limits: tuple[int, int] | None


# ====================================================================== Casino 21


@dataclass(frozen=True, slots=True)
class CasinoSeatView(SeatView):
    """A Casino 21 seat: its cards (all face up), their values, its status and money."""

    in_pot: int
    status: str
    cards: tuple[str, ...]
    values: tuple[int | None, ...]  # None: an ace not valued yet
    total: int
    pending_ace: bool
    moved: bool
    blackjack: bool
    welcome: int
    own: int
    wagered: int
    wager_left: int
    leave_forfeit: int
    leave_keep: int


@dataclass(frozen=True, slots=True)
class CasinoBankView:
    """The bank's hand: its face-down cards (and their values) are None."""

    cards: tuple[Shown, ...]
    values: tuple[int | None, ...]
    total: int  # of the values shown
    revealed: bool
    blackjack: bool | None  # None until revealed


@dataclass(frozen=True, slots=True)
class CasinoPart(GamePart):
    """A Casino 21 table: the drawing turn, the cards left, the bank, the results so far."""

    turn: int
    cards_left: int
    max_draw: int
    bank: CasinoBankView
    results: tuple[CasinoResult, ...]  # this round's results (each seat's outcome)


# ====================================================================== Pirate 21


@dataclass(frozen=True, slots=True)
class PirateSeatView(SeatView):
    """A Pirate 21 seat: ``stack`` is its coins (no bets: ``bet`` is 0); the number of
    its hidden cards, never which; its extra cards, face up."""

    out: bool
    dealer: bool
    in_round: bool
    hidden: int
    extra: tuple[str, ...]
    done: bool


@dataclass(frozen=True, slots=True)
class PiratePart(GamePart):
    """A Pirate 21 table: the variant, dealer, treasure, pile and the final ranking."""

    variant: str
    dealer: int | None
    treasure: int
    pile: int
    discard: int
    end_reason: str | None
    ranking: tuple[PirateRank, ...] | None  # the final ranking, once the game ended


@dataclass(frozen=True, slots=True)
class PirateYou(PrivatePart):
    """A Pirate 21 player's own hand while they are dealt: hidden and extra cards, total."""

    cards: tuple[str, ...]
    extra: tuple[str, ...]
    total: int
    bust: bool
    blackjack: bool


# ====================================================================== Sept et demi


@dataclass(frozen=True, slots=True)
class SeptSeatView(SeatView):
    """A Sept et demi seat: banker or not, status, cards shown, the face-down card's count."""

    banker: bool
    status: str
    shown: tuple[str, ...]
    shown_total: int
    hidden: int
    pending: bool
    voted_stop: bool
    total: int | None  # only when every card is shown


@dataclass(frozen=True, slots=True)
class SeptBankView:
    """The bank's hand: the banker, the cards shown, how many face down."""

    banker: int | None
    shown: tuple[str, ...]
    hidden: int
    total: int | None  # only when every card is shown


@dataclass(frozen=True, slots=True)
class FundView:
    """The guarantee fund: its balance, what it started with, open or not."""

    balance: int
    initial: int
    open: bool


@dataclass(frozen=True, slots=True)
class SeptPart(GamePart):
    """A Sept et demi table: the rounds, the banker, the fund, the bank, the votes to stop."""

    rounds_played: int
    rounds_limit: int | None
    banker: int | None
    fund: FundView
    bank: SeptBankView
    votes: tuple[int, ...]
    votes_needed: int
    stop_pending: bool
    result: SeptGameOver | None  # the game's result (its ``game_over`` data), once ended


@dataclass(frozen=True, slots=True)
class SeptYou(PrivatePart):
    """A Sept et demi player's own cards and true total; the bets open to them now."""

    hidden: str | None
    pending: str | None
    total: int
    bet_range: tuple[int, int] | None
