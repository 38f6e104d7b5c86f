"""What a table tells the world: events, who may see them, and the money they move.

Events say who may see them and carry every money effect as integers, so the table
service can post them to the bank in the same transaction as the new snapshot.

Money endpoints (``Money.src`` / ``Money.dst``) are strings the bank maps to accounts:

- ``wallet:<player>``  the player's bank balance (buy-ins and top-ups come from it)
- ``seat:<player>``    the player's table stack (escrow); the engine's ``stack`` equals it
- ``pot``              the table's round escrow: bets wait here until settled
- ``house``            the guild treasury (the casino): pays wins, receives losses
- ``fund``             the table's guarantee fund (Sept et demi)
- ``claim:<player>``   a pending claim the player collects with ``/bank claim``

The event kinds below are the ones every game shares (the base emits most of them); a
game adds kinds of its own for its own moves (``hit``, ``dealer_card``, ``showdown``...).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

from .enums import FastEnum
from .shuffle import commitment

# --------------------------------------------------------------------------- kinds

JOINED = "joined"  # data: seat, stack (+ the game's)
LEFT = "left"  # data: reason (leave, close, empty_stack, ...), keep, forfeit
TOPPED_UP = "topped_up"  # data: amount, stack
HOST_CHANGED = "host_changed"  # player: the new host; data: previous
ROUND_STARTED = "round_started"  # data: round (+ the game's)
SHUFFLE = "shuffle"  # data: number, spec, size, commitment (+ next_commitment)
SEED_REVEALED = "seed_revealed"  # data: seed, commitment, spec
TURN = "turn"  # player: whose turn it is
BET = "bet"  # data: amount
SAT_OUT = "sat_out"  # data: timeout (when the timer did it)
ROUND_SETTLED = "round_settled"  # the one round-end event: the round's summary
ROUND_REFUNDED = "round_refunded"  # an unfinished round's stakes back: data round, refunds
ROUND_CANCELLED = "round_cancelled"  # nobody bet: data round
VOTED_STOP = "vote_stop"  # data: votes, needed, majority, ends_after_round
CLOSED = "closed"  # the table is finished: data reason


class Visibility(FastEnum):
    """Who may see an event or a card."""

    PUBLIC = "public"  # the table channel
    PRIVATE = "private"  # only ``Event.player`` (DM, or ephemeral when DMs are closed)
    HIDDEN = "hidden"  # nobody yet (face down); kept for the log and the showdown


class MoneyKind(FastEnum):
    """Why money moves; mirrors the bank's ledger kinds."""

    BUY_IN = "buy_in"  # wallet -> seat
    WELCOME_STAKE = "welcome_stake"  # house -> seat
    TOP_UP = "top_up"  # wallet -> seat
    BET = "bet"  # seat -> pot (insurance, doubles and splits too)
    PAYOUT = "payout"  # pot/house/seat/fund -> seat
    REFUND = "refund"  # pot -> seat (push, surrender half, unfinished round)
    LOSS = "loss"  # pot -> house or pot -> banker's seat (a lost bet)
    FORFEIT = "forfeit"  # seat -> house (welcome stake returned on an early leave)
    FUND_OPEN = "fund_open"  # house -> fund
    FUND_CLOSE = "fund_close"  # fund -> house
    CASH_OUT = "cash_out"  # seat -> claim (leaving the table)


@dataclass(frozen=True, slots=True)
class Money:
    """One integer money movement; ``exact`` shows an unrounded figure (e.g. '22.5')."""

    kind: MoneyKind
    src: str
    dst: str
    amount: int
    player: int | None = None
    exact: str | None = None

    def __post_init__(self) -> None:
        if not isinstance(self.amount, int) or isinstance(self.amount, bool) or self.amount < 0:
            raise ValueError(f"money amount must be a non-negative int, got {self.amount!r}")

    def to_dict(self) -> dict[str, Any]:
        """JSON-able form."""
        out: dict[str, Any] = {
            "kind": self.kind.value,
            "src": self.src,
            "dst": self.dst,
            "amount": self.amount,
        }
        if self.player is not None:
            out["player"] = self.player
        if self.exact is not None:
            out["exact"] = self.exact
        return out


def seat(player: int) -> str:
    """Money endpoint of a player's table stack."""
    return f"seat:{player}"


def wallet(player: int) -> str:
    """Money endpoint of a player's bank balance."""
    return f"wallet:{player}"


def claim(player: int) -> str:
    """Money endpoint of a player's pending claim."""
    return f"claim:{player}"


POT = "pot"
HOUSE = "house"
FUND = "fund"


def exact_figure(numerator: int, denominator: int) -> str | None:
    """The exact decimal figure of numerator/denominator when it is not whole."""
    if numerator % denominator == 0:
        return None
    return format((Decimal(numerator) / Decimal(denominator)).normalize(), "f")


@dataclass(frozen=True, slots=True)
class Event:
    """Something that happened. ``player`` is the recipient of a PRIVATE event, else the
    player it is about (or None). ``data`` is JSON-able; ``money`` lists its effects."""

    kind: str
    visibility: Visibility = Visibility.PUBLIC
    player: int | None = None
    data: Mapping[str, Any] = field(default_factory=dict)
    money: tuple[Money, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        """JSON-able form."""
        out: dict[str, Any] = {"kind": self.kind, "visibility": self.visibility.value}
        if self.player is not None:
            out["player"] = self.player
        if self.data:
            out["data"] = dict(self.data)
        if self.money:
            out["money"] = [m.to_dict() for m in self.money]
        return out

    def visible_to(self, player: int | None) -> bool:
        """True when ``player`` (None = the public) may see this event."""
        if self.visibility is Visibility.PUBLIC:
            return True
        if self.visibility is Visibility.PRIVATE:
            return player is not None and player == self.player
        return False


def public_event(kind: str, about: int | None = None, /, **data: Any) -> Event:
    """An event everyone sees, about ``about`` (a player) or the table."""
    return Event(kind, Visibility.PUBLIC, about, data)


def private_event(kind: str, to: int, /, **data: Any) -> Event:
    """An event only player ``to`` sees."""
    return Event(kind, Visibility.PRIVATE, to, data)


def reveal_event(
    seed: bytes, spec: str, number: int = 0, clients: Sequence[tuple[int, str]] = ()
) -> Event:
    """The PUBLIC event that reveals a retired deck's seed, with the same data in every game:
    the seed, its commitment and the deck spec, and for a deck mixed with client seeds the
    shoe number and those seeds (user id, seed), which is what ``python -m bot verify``
    takes (``verify SEED COMMITMENT SPEC [--shoe N --client-seeds ...]``)."""
    data: dict[str, Any] = {"seed": seed.hex(), "commitment": commitment(seed), "spec": spec}
    if clients:
        data["number"] = number
        data["clients"] = [list(c) for c in clients]
    return Event(SEED_REVEALED, data=data)
