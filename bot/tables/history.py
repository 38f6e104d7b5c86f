"""A table's history (``/table history``, issue 39): each settled round's public summary
and every deck the table shuffled, with its seed once revealed (migration 0014). Written in
the transaction of the move that settled the round, committed the deck or revealed its
seed, so the history holds exactly what the table made public, nothing of a round still
being played (its cards stay hidden; its deck's seed is not revealed yet). No discord
imports: the summaries' texts come from ``summarize``, the UI's renderer, set by the app."""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import orjson

from bot.db import Conn
from bot.engine.base import ROUND_SETTLED, Event, Visibility
from bot.engine.events import ROUND_STARTED, SEED_REVEALED, SHUFFLE

from .models import Table

log = logging.getLogger(__name__)

#: (table, the move's events, the settled round's event) -> {locale: summary text}
Summarize = Callable[[Table, list[Event], Event], dict[str, str]]


@dataclass(frozen=True)
class Deck:
    """One deck a table shuffled: its commitment and spec, the rounds it dealt (None:
    unknown, or still dealing), its seed once revealed."""

    commitment: str
    deck: str
    first_round: int | None = None
    last_round: int | None = None
    seed: str | None = None

    def dealt(self, round_no: int) -> bool:
        """Whether this deck dealt in ``round_no`` (a deck shuffled before the history
        existed is not placed in any round)."""
        if self.first_round is None or self.first_round > round_no:
            return False
        return self.last_round is None or self.last_round >= round_no


@dataclass(frozen=True)
class Round:
    """One settled round: its number, its summary per locale, when it settled."""

    number: int
    summary: dict[str, str]
    at: float


@dataclass
class Chronicle:
    """What one move adds to the history."""

    rounds: list[Round] = field(default_factory=list)
    shuffled: list[Deck] = field(default_factory=list)
    revealed: list[Deck] = field(default_factory=list)

    def __bool__(self) -> bool:
        return bool(self.rounds or self.shuffled or self.revealed)


def _round_of_shuffle(events: Sequence[Event], i: int, current: int) -> int:
    """The round a deck committed at ``events[i]`` deals first: the round the batch starts
    next (a deck shuffled just before its round's start), unless a round settles first."""
    for event in events[i + 1 :]:
        if event.kind == ROUND_SETTLED:
            break
        if event.kind == ROUND_STARTED:
            return int(event.data.get("round", current + 1))
    return current


def chronicle(
    table: Table, events: list[Event], before: int | None, now: float, summarize: Summarize | None
) -> Chronicle:
    """The rounds settled, decks committed and seeds revealed by one move (``before``: the
    round the table was at before it)."""
    out = Chronicle()
    current = before or 0
    public = [e for e in events if e.visibility is Visibility.PUBLIC]
    for i, event in enumerate(public):
        data = event.data
        if event.kind == ROUND_STARTED:
            current = int(data.get("round", current + 1))
        elif event.kind == SHUFFLE and data.get("commitment"):
            first = _round_of_shuffle(public, i, current)
            out.shuffled.append(Deck(str(data["commitment"]), str(data["spec"]), first))
        elif event.kind == SEED_REVEALED:
            deck = Deck(str(data["commitment"]), str(data["spec"]), None, current, data["seed"])
            out.revealed.append(deck)
        elif event.kind == ROUND_SETTLED:
            number = int(data.get("round", current))
            out.rounds.append(Round(number, _texts(table, events, event, summarize), now))
    return out


def _texts(
    table: Table, events: list[Event], event: Event, summarize: Summarize | None
) -> dict[str, str]:
    if summarize is None:
        return {}
    try:
        return summarize(table, events, event)
    except Exception:  # never refuse a move for its history: the round is kept without text
        log.exception("table %s: the round summary for the history failed", table.id)
        return {}


_DECK = (
    "INSERT INTO table_decks (table_id, commitment, deck, first_round, last_round, seed)"
    " VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (table_id, commitment) DO UPDATE SET"
    " first_round = COALESCE(table_decks.first_round, excluded.first_round),"
    " last_round = COALESCE(excluded.last_round, table_decks.last_round),"
    " seed = COALESCE(excluded.seed, table_decks.seed)"
)
_ROUND = (
    "INSERT INTO table_rounds (table_id, round, summary, at) VALUES (?, ?, ?, ?)"
    " ON CONFLICT (table_id, round) DO NOTHING"
)


def statements(table_id: int, done: Chronicle) -> list[tuple[str, tuple[object, ...]]]:
    """One move's history as statements that touch distinct rows (a deck committed and
    revealed by the same move is one row): sent with the move's own rows, no round trip
    of their own (``Conn.execute_together``)."""
    decks: dict[str, Deck] = {}
    for deck in done.shuffled:
        decks[deck.commitment] = deck
    for deck in done.revealed:
        known = decks.get(deck.commitment)
        first = known.first_round if known is not None else None
        decks[deck.commitment] = Deck(deck.commitment, deck.deck, first, deck.last_round, deck.seed)
    out: list[tuple[str, tuple[object, ...]]] = [
        (_DECK, (table_id, d.commitment, d.deck, d.first_round, d.last_round, d.seed))
        for d in decks.values()
    ]
    for played in done.rounds:
        summary = orjson.dumps(played.summary).decode()
        out.append((_ROUND, (table_id, played.number, summary, played.at)))
    return out


@dataclass(frozen=True)
class History:
    """The last rounds of a table (oldest first) and the decks they dealt from."""

    table_id: int
    rounds: list[Round]
    decks: list[Deck]


async def read(c: Conn, table_id: int, limit: int) -> History:
    """The last ``limit`` settled rounds and every deck that dealt in them or was revealed
    since the first of them (a deck still in play: no seed)."""
    rows = await c.fetchall(
        "SELECT round, summary, at FROM table_rounds WHERE table_id = ?"
        " ORDER BY round DESC LIMIT ?",
        (table_id, limit),
    )
    rounds = [Round(int(r[0]), orjson.loads(r[1]), float(r[2])) for r in reversed(rows)]
    if not rounds:
        return History(table_id, [], [])
    low, high = rounds[0].number, rounds[-1].number
    decks = await c.fetchall(
        "SELECT commitment, deck, first_round, last_round, seed FROM table_decks"
        " WHERE table_id = ? AND (first_round IS NULL OR first_round <= ?)"
        " AND (last_round IS NULL OR last_round >= ?)"
        " ORDER BY COALESCE(first_round, last_round), commitment",
        (table_id, high, low),
    )
    found = [Deck(str(d[0]), str(d[1]), d[2], d[3], d[4]) for d in decks]
    return History(table_id, rounds, found)


async def table_of_channel(c: Conn, guild_id: int, channel_id: int) -> tuple[int, str] | None:
    """The last table of a channel or thread of ``guild_id`` (open or closed): its id and
    name."""
    row = await c.fetchone(
        "SELECT id, settings FROM tables WHERE channel_id = ? AND guild_id = ?"
        " ORDER BY id DESC LIMIT 1",
        (channel_id, guild_id),
    )
    if row is None:
        return None
    return int(row[0]), str(orjson.loads(row[1]).get("name") or "")
