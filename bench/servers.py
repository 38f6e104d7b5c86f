"""``python -m bench backends --servers 1,100`` (issue 35 point 3): one server against 100
on PostgreSQL, saturated (every table clicks again as soon as it is answered).

The two set-ups alternate in ``--pairs`` pairs of short windows in one run (A B, B A,
A B...), each window in a fresh schema after ``--warmup`` seconds of untimed play, so a
slow minute of a shared machine falls on both. Each window prints its moves/s, its
treasury-row writes per 1,000 rounds (a posting on a guild's ``house`` account of table
0, by kind: the floats' fills and credits against the rest) and its contention counts
(``bench/contention.py``: lock waits and MultiXacts per 1,000 moves, what was waited on);
then the median moves/s of each set-up, the ratio of the medians with the per-pair ratios'
min-max, the median counts, and each set-up's rows written per 1,000 moves by table.
"""

from __future__ import annotations

import argparse
import asyncio
import secrets
import statistics
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bot.db import open_database

from .contention import Counts, Probe
from .measure import measure
from .pg import pg_schema
from .processes import run_processes

# a posting on a treasury row, by the kind of its entry: the floats' own, the setup's, the rest
_TREASURY_WRITES = (
    "SELECT e.kind, COUNT(*) FROM bank_postings p JOIN bank_accounts a ON a.id = p.account_id"
    " JOIN bank_entries e ON e.id = p.entry_id"
    " WHERE a.kind = 'house' AND a.table_id = 0 GROUP BY e.kind"
)
_ROUNDS = (
    "SELECT COUNT(*) FROM (SELECT DISTINCT table_id, round_no FROM bank_entries"
    " WHERE kind = 'bet') AS r"
)


@dataclass
class Window:
    """One timed window's figures."""

    servers: int
    rate: float
    moves: int
    rounds: int
    treasury: int  # treasury-row writes other than the floats' and the mint's
    floats: int  # the floats' fills and credits on the treasury row
    counts: Counts


def order(setups: list[int], pairs: int) -> list[int]:
    """The windows' set-ups in turn: A B, B A, A B... (``pairs`` pairs)."""
    out: list[int] = []
    for i in range(pairs):
        out.extend(setups if i % 2 == 0 else setups[::-1])
    return out


async def _play(where: str, folder: Path, args: argparse.Namespace, guilds: int) -> Any:
    """The saturated window in one process (or ``--processes``): moves/s, moves, window."""
    if args.processes > 1:
        args.guilds = guilds
        runs = await asyncio.to_thread(
            run_processes, folder, int(args.tables), args.processes, args, 0.0, where
        )
    else:
        runs = [
            await measure(
                folder,
                int(args.tables),
                args.game,
                args.players,
                args.seconds,
                0.0,
                path=where,
                guilds=guilds,
                warmup=args.warmup,
            )
        ]
    start = min(run["window"][0] for run in runs)
    end = max(run["window"][1] for run in runs)
    return sum(run["moves/s"] for run in runs), sum(run["moves"] for run in runs), start, end


async def _fetch(c: Any, sql: str) -> list[Any]:
    return list(await c.fetchall(sql))


async def window(url: str, folder: Path, args: argparse.Namespace, guilds: int) -> Window:
    """One window of ``--tables`` tables in ``guilds`` servers, in a fresh schema."""
    async with pg_schema(url) as where:
        app = f"bench-{secrets.token_hex(4)}"
        async with Probe(where, app) as probe:
            rate, moves, start, end = await _play(
                f"{where}&application_name={app}", folder, args, guilds
            )
        db = await open_database(where)
        try:
            rounds = int((await db.read(_fetch, _ROUNDS))[0][0])
            kinds = {str(k): int(n) for k, n in await db.read(_fetch, _TREASURY_WRITES)}
        finally:
            await db.close()
    floats = kinds.get("fund_open", 0) + kinds.get("fund_close", 0)
    other = sum(n for k, n in kinds.items() if k not in ("mint", "burn", "fund_open", "fund_close"))
    return Window(guilds, rate, moves, rounds, other, floats, probe.window(start, end))


def _line(n: int, w: Window) -> str:
    per_round = 1000 / max(1, w.rounds)
    per_move = 1000 / max(1, w.moves)
    return (
        f"| {n} | {w.servers} | {w.rate:.0f} | {w.moves} | {w.rounds}"
        f" | {w.treasury * per_round:.1f} | {w.floats * per_round:.1f}"
        f" | {w.counts.lock_waits() * per_move:.1f} | {w.counts.multixacts * per_move:.1f}"
        f" | {w.counts.summary(w.moves) or '-'} |"
    )


def _per_move(w: Window, n: int) -> float:
    return 1000 * n / max(1, w.moves)


def summary(windows: list[Window], setups: list[int]) -> list[str]:
    """The medians of each set-up, the ratio of the medians and its per-pair spread."""
    lines = []
    by = {s: [w for w in windows if w.servers == s] for s in setups}
    for s, ws in by.items():
        lines.append(
            f"{s} server(s): median {statistics.median(w.rate for w in ws):.0f} moves/s"
            f" over {len(ws)} windows ({', '.join(f'{w.rate:.0f}' for w in ws)}); lock waits"
            f" {statistics.median(_per_move(w, w.counts.lock_waits()) for w in ws):.1f},"
            f" MultiXacts {statistics.median(_per_move(w, w.counts.multixacts) for w in ws):.1f}"
            " per 1,000 moves (medians)"
        )
    if len(setups) == 2 and all(by.values()):
        a, b = (by[s] for s in setups)
        ratios = [x.rate / y.rate for x, y in zip(a, b, strict=False) if y.rate]
        median = statistics.median(w.rate for w in a) / statistics.median(w.rate for w in b)
        lines.append(
            f"ratio {setups[0]} / {setups[1]} servers: {median:.3f} (medians);"
            f" per pair {min(ratios):.3f}-{max(ratios):.3f}"
        )
    for s, ws in by.items():
        last = ws[-1]
        lines.append(
            f"rows per 1,000 moves, {s} server(s) (last window's run, openings included):"
            f" {last.counts.rows(last.moves)}"
        )
    return lines


def servers_table(folder: Path, pg: str, args: argparse.Namespace) -> None:
    """The one-server bench (``--servers``): every window, then the summary."""
    setups = [int(n) for n in str(args.servers).split(",")]
    print(
        f"\n{args.tables} saturated tables ({args.game}, {args.players} players, PostgreSQL,"
        f" {args.processes} process(es), {args.pairs} pairs of {args.seconds:g} s windows"
        f" after {args.warmup:g} s of warm-up; treasury writes per 1,000 rounds since the"
        " opening, contention per 1,000 moves in the window)"
    )
    print(
        "| window | servers | moves/s | moves | rounds | treasury writes | fills + credits"
        " | lock waits | MultiXacts | waits seen (per 1,000 moves) |"
    )
    print("|--:|--:|--:|--:|--:|--:|--:|--:|--:|---|")
    windows = []
    for n, guilds in enumerate(order(setups, args.pairs), 1):
        windows.append(asyncio.run(window(pg, folder, args, guilds)))
        print(_line(n, windows[-1]), flush=True)
    print("\n".join(["", *summary(windows, setups)]), flush=True)
