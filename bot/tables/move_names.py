"""Moves as players name them, in one table: the engine action each plays, the slash
command that plays it and that command's description. The buttons' moves, the move
commands (``cogs/tables/moves.py`` builds them from ``MOVES``), ``COMMAND_OF`` and
``/help`` all read it."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, NamedTuple

from bot.engine.base import Action, ActionKind, IllegalAction, TableGame
from bot.engine.errors import NOT_SEATED

from .errors import TableError

K = ActionKind


class Move(NamedTuple):
    """A move by its name: the action it plays, which Action field its numeric argument
    fills, the slash command that plays it (None: a button only) and, on the command's
    first move, its description in English (``cmd.<command>.description`` translates)."""

    kind: ActionKind
    field: str | None = None
    command: str | None = None
    about: str = ""


#: move name -> Move; the move commands are made, and listed, in this order
MOVES: dict[str, Move] = {
    "start": Move(K.START),
    "leave": Move(K.LEAVE),
    "leave_confirm": Move(K.LEAVE),
    # leave, then the stack's claim paid into the balance where it needs no approval
    "leave_collect": Move(K.LEAVE),
    "leave_collect_confirm": Move(K.LEAVE),
    "bet": Move(K.BET, "amount"),
    "sit_out": Move(K.SIT_OUT),
    "hit": Move(K.HIT, None, "hit", "Hit: one more card"),
    "stand": Move(K.STAND, None, "stand", "Stand: stop drawing"),
    "double": Move(K.DOUBLE, None, "double", "Double your bet, take one card"),
    "split": Move(K.SPLIT, None, "split", "Split a pair"),
    "surrender": Move(K.SURRENDER, None, "surrender", "Give up the hand for half the bet"),
    "insurance": Move(K.INSURANCE, None, "insurance", "Insure against a dealer Black Jack"),
    "no_insurance": Move(K.NO_INSURANCE, None, "insurance"),  # /insurance take:False
    "draw": Move(K.DRAW, "amount", "draw", "Casino 21: draw several cards at once"),
    "ace": Move(K.CHOOSE_ACE, "value", "ace", "Casino 21: value of your ace"),
    "end_turn": Move(K.END_TURN, None, "end-turn", "Casino 21: end the turn (host)"),
    "show": Move(K.SHOW, None, "show", "Sept et demi: show the new card"),
    "swap": Move(K.SWAP, None, "hide", "Sept et demi: hide the new card and show the hidden one"),
    "vote_stop": Move(K.VOTE_STOP),
    "top_up": Move(K.TOP_UP, "amount"),
}

COLLECT_MOVES = frozenset({"leave_collect", "leave_collect_confirm"})
CONFIRMED = frozenset({"leave_confirm", "leave_collect_confirm"})  # a forfeit accepted


def build_action(move: str, player: int, arg: int | None = None) -> Action:
    """The engine action for ``move`` by ``player`` with its numeric argument."""
    if move not in MOVES:
        raise TableError("unknown_move", move=move)
    kind, field = MOVES[move][:2]
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
COMMAND_OF: dict[ActionKind, str] = {m.kind: m.command for m in MOVES.values() if m.command}


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
