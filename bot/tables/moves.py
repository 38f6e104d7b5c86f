"""Moves as players name them (buttons and slash commands) mapped to engine actions."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from bot.engine.base import Action, ActionKind, IllegalAction, TableGame
from bot.engine.errors import NOT_SEATED

from .errors import TableError

#: move name -> (action kind, which Action field the numeric argument fills)
MOVES: dict[str, tuple[ActionKind, str | None]] = {
    "start": (ActionKind.START, None),
    "leave": (ActionKind.LEAVE, None),
    "leave_confirm": (ActionKind.LEAVE, None),
    # leave, then the stack's claim paid into the balance where it needs no approval
    "leave_collect": (ActionKind.LEAVE, None),
    "leave_collect_confirm": (ActionKind.LEAVE, None),
    "bet": (ActionKind.BET, "amount"),
    "sit_out": (ActionKind.SIT_OUT, None),
    "hit": (ActionKind.HIT, None),
    "stand": (ActionKind.STAND, None),
    "double": (ActionKind.DOUBLE, None),
    "split": (ActionKind.SPLIT, None),
    "insurance": (ActionKind.INSURANCE, None),
    "no_insurance": (ActionKind.NO_INSURANCE, None),
    "surrender": (ActionKind.SURRENDER, None),
    "draw": (ActionKind.DRAW, "amount"),
    "ace": (ActionKind.CHOOSE_ACE, "value"),
    "end_turn": (ActionKind.END_TURN, None),
    "show": (ActionKind.SHOW, None),
    "swap": (ActionKind.SWAP, None),
    "vote_stop": (ActionKind.VOTE_STOP, None),
    "top_up": (ActionKind.TOP_UP, "amount"),
}

COLLECT_MOVES = frozenset({"leave_collect", "leave_collect_confirm"})
CONFIRMED = frozenset({"leave_confirm", "leave_collect_confirm"})  # a forfeit accepted


def build_action(move: str, player: int, arg: int | None = None) -> Action:
    """The engine action for ``move`` by ``player`` with its numeric argument."""
    if move not in MOVES:
        raise TableError("unknown_move", move=move)
    kind, field = MOVES[move]
    if field is not None and arg is None:
        raise TableError("missing_amount", move=move)
    return Action(
        kind,
        player,
        amount=arg if field == "amount" else None,
        value=arg if field == "value" else None,
        confirm=move in CONFIRMED,
    )


#: the move commands, by the move each plays (``/insurance`` plays both insurance moves)
COMMAND_OF: dict[ActionKind, str] = {
    ActionKind.HIT: "hit",
    ActionKind.STAND: "stand",
    ActionKind.DOUBLE: "double",
    ActionKind.SPLIT: "split",
    ActionKind.SURRENDER: "surrender",
    ActionKind.INSURANCE: "insurance",
    ActionKind.NO_INSURANCE: "insurance",
    ActionKind.DRAW: "draw",
    ActionKind.CHOOSE_ACE: "ace",
    ActionKind.END_TURN: "end-turn",
    ActionKind.SHOW: "show",
    ActionKind.SWAP: "hide",
}


def move_commands(own: Iterable[ActionKind]) -> list[str]:
    """The move commands of a game with these moves (``own_moves``), once each, in order."""
    kinds = set(own)
    return list(dict.fromkeys(c for k, c in COMMAND_OF.items() if k in kinds))


REBET_FACTORS = (1, 2)  # "Same bet" and "Rebet ×2"


def rebet_action(game: TableGame[Any], player: int, factor: int | None) -> Action:
    """The bet of ``player``'s last round times ``factor`` ("Same bet", "Rebet ×2"): a
    plain BET, logged and replayed as one, and checked as one (stack, range, phase)."""
    if factor not in REBET_FACTORS:
        raise TableError("unknown_move", move="rebet")
    seat = game.seat_of(player)
    if seat is None:
        raise IllegalAction(NOT_SEATED)
    if not seat.last_bet:
        raise TableError("no_last_bet")
    return Action(ActionKind.BET, player, amount=seat.last_bet * factor)
