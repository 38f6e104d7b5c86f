"""The lobby's page at N open tables of one server (``python -m bench lobby``): the
service's tables in memory (opened through ``TableService.open_table`` on a temporary
SQLite file: real rows, floats and seats), then per page built: the server's tables a
member may see (``listed``: one in ten private, the member invited to half of those),
sorted, one page cut and rendered (the embed and the buttons, ``lobby_page``). No query:
the invites are read once, before the runs. Prints p50 / p99 per case."""

from __future__ import annotations

import argparse
import asyncio
import statistics
import tempfile
import time
from pathlib import Path

from bot.bank import Bank
from bot.db import open_database
from bot.db.migrate import migrate
from bot.engine.shuffle import seeded_entropy
from bot.tables import TableService, TableSettings
from bot.tables.listing import listed, page_of
from bot.ui.lobby import lobby_page

GUILD = 4_242_000
VIEWER = 7
KEYS = ("blackjack", "casino21", "pirate21", "sept_et_demi")


async def open_many(service: TableService, count: int) -> None:
    """``count`` open tables in one server, each with its host seated; every tenth private,
    every twentieth with the viewer invited."""
    await service.bank.ensure_guild(GUILD, treasury_initial=10**15, starting_balance=10**6)
    for i in range(count):
        table_id_hint = 10_000 + i
        private = i % 10 == 0
        outcome = await service.open_table(
            guild_id=GUILD,
            channel_id=table_id_hint,
            parent_id=None,
            game_key=KEYS[i % len(KEYS)],
            host_id=100 + i,
            settings=TableSettings(name=f"Table {i}", private=private),
            options={},
            message_id=table_id_hint,
        )
        if private and i % 20 == 0:
            await service.invites.invite(outcome.table.id, VIEWER)


def time_pages(service: TableService, runs: int, game: str | None, number: int) -> list[float]:
    """Seconds per lobby page built for the viewer (query + render), ``runs`` times."""
    out = []
    admits = service.invites.admits
    for _ in range(runs):
        began = time.perf_counter()
        tables = listed(service.in_guild(GUILD), GUILD, VIEWER, admits, game)
        lobby_page(page_of(tables, number), GUILD, game, VIEWER, "en")
        out.append(time.perf_counter() - began)
    return out


def quantiles(samples: list[float]) -> tuple[float, float]:
    """(p50, p99) in milliseconds."""
    ordered = sorted(samples)
    p99 = ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))]
    return statistics.median(ordered) * 1000, p99 * 1000


async def measure(tables: int, runs: int) -> dict[str, tuple[float, float]]:
    """(p50, p99) ms per case: page 1, a middle page, page 1 of one game."""
    with tempfile.TemporaryDirectory() as folder:
        db = await open_database(str(Path(folder) / "lobby.sqlite3"))
        try:
            await migrate(db)
            service = TableService(
                db, Bank(db), clock=time.time, entropy=seeded_entropy("bench-lobby")
            )
            await open_many(service, tables)
            await service.invites.load()
            cases = {
                "page 1": (None, 0),
                "middle page": (None, tables // 20),
                "page 1, one game": ("blackjack", 0),
            }
            return {
                name: quantiles(time_pages(service, runs, game, number))
                for name, (game, number) in cases.items()
            }
        finally:
            await db.close()


def main(argv: list[str]) -> int:
    """``python -m bench lobby [--tables N] [--runs N]``."""
    parser = argparse.ArgumentParser(prog="python -m bench lobby")
    parser.add_argument("--tables", type=int, default=1000)
    parser.add_argument("--runs", type=int, default=500)
    args = parser.parse_args(argv)
    results = asyncio.run(measure(args.tables, args.runs))
    print(f"lobby page at {args.tables} open tables of one server, {args.runs} runs each")
    for name, (p50, p99) in results.items():
        print(f"  {name:<18} p50 {p50:6.2f} ms   p99 {p99:6.2f} ms")
    return 0
