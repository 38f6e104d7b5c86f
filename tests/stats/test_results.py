"""The statistics' pure parts: the ISO week in UTC, a summary that cannot be read."""

from __future__ import annotations

import logging
from datetime import UTC, datetime

import pytest

from bot.engine.events import ROUND_SETTLED, Event
from bot.stats.results import iso_week, settled_statements
from bot.stats.service import week_start


def at(*parts: int) -> float:
    return datetime(*parts, tzinfo=UTC).timestamp()


def test_the_week_is_the_iso_week_in_utc() -> None:
    assert iso_week(at(2026, 11, 29, 23, 59, 59)) == 202648  # a Sunday
    assert iso_week(at(2026, 11, 30)) == 202649  # the Monday after, 00:00 UTC
    assert iso_week(at(2027, 1, 1, 12)) == 202653  # a Friday: the ISO year is still 2026
    assert iso_week(at(2027, 1, 4)) == 202701
    assert week_start(at(2026, 12, 6, 23, 59)) == at(2026, 11, 30)
    assert week_start(at(2026, 11, 30)) == at(2026, 11, 30)


def test_a_summary_it_cannot_read_writes_nothing_and_is_logged(
    caplog: pytest.LogCaptureFixture,
) -> None:
    broken = Event(ROUND_SETTLED, data={"round": 3, "hands": [{"player": 1}]})
    with caplog.at_level(logging.ERROR, logger="bot.stats.results"):
        assert settled_statements(1, 7, "blackjack", [broken], 0.0) == []
    assert "round results of table 7 not read" in caplog.text
    settled = Event(ROUND_SETTLED, data={"round": 3, "hands": [], "net": []})
    assert settled_statements(1, 7, "blackjack", [settled], 0.0) == []  # nobody played


def test_the_chart_axis_figures_fit_the_margin() -> None:
    from bot.stats.chart import short

    assert [short(v) for v in (950, 1000, 12_000, 250_000, 3_500_000, 2.1e9, -15_000)] == [
        "950",
        "1000",
        "12k",
        "250k",
        "3.5M",
        "2.1G",
        "-15k",
    ]


def test_a_long_history_is_drawn_one_point_per_day() -> None:
    from datetime import timedelta

    from bot.stats.chart import MAX_POINTS, fitted
    from bot.stats.store import Point

    start = datetime(2026, 11, 30, tzinfo=UTC)
    few = [Point(start + timedelta(hours=h), 1000 + h, 0) for h in range(MAX_POINTS)]
    assert fitted(few) == (few, False)
    many = [Point(start + timedelta(hours=h), 1000 + h, 0) for h in range(MAX_POINTS + 1)]
    days, daily = fitted(many)
    assert daily and [p.at.day for p in days] == [30, 1, 2, 3, 4, 5]
    assert [p.balance for p in days] == [1023, 1047, 1071, 1095, 1119, 1120]  # each day's last
