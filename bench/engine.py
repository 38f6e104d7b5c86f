"""Simulated rounds per second per game, from the games' simulators (``GameSpec.sim``).

Every simulator plays the real engine through ``apply``, with its own defaults and 3 seats
where it takes a number of players (Black Jack's plays one seat against the dealer;
Pirate 21's plays whole games). ``KEY-engine`` drives the game object itself with the
tables' bench strategy (:mod:`bench.drive`), 3 players: the engine's cost per round as a
table pays it.
"""

from __future__ import annotations

import argparse
import time
from typing import Any

from bot.engine.base import Action, ActionKind, Phase
from bot.engine.events import ROUND_SETTLED
from bot.engine.registry import GAMES, AnyGame
from bot.engine.shuffle import seeded_entropy
from bot.engine.sim.cli import parser_for
from bot.engine.sim.registry import SIMULATORS
from bot.tables.move_names import build_action

from .drive import Player

PLAYERS = 3


def seated_game(key: str, players: int, n: int) -> AnyGame:
    """A new table of ``key`` with ``players`` seated (rich where they bring chips), started."""
    spec = GAMES[key]
    game = spec.build(1, {}, seeded_entropy(f"bench-engine-{n}"))
    terms = game.buy_in()
    rich = spec.money and terms.fixed is None and not terms.welcome
    for p in range(1, players + 1):
        if p not in game.seated():
            amount = terms.fixed if terms.fixed is not None else (10**9 if rich else None)
            game.apply(Action(ActionKind.JOIN, p, amount=amount))
    game.apply(Action(ActionKind.START, 1))
    return game


def engine_rounds(key: str, rounds: int, players: int = PLAYERS) -> float:
    """Rounds per second of the game object through ``apply`` (bench strategy)."""
    games = 0
    game = seated_game(key, players, games)
    strategy = Player()
    done = 0
    began = time.perf_counter()
    while done < rounds:
        move = strategy.next_move(game, game.seated())
        if move is None:
            if game.phase is Phase.FINISHED:  # a whole game played (Pirate 21): a new one
                games += 1
                game, strategy = seated_game(key, players, games), Player()
            else:
                starter = next(
                    p for p in game.seated() if ActionKind.START in game.legal_actions(p)
                )
                game.apply(Action(ActionKind.START, starter))
            continue
        player, name, arg = move
        events = game.apply(build_action(name, player, arg))
        done += any(e.kind == ROUND_SETTLED for e in events)
    return rounds / (time.perf_counter() - began)


def simulated(key: str, rounds: int) -> dict[str, Any]:
    """Rounds per second of the game's simulator, its defaults and 3 seats if it seats more."""
    sim = SIMULATORS[key]
    args = parser_for(sim, key).parse_args(["--rounds", str(rounds)])
    seats = "1 seat"
    if hasattr(args, "players"):
        args.players, seats = PLAYERS, f"{PLAYERS} players"
    r = sim.run(args)
    games = r.get("games")
    how = f"{seats}, simulator" + (f", {games} game{'s' * (games != 1)}" if games else "")
    return {"rounds": r.get("rounds", rounds), "rounds/s": r["rounds_per_second"], "how": how}


def measure(game: str, rounds: int) -> dict[str, Any]:
    """Rounds per second of one game (``KEY`` or ``KEY-engine``)."""
    key, _, engine = game.partition("-")
    if not engine:
        return simulated(key, rounds)
    n = max(1, rounds // 10)  # the bench strategy is ~5x slower than the simulators
    how = f"{PLAYERS} players, bench strategy"
    return {"rounds": n, "rounds/s": engine_rounds(key, n), "how": how}


def main(argv: list[str]) -> int:
    """``bench engine [--rounds N] [--games ...]``."""
    games = [g for key in GAMES for g in (key, f"{key}-engine")]
    ap = argparse.ArgumentParser(prog="python -m bench engine")
    ap.add_argument("--rounds", type=int, default=20_000)
    ap.add_argument("--games", default=",".join(games), help="KEY or KEY-engine, comma-separated")
    args = ap.parse_args(argv)
    print("engine bench: simulated rounds per second (one core)")
    print("| game | how | rounds | rounds/s |")
    print("|---|---|--:|--:|")
    for game in args.games.split(","):
        r = measure(game, args.rounds)
        print(f"| {game} | {r['how']} | {r['rounds']} | {r['rounds/s']:.0f} |", flush=True)
    return 0
