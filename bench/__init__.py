"""Benchmarks of the bot's real costs: ``python -m bench [name] [options]``, a development
tool like ``tests/`` (not in the wheel: ``discord`` runs SimCord).

Benchmarks print numbers; they are not timed tests. Results and commands live in
docs/BENCHMARKS.md.
"""

from __future__ import annotations

import importlib
import sys

BENCHES = {
    "discord": ("bench.discord_calls", "REST calls per move / round on SimCord"),
    "latency": ("bench.latency", "interaction -> response time with 1..1000 tables"),
    "memory": ("bench.memory", "memory per open table (tracemalloc, RSS)"),
    "startup": ("bench.memory", "reload + re-render N open tables, warm-up, first deal"),
    "engine": ("bench.engine", "simulated rounds per second per game"),
    "bank": ("bench.bank", "bank postings vs raw sqlite3"),
    "audit": ("bench.audit", "the bank audit by ledger size: full, incremental"),
    "backends": ("bench.backends", "SQLite vs PostgreSQL: postings/s, a move's p99"),
    "stats": ("bench.stats", "/stats queries on 1,000,000 ledger entries, the chart"),
    "stalls": ("bench.stalls", "worst loop stall per database condition, /bank beside an audit"),
    "noise": ("bench.noise", "how steady the machine's CPU is (context for tails)"),
    "cost": ("bench.cost", "instructions per move, Croupier and a floor bot (callgrind)"),
    "lobby": ("bench.lobby", "/table list's page at 1,000 open tables: query + render"),
}


def main(argv: list[str]) -> int:
    """``bench [name] [options]``; no name runs them all with their defaults."""
    args = list(argv)
    if args and args[0] in ("-h", "--help"):
        print("usage: python -m bench [name] [options]   (name --help for options)")
        for name, (_module, text) in BENCHES.items():
            print(f"  {name:<8} {text}")
        return 0
    if args and args[0] not in BENCHES:
        print(f"unknown benchmark {args[0]!r}; choose from {', '.join(BENCHES)}", file=sys.stderr)
        return 2
    names = [args.pop(0)] if args else list(BENCHES)
    for name in names:
        module = importlib.import_module(BENCHES[name][0])
        fn = getattr(module, f"main_{name}", None) or module.main
        code = fn(args)
        if code:
            return int(code)
        print()
    return 0
