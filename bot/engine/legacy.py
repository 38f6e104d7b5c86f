"""The protocol of the games not yet ported onto :class:`~bot.engine.base.TableGame`.

Casino 21, Pirate 21 and Sept et demi still carry their own plumbing; this class gives
them the API the table service and the renderers use (the same as ``TableGame``'s):
``deadline`` as data, ``seated()``, ``buy_in()``, ``create()``. It goes when the last of
them is ported (docs/ARCHITECTURE.md, "Adding a game")."""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Mapping
from typing import Any, ClassVar, Self

from .actions import Action, ActionKind
from .base import BuyIn
from .events import Event
from .phases import DEADLINES, Deadline, Phase
from .shuffle import Entropy, secure_entropy


class Game(ABC):
    """A game with its own plumbing. State is mutable; ``apply`` is atomic: on
    :class:`~bot.engine.errors.IllegalAction` nothing has changed."""

    GAME: ClassVar[str]
    MONEY: ClassVar[bool] = True
    round: int
    host: int | None
    options: Any  # the game's options dataclass (``to_dict()``), typed once ported

    def __init__(self, *, entropy: Entropy = secure_entropy) -> None:
        self.entropy = entropy

    @classmethod
    @abstractmethod
    def create(cls, host: int, options: Mapping[str, Any], entropy: Entropy) -> Self:
        """A new table hosted by ``host``."""

    @property
    @abstractmethod
    def phase(self) -> Phase:
        """The current phase."""

    @property
    @abstractmethod
    def to_act(self) -> int | None:
        """The player whose turn it is, or None when several or nobody may act."""

    def turn_key(self) -> str:
        """Names the turn a deadline belongs to."""
        return str(self.to_act)

    @property
    def deadline(self) -> Deadline | None:
        """The timer the table runs now: its kind and the turn it belongs to."""
        phase = self.phase
        kind = DEADLINES.get(phase)
        if kind is None:
            return None
        return Deadline(kind, f"{phase.value}:{kind.value}:{self.turn_key()}:{self.round}")

    @abstractmethod
    def seated(self) -> list[int]:
        """Seated players in seat order."""

    def buy_in(self) -> BuyIn:
        """What ``/table join`` takes from the wallet at this table."""
        return BuyIn()

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
