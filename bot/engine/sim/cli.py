"""``python -m bot simulate GAME [options]``: run a game's simulator, print its figures."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence

from ..errors import IllegalAction, InvalidOptions
from ..registry import GAMES
from .base import Simulator, positive_int
from .registry import SIMULATORS, find


def usage() -> str:
    """The list of games, with their aliases."""
    games = []
    for key, sim in SIMULATORS.items():
        aliases = GAMES[key].aliases
        also = f" (also {', '.join(aliases)})" if aliases else ""
        games.append(f"  {key}{also}: {sim.title}")
    return "usage: python -m bot simulate GAME [options] (GAME --help)\n" + "\n".join(games)


def parser_for(sim: Simulator, prog: str) -> argparse.ArgumentParser:
    """The command line of one simulator: the shared options, then the game's own."""
    parser = argparse.ArgumentParser(prog=f"python -m bot simulate {prog}", description=sim.title)
    parser.add_argument(
        "--rounds", type=positive_int, default=sim.default_rounds, help=sim.rounds_help
    )
    parser.add_argument("--seed", default="0", help="the same seed gives the same figures")
    parser.add_argument("--json", action="store_true", help="print the results as JSON")
    sim.add_arguments(parser)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the simulator named by the first argument; 2 for an unknown game."""
    args = list(sys.argv[1:] if argv is None else argv)
    if not args or args[0] in ("-h", "--help"):
        print(usage())
        return 0 if args else 2
    sim = find(args[0])
    if sim is None:
        print(f"unknown game {args[0]!r}\n{usage()}", file=sys.stderr)
        return 2
    parser = parser_for(sim, args[0])
    ns = parser.parse_args(args[1:])
    problem = sim.check(ns)
    if problem is not None:
        parser.error(problem)
    try:
        result = sim.run(ns)
    except InvalidOptions as exc:
        parser.error(f"table options refused: {exc}")
    except IllegalAction as exc:  # e.g. a deck too small to deal to every player
        parser.error(f"the table refuses to play: {exc.code} {exc.params}")
    if ns.json:
        print(json.dumps(result, indent=2))
    else:
        print("\n".join(sim.report(result)))
        print(f"  {result['rounds_per_second']:.0f} rounds/s")
    return 0
