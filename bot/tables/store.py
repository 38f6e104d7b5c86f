"""The tables' SQL: the record of one move and its row writer, a new table's row, the load
queries and the snapshot writes. Functions taking a :class:`~bot.db.Conn` (run through
``db.write`` / ``db.read``); no game logic.

A move writes one ``table_actions`` row per version under a UNIQUE (table, version) index,
and a snapshot write is ``UPDATE ... WHERE version = ?``: a copy another process moved on is
refused (:class:`~bot.tables.errors.StaleTable`), see ``bot/tables/service.py``.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import NamedTuple

from bot.db import Conn, IntegrityError, Row
from bot.engine.base import Money

from .errors import StaleTable, TableError
from .floats import FloatTerms
from .models import Table


class MoveRecord(NamedTuple):
    """One move as a transaction writes it: its action row, its snapshot at a snapshot
    point, its postings and what the house must cover first. Read by name only; a typed
    NamedTuple, not a frozen dataclass: that one's ``__init__`` sets each field through
    ``object.__setattr__``, 19,000 instructions more per move (1.3 % of a move's cost,
    callgrind), where this one costs less than the tuples and partial it replaced."""

    guild_id: int
    table_id: int
    version: int  # the table's version after the move
    user_id: int | None
    interaction_id: int | None
    action_json: str
    at: float
    since: int  # the version of the table's snapshot (the one a new snapshot replaces)
    state_json: str | None = None  # the snapshot at a snapshot point, else None
    round_no: int | None = None  # the game's round, for the postings
    money: Sequence[Money] = ()  # the move's money effects (the postings; none: no posting)
    closing: bool = False
    house_needed: int = 0  # what the float (or the treasury) must hold first
    floated: bool = False  # the house's side is the table's float
    refill: FloatTerms | None = None  # a round started: the float's terms
    # statements that ride along in the same round trip (a settled round's results for
    # the statistics, bot/stats/results.py); their counts are not read
    extra: Sequence[tuple[str, tuple[object, ...]]] = ()

    @property
    def posting_key(self) -> str:
        """The idempotency prefix of the move's postings."""
        return f"table:{self.table_id}:v{self.version}"


_CLOSE_ROW = (
    "UPDATE tables SET state = ?, version = ?, updated_at = ?, status = 'closed',"
    " closed_at = ? WHERE id = ? AND version = ?"
)
_MOVE_ROW = "UPDATE tables SET state = ?, version = ?, updated_at = ? WHERE id = ? AND version = ?"
# a clean stop's snapshot of a table with logged moves after its row's (save_snapshots)
_SAVE_ROW = (
    "UPDATE tables SET state = ?, version = ?, updated_at = ?"
    " WHERE id = ? AND version = ? AND status = 'open'"
)
_ACTION_ROW = (
    "INSERT INTO table_actions (table_id, version, user_id, interaction_id, action, at)"
    " VALUES (?, ?, ?, ?, ?, ?)"
)
_COVER = "SELECT 1 FROM bank_accounts WHERE id = ? AND balance >= ?"
_FULL = "SELECT 1 FROM bank_accounts WHERE id = ? AND balance + ? >= ?"


def _version_taken(exc: IntegrityError) -> bool:
    """Whether the action log already holds this table version (another process wrote it):
    SQLite names the columns, PostgreSQL the index."""
    text = str(exc)
    return "table_actions_one_per_version" in text or "table_actions.version" in text


def _statements(
    move: MoveRecord, cover: tuple[int, int] | None, full: tuple[int, int, int] | None
) -> list[tuple[str, tuple[object, ...]]]:
    """The statements of :func:`write_row`, in its order."""
    table_id, version, at = move.table_id, move.version, move.at
    statements: list[tuple[str, tuple[object, ...]]] = [
        (_ACTION_ROW, (table_id, version, move.user_id, move.interaction_id, move.action_json, at))
    ]
    state_json = move.state_json
    if state_json is not None:
        statements.append(
            (_CLOSE_ROW, (state_json, version, at, at, table_id, move.since))
            if move.closing
            else (_MOVE_ROW, (state_json, version, at, table_id, move.since))
        )
    if cover is not None:
        statements.append((_COVER, cover))
    if full is not None:
        statements.append((_FULL, full))
    return statements


