"""The statistics service: a player's figures, the rankings, the bankroll chart (reads
through ``db.read``; the chart drawn off the event loop)."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from bot.db import Database
from bot.engine.registry import GAMES

from . import chart, store
from .results import ALL_GAMES, ALL_TIME, iso_week
from .store import PlayedRound, Point, Ranked, Totals

MIN_ROUNDS = 10  # a win rate is ranked from this many rounds
TOP = 10
LAST_ROUNDS = 10  # /stats rounds shows this many
WEEK = "week"
ALL = "all"


def week_start(now: float) -> float:
    """Monday 00:00 UTC of the ISO week of ``now`` (epoch seconds)."""
    day = datetime.fromtimestamp(now, UTC).date()
    monday = day - timedelta(days=day.weekday())
    return datetime(monday.year, monday.month, monday.day, tzinfo=UTC).timestamp()


@dataclass(frozen=True, slots=True)
class PlayerStats:
    """A player's totals per game and over all of them (``total``: at the one game asked)."""

    games: list[Totals]
    total: Totals


@dataclass(frozen=True, slots=True)
class Top:
    """A ranking: by net result, and by win rate from ``min_rounds`` rounds."""

    by_net: list[Ranked]
    by_rate: list[Ranked]
    min_rounds: int
    since: float | None  # the week's start, None for all time


@dataclass(frozen=True, slots=True)
class Chart:
    """The drawn chart and the points it shows."""

    png: bytes
    points: list[Point]
    per_day: bool


class StatsService:
    """Statistics from the round results and the ledger."""

    def __init__(
        self,
        db: Database,
        *,
        clock: Callable[[], float] = time.time,
        min_rounds: int = MIN_ROUNDS,
    ) -> None:
        self.db = db
        self.min_rounds = min_rounds
        self.clock = clock

    async def player(self, guild_id: int, user_id: int, game: str | None = None) -> PlayerStats:
        """The player's figures (at ``game`` only, when given)."""
        found = await self.db.read(store.player_totals, guild_id, user_id)
        every = next((t for t in found if t.game == ALL_GAMES), Totals(ALL_GAMES))
        games = sorted((t for t in found if t.game != ALL_GAMES), key=_order)
        if game is not None:
            games = [t for t in games if t.game == game]
            every = games[0] if games else Totals(game)
        return PlayerStats(games, every)

    async def rounds(
        self, guild_id: int, user_id: int, game: str | None = None
    ) -> list[PlayedRound]:
        """The player's last settled rounds here (at ``game`` only, when given), newest first."""
        return await self.db.read(store.last_rounds, guild_id, user_id, game, LAST_ROUNDS)

    async def top(self, guild_id: int, game: str | None, period: str) -> Top:
        """The best net results and win rates of ``period`` (week: this ISO week, UTC)."""
        since: float | None = None
        week = ALL_TIME
        if period == WEEK:
            now = self.clock()
            since, week = week_start(now), iso_week(now)
        by_net, by_rate = await self.db.read(
            store.rankings, guild_id, week, game, self.min_rounds, TOP
        )
        return Top(by_net, by_rate, self.min_rounds, since)

    async def chart(
        self, guild_id: int, user_id: int, labels: tuple[str, str, str, str]
    ) -> Chart | None:
        """The player's bankroll chart, or None before their first round."""
        if not await self.db.read(store.player_totals, guild_id, user_id):
            return None
        points, daily = chart.fitted(await self.db.read(store.bankroll, guild_id, user_id))
        if not points:
            return None
        png = await asyncio.to_thread(chart.render_png, points, labels)
        return Chart(png, points, daily)

    @staticmethod
    async def warm() -> None:
        """Import matplotlib off the loop once, so the first chart does not pay it."""
        await asyncio.to_thread(chart.warm)


def _order(t: Totals) -> int:
    keys = list(GAMES)
    return keys.index(t.game) if t.game in keys else len(keys)
