"""The game protocol shared by the four games: actions, events, money effects, errors.

A game is a plain object holding its whole state. ``apply(action)`` validates the action
(raising :class:`IllegalAction`, leaving the state unchanged) and returns the events it
produced. Events say who may see them and carry every money effect as integers, so the
table service can post them to the bank in the same transaction as the new snapshot.

Money endpoints (``Money.src`` / ``Money.dst``) are strings the bank maps to accounts:

- ``wallet:<player>``  the player's bank balance (buy-ins and top-ups come from it)
- ``seat:<player>``    the player's table stack (escrow); the engine's ``stack`` equals it
- ``pot``              the table's round escrow: bets wait here until settled
- ``house``            the guild treasury (the casino): pays wins, receives losses
- ``fund``             the table's guarantee fund (Sept et demi)
- ``claim:<player>``   a pending claim the player collects with ``/bank claim``
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, ClassVar, Self

from .enums import FastEnum
from .shuffle import Entropy, commitment, secure_entropy


class IllegalAction(ValueError):
    """An action the rules do not allow now; ``code`` is a stable key the UI translates."""

    def __init__(self, code: str, **params: object) -> None:
        super().__init__(code)
        self.code = code
        self.params = params


class InvalidOptions(ValueError):
    """Table options out of range; ``code`` and ``params`` describe the first problem."""

    def __init__(self, code: str, **params: object) -> None:
        super().__init__(f"{code} {params}" if params else code)
        self.code = code
        self.params = params


class Visibility(FastEnum):
    """Who may see an event or a card."""

    PUBLIC = "public"  # the table channel
    PRIVATE = "private"  # only ``Event.player`` (DM, or ephemeral when DMs are closed)
    HIDDEN = "hidden"  # nobody yet (face down); kept for the log and the showdown


class Phase(FastEnum):
    """Where a game stands; each game uses the subset it needs."""

    LOBBY = "lobby"  # seats open, not started
    BETTING = "betting"
    INSURANCE = "insurance"
    PLAYING = "playing"  # players' turns
    BANK = "bank"  # a human banker plays the bank's hand (Sept et demi)
    BETWEEN_ROUNDS = "between_rounds"
    FINISHED = "finished"


class Deadline(FastEnum):
    """The timer the UI should run for the current phase."""

    BET = "bet"
    TURN = "turn"


class ActionKind(FastEnum):
    """Every move of every game; a game accepts the subset it knows."""

    JOIN = "join"  # amount = buy-in from the wallet (0 for none)
    LEAVE = "leave"  # confirm=True to accept a forfeit
    TOP_UP = "top_up"  # amount from the wallet
    START = "start"  # host: start the game / the next round
    BET = "bet"  # amount
    SIT_OUT = "sit_out"
    INSURANCE = "insurance"
    NO_INSURANCE = "no_insurance"
    HIT = "hit"
    STAND = "stand"
    DOUBLE = "double"
    SPLIT = "split"
    SURRENDER = "surrender"
    DRAW = "draw"  # Casino 21: amount = number of cards at once (0 = stand)
    CHOOSE_ACE = "choose_ace"  # Casino 21: value = 1 or 11
    END_TURN = "end_turn"  # Casino 21: host ends the turn
    SHOW = "show"  # Sept et demi: show the new card
    SWAP = "swap"  # Sept et demi: hide the new card, show the hidden one
    VOTE_STOP = "vote_stop"
    TIMEOUT = "timeout"  # the timer expired (player None): the game applies its fallback
    CLOSE = "close"  # the table closes: refund the unfinished round, pay stacks out


@dataclass(frozen=True, slots=True)
class Action:
    """A move by ``player`` (None for the system: timers, closing)."""

    kind: ActionKind
    player: int | None = None
    amount: int | None = None
    value: int | None = None
    hand: int | None = None
    confirm: bool = False

    def to_dict(self) -> dict[str, Any]:
        """JSON-able form (only the fields that are set)."""
        out: dict[str, Any] = {"kind": self.kind.value}
        for name in ("player", "amount", "value", "hand"):
            if getattr(self, name) is not None:
                out[name] = getattr(self, name)
        if self.confirm:
            out["confirm"] = True
        return out

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Action:
        """Inverse of :meth:`to_dict`."""
        return cls(
            ActionKind(data["kind"]),
            data.get("player"),
            data.get("amount"),
            data.get("value"),
            data.get("hand"),
            bool(data.get("confirm", False)),
        )


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


SEED_REVEALED = "seed_revealed"


def reveal_event(seed: bytes, spec: str) -> Event:
    """The PUBLIC event that reveals a retired deck's seed, with the same data in every game:
    the seed, its commitment and the deck spec, which is what ``python -m bot verify`` takes
    (``verify SEED COMMITMENT SPEC`` reprints the deck's order)."""
    return Event(
        SEED_REVEALED, data={"seed": seed.hex(), "commitment": commitment(seed), "spec": spec}
    )


class Game(ABC):
    """The protocol every game implements. State is mutable; ``apply`` is atomic: on
    :class:`IllegalAction` nothing has changed."""

    GAME: ClassVar[str]

    def __init__(self, *, entropy: Entropy = secure_entropy) -> None:
        self.entropy = entropy

    @property
    @abstractmethod
    def phase(self) -> Phase:
        """The current phase."""

    @property
    @abstractmethod
    def to_act(self) -> int | None:
        """The player whose turn it is, or None when several or nobody may act."""

    @property
    @abstractmethod
    def deadline(self) -> Deadline | None:
        """The timer the UI should start now, if any."""

    @abstractmethod
    def legal_actions(self, player: int | None) -> frozenset[ActionKind]:
        """The kinds of action ``player`` may take now."""

    @abstractmethod
    def apply(self, action: Action) -> list[Event]:
        """Validate and perform ``action``; return the events it produced."""

    @abstractmethod
    def public_view(self) -> dict[str, Any]:
        """What everybody may see: never a private or face-down card."""

    @abstractmethod
    def private_view(self, player: int) -> dict[str, Any]:
        """The public view plus ``player``'s own hidden cards."""

    @abstractmethod
    def to_dict(self) -> dict[str, Any]:
        """The whole state, JSON-able (secret seeds included: never show it)."""

    @classmethod
    @abstractmethod
    def from_dict(cls, data: Mapping[str, Any], *, entropy: Entropy = secure_entropy) -> Self:
        """Rebuild a game from :meth:`to_dict`; it continues identically."""
