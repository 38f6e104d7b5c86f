"""What a player (or the system) asks a table to do: one vocabulary for the four games."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from .enums import FastEnum


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


_FIELDS = ("player", "amount", "value", "hand")


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
        for name in _FIELDS:
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
