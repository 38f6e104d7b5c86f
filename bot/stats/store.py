"""The statistics' queries (``db.read`` functions; the rows come from
bot/stats/results.py, the bankroll from the ledger)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime

from bot.db import Conn

from .results import ALL_GAMES, ALL_TIME


@dataclass(frozen=True, slots=True)
class Totals:
    """A player's figures at one game (or every game: ALL_GAMES)."""

    game: str
    rounds: int = 0
    won: int = 0
    lost: int = 0
    pushed: int = 0
    staked: int = 0
    net: int = 0
    naturals: int = 0
    best: int = 0

    @property
    def win_rate(self) -> float:
        """Rounds won over rounds played (0 without rounds)."""
        return self.won / self.rounds if self.rounds else 0.0


@dataclass(frozen=True, slots=True)
class Ranked:
    """One player of a ranking."""

    user_id: int
    rounds: int
    won: int
    net: int

    @property
    def win_rate(self) -> float:
        """Rounds won over rounds played."""
        return self.won / self.rounds if self.rounds else 0.0


async def player_totals(conn: Conn, guild_id: int, user_id: int) -> list[Totals]:
    """The player's all-time totals, one per game played and one over every game
    (``game`` ALL_GAMES), in no order."""
    rows = await conn.fetchall(
        "SELECT game, rounds, won, lost, pushed, staked, net, naturals, best"
        " FROM round_totals WHERE guild_id = ? AND user_id = ? AND week = ?",
        (guild_id, user_id, ALL_TIME),
    )
    return [Totals(str(r[0]), *(int(v) for v in r[1:])) for r in rows]


async def rankings(
    conn: Conn, guild_id: int, week: int, game: str | None, min_rounds: int, limit: int
) -> tuple[list[Ranked], list[Ranked]]:
    """The best ``limit`` players of ``week`` (an ISO week, or ALL_TIME), at ``game`` or
    every game: by net result, and by win rate from ``min_rounds`` rounds."""
    rows = "SELECT user_id, rounds AS n, won AS w, net AS v FROM round_totals"
    rows += " WHERE guild_id = ? AND week = ? AND game = ?"
    params = (guild_id, week, ALL_GAMES if game is None else game)
    by_net = await conn.fetchall(
        f"SELECT user_id, n, w, v FROM ({rows}) AS r ORDER BY v DESC, n DESC, user_id LIMIT ?",
        (*params, limit),
    )
    by_rate = await conn.fetchall(
        f"SELECT user_id, n, w, v FROM ({rows}) AS r WHERE n >= ?"
        " ORDER BY w * 1.0 / n DESC, n DESC, user_id LIMIT ?",
        (*params, min_rounds, limit),
    )
    return [Ranked(*(int(v) for v in r)) for r in by_net], [
        Ranked(*(int(v) for v in r)) for r in by_rate
    ]


@dataclass(frozen=True, slots=True)
class PlayedRound:
    """One settled round of a player (``channel_id``: the table's thread, None if gone)."""

    at: float
    game: str
    table_id: int
    round_no: int
    channel_id: int | None
    staked: int
    net: int
    outcome: str
    natural: bool


async def last_rounds(
    conn: Conn, guild_id: int, user_id: int, game: str | None, limit: int
) -> list[PlayedRound]:
    """The player's last ``limit`` settled rounds (at ``game`` only, when given), newest
    first: one seek of the index round_results_player (guild_id, user_id, at)."""
    sql = (
        "SELECT r.at, r.game, r.table_id, r.round_no, t.channel_id, r.staked, r.net,"
        " r.outcome, r.is_natural FROM round_results r LEFT JOIN tables t ON t.id = r.table_id"
        " WHERE r.guild_id = ? AND r.user_id = ?"
    )
    params: tuple[object, ...] = (guild_id, user_id)
    if game is not None:
        sql += " AND r.game = ?"
        params += (game,)
    # rounds settled at the same instant (two tables): the later table's round first
    sql += " ORDER BY r.at DESC, r.table_id DESC, r.round_no DESC LIMIT ?"
    rows = await conn.fetchall(sql, (*params, limit))
    return [
        PlayedRound(
            float(r[0]),
            str(r[1]),
            int(r[2]),
            int(r[3]),
            None if r[4] is None else int(r[4]),
            int(r[5]),
            int(r[6]),
            str(r[7]),
            bool(r[8]),
        )
        for r in rows
    ]


@dataclass(frozen=True, slots=True)
class Point:
    """The player's money after one ledger entry: balance and chips on tables."""

    at: datetime
    balance: int
    chips: int


def _when(text: object) -> datetime:
    if isinstance(text, datetime):
        return text if text.tzinfo else text.replace(tzinfo=UTC)
    return datetime.fromisoformat(str(text).replace("Z", "+00:00"))


async def bankroll(conn: Conn, guild_id: int, user_id: int) -> list[Point]:
    """The player's balance and chips on tables after each move or bank movement that
    moved them (the entries of one move, keyed ``<move>:<n>``, are one point), oldest
    first, bets excepted: a bet's chips are still the player's until the round is
    settled (a lost one shows at the next point, or at the last one: their money now)."""
    rows = await conn.fetchall(
        "SELECT p.entry_id, e.created_at, e.kind, e.idem_key,"
        " SUM(CASE WHEN a.kind = 'player' THEN p.amount ELSE 0 END),"
        " SUM(CASE WHEN a.kind = 'seat' THEN p.amount ELSE 0 END)"
        " FROM bank_accounts a JOIN bank_postings p ON p.account_id = a.id"
        " JOIN bank_entries e ON e.id = p.entry_id"
        " WHERE a.guild_id = ? AND a.user_id = ? AND a.kind IN ('player', 'seat')"
        " GROUP BY p.entry_id, e.created_at, e.kind, e.idem_key ORDER BY p.entry_id",
        (guild_id, user_id),
    )
    points: list[Point] = []
    balance = chips = 0
    last_move = None
    for i, (_, at, kind, key, wallet, seats) in enumerate(rows):
        balance, chips = balance + int(wallet), chips + int(seats)
        move = str(key).rpartition(":")[0] or key
        if kind == "bet" and i < len(rows) - 1:
            continue
        point = Point(_when(at), balance, chips)
        if move == last_move and points:
            points[-1] = point
        else:
            points.append(point)
        last_move = move
    return points