async def write_row(
    c: Conn,
    move: MoveRecord,
    cover: tuple[int, int] | None = None,
    full: tuple[int, int, int] | None = None,
) -> bool:
    """The action row of one move, its snapshot when it is a snapshot point (the tables row
    at version ``move.since`` moves to ``move.version``), the house's cover (``cover``:
    (account, amount) it must hold) and whether the float needs no refill (``full``:
    (account, what the move's postings add to it, the least it must then hold); the
    result, True without ``full``): one round trip where the database gathers statements.
    The timers are derived from the row's ``updated_at`` and snapshot deadline, and from
    the logged actions after it."""
    statements = _statements(move, cover, full)
    last = len(statements) - 1
    statements += move.extra
    try:
        counts = await c.execute_together(statements)
    except IntegrityError as exc:
        if _version_taken(exc):  # a stale copy: this version is in the log already
            raise StaleTable(move.table_id) from None
        raise
    snapshot = move.state_json is not None
    if snapshot and counts[1] != 1:
        raise StaleTable(move.table_id)
    if cover is not None and counts[1 + snapshot] == 0:
        raise TableError("house_cannot_cover", needed=cover[1])
    return full is None or counts[last] == 1


async def insert_table(c: Conn, table: Table, now: float) -> int:
    """A new table's row (its snapshot comes with its first store); its id."""
    table_id = await c.insert(
        "INSERT INTO tables (guild_id, channel_id, parent_id, message_id, game, host_id,"
        " settings, state, version, created_at, updated_at)"
        " VALUES (?, ?, ?, ?, ?, ?, ?, '{}', 0, ?, ?)",
        (
            table.guild_id,
            table.channel_id,
            table.parent_id,
            table.message_id,
            table.game_key,
            table.host_id,
            json.dumps(table.settings.to_dict()),
            now,
            now,
        ),
    )
    assert table_id is not None
    return table_id


# the logged actions after a table's snapshot, in order (what a load replays)
_PENDING = (
    "SELECT a.table_id, a.version, a.user_id, a.action, a.at FROM tables t"
    " JOIN table_actions a ON a.table_id = t.id AND a.version > t.version"
)


async def open_rows(
    c: Conn, shards: tuple[int, tuple[int, ...]] | None
) -> tuple[list[Row], list[Row]]:
    """The open tables' rows and, in one more query for all of them, their pending actions."""
    params: tuple[int, ...]
    where, params = "t.status = 'open'", ()
    if shards is not None:
        count, ids = shards  # Discord's routing: shard = (guild_id >> 22) % count
        where += f" AND ((t.guild_id / 4194304) % ?) IN ({', '.join('?' * len(ids))})"
        params = (count, *ids)
    rows = await c.fetchall(f"SELECT t.* FROM tables t WHERE {where} ORDER BY t.id", params)
    actions = await c.fetchall(f"{_PENDING} WHERE {where} ORDER BY a.table_id, a.version", params)
    return rows, actions


async def row_of(c: Conn, table_id: int) -> tuple[Row | None, list[Row]]:
    """One table's row and its pending actions."""
    row = await c.fetchone("SELECT * FROM tables WHERE id = ?", (table_id,))
    actions = await c.fetchall(f"{_PENDING} WHERE t.id = ? ORDER BY a.version", (table_id,))
    return row, actions


async def save_rows(c: Conn, rows: list[tuple[str, int, float, int, int]]) -> None:
    """Snapshots (state, version, updated_at, id, the row's version) of open tables."""
    await c.executemany(_SAVE_ROW, rows)


async def acted(c: Conn, interaction_id: int) -> bool:
    """Whether the action log holds this interaction."""
    found = await c.fetchone(
        "SELECT 1 FROM table_actions WHERE interaction_id = ?", (interaction_id,)
    )
    return found is not None


async def set_message(c: Conn, table_id: int, message_id: int) -> None:
    """Store the table's public message id."""
    await c.execute("UPDATE tables SET message_id = ? WHERE id = ?", (message_id, table_id))
