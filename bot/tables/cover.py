"""What the house must hold before a move (a bet's worst case, a welcome stake) and the
refusal that explains a float too small for it: public figures only, never a card."""

from __future__ import annotations

from collections.abc import Iterable

from bot.engine.base import HOUSE, Action, ActionKind, Event, TableGame

from .errors import TableError
from .floats import most_covered
from .models import Table


def house_needed(table: Table, action: Action, user_id: int | None) -> int:
    """For a bet, before it is staked and any card dealt: the most this round's bets,
    this one included, can win from the house whatever the cards (checked against the
    table's float in the move's transaction; a table without one yet: the treasury).
    A payout the house could not cover would be refused at the settlement, exactly
    when the hidden cards pay the player: that refusal would show them."""
    game = table.game
    if action.kind is not ActionKind.BET or action.amount is None or user_id is None:
        return 0
    if not isinstance(game, TableGame) or game.seat_of(user_id) is None:
        return 0  # the engine refuses it (not seated) without looking at the house
    return game.house_exposure({**game.bets, user_id: action.amount})


def welcome_needed(table: Table, action: Action, events: Iterable[Event]) -> int:
    """For a join the house stakes (a welcome stake), after it is applied: what the
    float must hold first, the round's bets' worst case included, so a join never
    takes what an accepted bet may win."""
    if action.kind is not ActionKind.JOIN or not table.has_float:
        return 0
    given = sum(m.amount for e in events for m in e.money if m.src == HOUSE)
    game = table.game
    return given + game.house_exposure(game.bets) if given else 0


def explained(table: Table, action: Action, user_id: int | None, exc: TableError) -> TableError:
    """A refusal for the float, with what may still be bet (public figures only: the
    float and the bets, never a card)."""
    if exc.code != "float_cannot_cover":
        return exc
    if action.kind is not ActionKind.JOIN and user_id is not None and action.amount:
        held = exc.params["available"]
        assert isinstance(held, int)
        game = table.game
        seat = game.seat_of(user_id)
        least = 1 if seat is None else game.bet_range(seat)[0]
        most = most_covered(game, user_id, held, action.amount - 1)
        if most < least:
            return TableError("float_cannot_cover_any", **exc.params)
        return TableError("float_cannot_cover", most=most, **exc.params)
    return TableError("float_cannot_welcome", **exc.params)
