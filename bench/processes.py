"""``bench latency --processes K``: the tables split over K bot processes, as K shard
processes of one bot would run them, timed in the same window.

The processes share one database file, so every process's writes contend for SQLite's one
write lock with the others'; with ``--own-databases`` each has a file of its own, as shards
that each own a set of guilds (and their banks) would.

The parent migrates the file(s), then starts K children (``bench latency --child``). Each
opens its share of the tables on its own channels, warms up, and waits for the others
before its timed window, so the K windows overlap. Each child prints its figures (and
every move's latency, for the p99 over all processes) as one JSON line.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from .harness import world
from .measure import measure

CHANNELS_PER_PROCESS = 10**6  # each process opens its tables on channels of its own
READY_TIMEOUT = 600.0  # seconds a process waits for the others to be ready


async def _migrate(path: Path | str) -> None:
    db, _bot, _transport = await world(path)
    await db.close()


def run_processes(
    folder: Path,
    tables: int,
    processes: int,
    args: argparse.Namespace,
    think: float,
    database: str | None = None,
) -> list[dict[str, Any]]:
    """Run ``tables`` tables split over ``processes`` processes; each one's figures.
    ``database``: a postgresql:// URL they all share (else an SQLite file in ``folder``)."""
    run = len(list(folder.glob("shared-*-ready-0")))  # one per run, made by the first child
    shared = folder / f"shared-{run}.sqlite3"
    own = bool(getattr(args, "own_databases", False))
    paths: list[Path | str] = [
        shared.with_name(f"{shared.stem}-{i}.sqlite3") if own else shared for i in range(processes)
    ]
    if database is not None:
        paths = [database] * processes
    for path in dict.fromkeys(paths):
        asyncio.run(_migrate(path))
    children = []
    shares = [tables // processes + (1 if i < tables % processes else 0) for i in range(processes)]
    for index, path in enumerate(paths):
        spec = {
            "path": str(path),
            "flags": str(shared),
            "index": index,
            "processes": processes,
            "tables": shares[index],
            "first_table": sum(shares[:index]),  # the servers go round all processes' tables
            "game": args.game,
            "players": args.players,
            "seconds": args.seconds,
            "think": think,
            "steps": args.steps,
            "guilds": getattr(args, "guilds", 1),
            "warmup": getattr(args, "warmup", 0.0),
        }
        command = [sys.executable, "-m", "bench", "latency", "--child", json.dumps(spec)]
        children.append(subprocess.Popen(command, stdout=subprocess.PIPE, text=True))
    outputs = [child.communicate()[0] for child in children]
    for child in children:
        if child.returncode:
            raise RuntimeError(f"a latency process failed ({child.returncode})")
    return [json.loads(out.strip().splitlines()[-1]) for out in outputs]


def child(raw: str) -> int:
    """In a child process: measure this process's share, print the figures as JSON."""
    spec = json.loads(raw)
    path: str = spec["path"]  # an SQLite file or a postgresql:// URL
    run = Path(spec["flags"])  # the run's name: every process waits on the same flags
    flags = [run.with_name(f"{run.stem}-ready-{i}") for i in range(spec["processes"])]

    def ready() -> None:
        flags[spec["index"]].touch()
        deadline = time.monotonic() + READY_TIMEOUT
        while not all(flag.exists() for flag in flags):
            if time.monotonic() > deadline:
                raise RuntimeError("the other latency processes never got ready")
            time.sleep(0.01)

    result = asyncio.run(
        measure(
            run.parent,
            spec["tables"],
            spec["game"],
            spec["players"],
            spec["seconds"],
            spec["think"],
            steps=spec["steps"],
            path=path,
            first_channel=1 + spec["index"] * CHANNELS_PER_PROCESS,
            ready=ready,
            guilds=spec.get("guilds", 1),
            warmup=spec.get("warmup", 0.0),
            first_table=spec.get("first_table", 0),
        )
    )
    result.pop("services")
    print(json.dumps(result))
    return 0
