"""Loading a table: its row's snapshot parsed, then the actions logged after it replayed
through the live move's own steps (:func:`follow_up`, :func:`advance`), each at its logged
time, so the table comes back exactly as it was."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable
from typing import Any

import orjson

from bot.db import Row
from bot.engine.base import ROUND_SETTLED, Action, ActionKind, IllegalAction, Phase
from bot.engine.shuffle import Entropy

from .games import GAMES
from .models import Outcome, Table, TableSettings
from .timers import update_deadline

# what a load sets on a table beyond its row's fixed columns (a restore copies these)
LOADED = (
    "game",
    "version",
    "snapshot_version",
    "last_acted",
    "round_no",
    "round_version",
    "deadline_key",
    "deadline_due",
    "moved_at",
    "has_float",
)


def table_from_row(row: Any, entropy: Entropy) -> Table:
    """A table from its ``tables`` row (its game drawing seeds from ``entropy``)."""
    spec = GAMES[row["game"]]
    state = orjson.loads(row["state"])
    service = state.get("service", {})
    game = spec.load(state["game"], entropy)
    return Table(
        id=row["id"],
        guild_id=row["guild_id"],
        channel_id=row["channel_id"],
        parent_id=row["parent_id"],
        message_id=row["message_id"],
        game_key=spec.key,  # a table stored as "classic" is a "blackjack" table
        host_id=row["host_id"],
        settings=TableSettings.from_dict(json.loads(row["settings"])),
        game=game,
        version=row["version"],
        status=row["status"],
        last_acted={int(k): v for k, v in service.get("last_acted", {}).items()},
        deadline_key=service.get("deadline_key"),
        deadline_due=service.get("deadline_due"),
        round_no=service.get("round_no", game.round),
        round_version=service.get("round_version", 0),
        snapshot_version=row["version"],
        has_float=service.get("float", False),
    )


def replay(table: Table, actions: Iterable[Row], last_at: float, draws: Callable[[], int]) -> float:
    """Apply the logged actions (table_id, version, user_id, action, at) after the
    snapshot through the live move's code, each at its own time (``draws``: the seeds
    drawn so far); the last one's time."""
    for _, version, user_id, action_json, at in actions:
        if version != table.version + 1:
            raise RuntimeError(f"table {table.id}: no action logged for v{table.version + 1}")
        drawn, shuffles = draws(), table.game.shuffles
        action = Action.from_dict(orjson.loads(action_json))
        outcome = Outcome(table, list(table.game.apply(action)))
        follow_up(table, outcome)
        # a seed drawn or a shoe shuffled (its client seeds) is a snapshot point: a bug here
        if draws() != drawn or table.game.shuffles != shuffles:
            raise RuntimeError(f"table {table.id}: v{version} replayed drew a seed")
        advance(table, user_id, version, at, outcome.closed)
        table.version, last_at = version, at
    return last_at


def try_action(table: Table, outcome: Outcome, action: Action) -> bool:
    """Apply an action the service makes by itself, its events added; False if illegal."""
    try:
        outcome.events.extend(table.game.apply(action))
    except IllegalAction:
        return False
    return True


def follow_up(table: Table, outcome: Outcome) -> None:
    """What the service does by itself after an action: pay out a finished game,
    start the next round after a settled one."""
    game = table.game
    outcome.round_settled = any(e.kind == ROUND_SETTLED for e in outcome.events)
    if game.phase is Phase.FINISHED:
        try_action(table, outcome, Action(ActionKind.CLOSE))
        outcome.closed = True
        return
    # a round nobody played (everyone sat out, e.g. at the betting timeout: a summary
    # with no results) does not start another one: an abandoned table stops dealing
    nobody_played = any(
        e.kind == ROUND_SETTLED and e.data.get("results") == [] for e in outcome.events
    )
    if (
        outcome.round_settled
        and table.settings.auto_next
        and not nobody_played
        and game.phase in (Phase.BETWEEN_ROUNDS, Phase.LOBBY)
    ):
        host = game.host
        seated = game.seated()
        if host is None or host not in seated:
            # the host left (Sept et demi: out of chips): the first seated player who may
            # start does, so the next round does not wait for a click
            host = next((p for p in seated if ActionKind.START in game.legal_actions(p)), host)
        if host is not None and ActionKind.START in game.legal_actions(host):
            outcome.auto_started = try_action(table, outcome, Action(ActionKind.START, host))


def advance(table: Table, user_id: int | None, new_version: int, now: float, closing: bool) -> bool:
    """The service's own fields after a move, live or replayed at its logged time: who
    acted last at which version, the round and the version that started it, the
    deadline; whether the move started a round (from then on the table has a float:
    one opened before floats existed gets it here)."""
    if user_id is not None:
        table.last_acted[user_id] = new_version
    round_no = table.game.round
    started = round_no != table.round_no and table.round_no is not None
    if round_no != table.round_no:
        table.round_no, table.round_version = round_no, new_version
    if started:
        table.has_float = True
    if not closing:
        update_deadline(table, now)
    return started
