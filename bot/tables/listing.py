"""The lobby (``/table list``, issue 39): a server's open tables as one member may see them,
page by page, read from the service's tables in memory (no query: ~1 ms at 1,000 open
tables, ``python -m bench lobby``). A private table is listed only for its host and the
members invited (``Invites.admits``); newest tables first, so a page stays put while
tables fill up."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from bot.engine.phases import Phase

from .models import Table

PAGE_SIZE = 10  # tables per page (two rows of five Join buttons)


@dataclass(frozen=True)
class Entry:
    """One listed table: what the lobby shows of it."""

    table: Table
    seated: int
    seats: int
    bets: tuple[int, int | None] | None  # (min, max or None: up to the stack); None: no bets
    phase: Phase

    @property
    def free(self) -> int:
        """Seats still free."""
        return max(0, self.seats - self.seated)


@dataclass(frozen=True)
class Page:
    """One page of the lobby (``number`` from 0; ``pages`` at least 1)."""

    entries: list[Entry]
    number: int
    pages: int
    total: int


def listed(
    tables: Sequence[Table],
    guild_id: int,
    viewer: int,
    admits: Callable[[Table, int], bool],
    game: str | None = None,
) -> list[Table]:
    """The open tables of ``guild_id`` that ``viewer`` may see (``game``: one game's only),
    newest first."""
    out = [
        table
        for table in tables
        if table.guild_id == guild_id
        and table.is_open
        and (game is None or table.game_key == game)
        and admits(table, viewer)
    ]
    out.sort(key=lambda table: table.id, reverse=True)
    return out


def entry(table: Table) -> Entry:
    """What the lobby shows of one table (public facts only: seats, bets, phase)."""
    game = table.game
    options = game.options.to_dict()
    bets: tuple[int, int | None] | None = None
    if "min_bet" in options:
        high = options.get("max_bet")
        bets = (int(options["min_bet"]), None if high is None else int(high))
    return Entry(table, len(game.seated()), game.max_seats(), bets, game.phase)


def page_of(tables: Sequence[Table], number: int, size: int = PAGE_SIZE) -> Page:
    """Page ``number`` of ``tables`` (a page past the last: the last)."""
    pages = max(1, -(-len(tables) // size))
    number = min(max(0, number), pages - 1)
    chosen = tables[number * size : (number + 1) * size]
    return Page([entry(table) for table in chosen], number, pages, len(tables))
