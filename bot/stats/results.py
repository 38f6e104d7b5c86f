"""Each player's result of a settled round, from the move's events, as the rows the
table service writes in the same transaction (no discord, no database: statements).

The outcome is the sign of the round's net for the player (a Black Jack push won by
an insurance is a win); Pirate 21 plays for coins, not money: its net is 0 and the
outcome is whether the player took coins (a void round is a push).
"""

from __future__ import annotations

import logging
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from bot.engine.events import ROUND_SETTLED, Event

SEVEN_AND_A_HALF = 15  # Sept et demi's points are half-points
ALL_TIME = 0  # round_totals.week of the all-time totals
ALL_GAMES = "*"  # round_totals.game of the totals over every game

Statement = tuple[str, tuple[object, ...]]
log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class RoundResult:
    """One player's round."""

    user_id: int
    round_no: int
    staked: int
    net: int
    outcome: str  # won / lost / push
    natural: bool


def iso_week(at: float) -> int:
    """The ISO week of ``at`` (epoch seconds) in UTC, as round_totals keys it: 202649."""
    year, week, _ = datetime.fromtimestamp(at, UTC).isocalendar()
    return year * 100 + week


def _by_net(net: int) -> str:
    return "won" if net > 0 else "lost" if net < 0 else "push"


def _blackjack(summary: Mapping[str, Any], _: Sequence[Event]) -> list[RoundResult]:
    round_no = int(summary["round"])
    staked: dict[int, int] = {}
    natural: dict[int, bool] = {}
    for hand in summary["hands"]:
        p = int(hand["player"])
        staked[p] = staked.get(p, 0) + int(hand["bet"])
        two = not hand["split"] and len(hand["cards"]) == 2 and hand["total"] == 21
        natural[p] = natural.get(p, False) or two
    return [
        RoundResult(p, round_no, staked.get(p, 0), n, _by_net(n), natural.get(p, False))
        for row in summary["net"]
        for p, n in ((int(row["player"]), int(row["net"])),)
    ]


def _casino21(summary: Mapping[str, Any], _: Sequence[Event]) -> list[RoundResult]:
    round_no = int(summary["round"])
    out = []
    for r in summary["results"]:
        net = int(r["net"])
        out.append(
            RoundResult(
                int(r["player"]), round_no, int(r["bet"]), net, _by_net(net), bool(r["blackjack"])
            )
        )
    return out


def _sept_et_demi(summary: Mapping[str, Any], _: Sequence[Event]) -> list[RoundResult]:
    round_no = int(summary["round"])
    out = []
    for r in summary["results"]:
        net = int(r["net"])
        seven = int(r["total"]) == SEVEN_AND_A_HALF
        out.append(RoundResult(int(r["player"]), round_no, int(r["bet"]), net, _by_net(net), seven))
    if out:  # the banker plays the round too: their stack took the losses and paid the wins
        banker, net = int(summary["banker"]), int(summary["banker_net"])
        seven = int(summary["bank_total"]) == SEVEN_AND_A_HALF
        out.append(RoundResult(banker, round_no, 0, net, _by_net(net), seven))
    return out


def _pirate21(summary: Mapping[str, Any], events: Sequence[Event]) -> list[RoundResult]:
    round_no = int(summary["round"])
    showdowns = [e for e in events if e.kind == "showdown" and e.data.get("round") == round_no]
    shown: list[Mapping[str, Any]] = showdowns[0].data["hands"] if showdowns else []
    took = {int(p["player"]) for p in summary["payouts"] if int(p["coins"]) > 0}
    void = bool(summary["void"])
    out = []
    for hand in shown:
        p = int(hand["player"])
        outcome = "won" if p in took else "push" if void else "lost"
        out.append(RoundResult(p, round_no, 0, 0, outcome, bool(hand["blackjack"])))
    return out


_READERS = {
    "blackjack": _blackjack,
    "casino21": _casino21,
    "sept_et_demi": _sept_et_demi,
    "pirate21": _pirate21,
}


def round_results(game: str, events: Sequence[Event]) -> list[RoundResult]:
    """Every player's result of each round the events settle (none: no round settled)."""
    read = _READERS.get(game)
    if read is None:
        return []
    return [r for e in events if e.kind == ROUND_SETTLED for r in read(e.data, events)]


RESULT_COLUMNS = (
    "(guild_id, table_id, round_no, user_id, game, staked, net, outcome, is_natural, at)"
)
TOTALS_UPSERT = (
    " ON CONFLICT (guild_id, week, game, user_id) DO UPDATE SET"
    " rounds = round_totals.rounds + excluded.rounds,"
    " won = round_totals.won + excluded.won,"
    " lost = round_totals.lost + excluded.lost,"
    " pushed = round_totals.pushed + excluded.pushed,"
    " staked = round_totals.staked + excluded.staked,"
    " net = round_totals.net + excluded.net,"
    " naturals = round_totals.naturals + excluded.naturals,"
    " best = CASE WHEN excluded.best > round_totals.best"
    " THEN excluded.best ELSE round_totals.best END"
)


def _values(width: int, count: int) -> str:
    one = "(" + ", ".join("?" * width) + ")"
    return ", ".join([one] * count)


def result_statements(
    guild_id: int, table_id: int, game: str, results: Iterable[RoundResult], at: float
) -> list[Statement]:
    """The rows of ``results`` and their players' totals (all time and the ISO week of
    ``at``; at the game and over every game): two statements (none without results)
    that neither read each other nor change the same row (one round trip on PostgreSQL,
    in :meth:`Conn.execute_together`)."""
    rows = list(results)
    if not rows:
        return []
    found: list[object] = []
    totals: dict[int, list[int]] = {}
    for r in rows:
        found += [guild_id, table_id, r.round_no, r.user_id, game, r.staked, r.net]
        found += [r.outcome, int(r.natural), at]
        # rounds, won, lost, pushed, staked, net, naturals, best
        t = totals.setdefault(r.user_id, [0, 0, 0, 0, 0, 0, 0, 0])
        won = r.outcome == "won"
        add = [1, won, r.outcome == "lost", r.outcome == "push", r.staked, r.net, r.natural]
        for i, v in enumerate(add):
            t[i] += int(v)
        t[7] = max(t[7], r.net if won else 0)
    sums: list[object] = []
    for week in (ALL_TIME, iso_week(at)):
        for kind in (game, ALL_GAMES):
            for user, t in totals.items():
                sums += [guild_id, week, kind, user, *t]
    insert_rows = (
        f"INSERT INTO round_results {RESULT_COLUMNS} VALUES {_values(10, len(rows))}",
        tuple(found),
    )
    upsert = (
        "INSERT INTO round_totals (guild_id, week, game, user_id, rounds, won, lost, pushed,"
        f" staked, net, naturals, best) VALUES {_values(12, 4 * len(totals))}{TOTALS_UPSERT}",
        tuple(sums),
    )
    return [insert_rows, upsert]


def settled_statements(
    guild_id: int, table_id: int, game: str, events: Sequence[Event], at: float
) -> list[Statement]:
    """What a move that settled a round writes for the statistics (none otherwise). A
    summary this code cannot read is logged and counts for nothing: a statistic must never
    keep a table from settling its round."""
    try:
        found = round_results(game, events)
    except (KeyError, TypeError, ValueError):
        log.exception("round results of table %s not read: no statistics for it", table_id)
        return []
    return result_statements(guild_id, table_id, game, found, at)
