"""Simulated rounds per second per game, from the simulators (``bot.engine.sim``).

Every simulator plays the real engine through ``apply``.

- classic: one seat, basic strategy, 6 decks; and the real ``ClassicGame`` driven by the
  bench strategy with 3 seats (``classic-engine``);
- casino21, sept_et_demi: 3 seats (Sept et demi: 3 players, the bank rotating);
- pirate21: whole games of 3 players.
"""

from __future__ import annotations

import argparse
import time
from typing import Any

GAMES = ("classic", "classic-engine", "casino21", "pirate21", "sept_et_demi")


def classic_engine(rounds: int, players: int = 3) -> float:
    """Rounds per second of ClassicGame through ``apply`` (bench strategy, 3 seats)."""
    from bot.engine.base import Action, ActionKind
    from bot.engine.classic import ClassicGame, ClassicOptions
    from bot.engine.shuffle import seeded_entropy
    from bot.tables.moves import build_action

    from .drive import Player, seated

    game = ClassicGame(ClassicOptions(), host=1, entropy=seeded_entropy("bench-engine"))
    for p in range(1, players + 1):
        game.apply(Action(ActionKind.JOIN, p, amount=10**9))
    game.apply(Action(ActionKind.START, 1))
    strategy = Player()
    done = 0
    began = time.perf_counter()
    while done < rounds:
        move = strategy.next_move(game, seated(game))
        if move is None:
            game.apply(Action(ActionKind.START, 1))
            continue
        player, name, arg = move
        events = game.apply(build_action(name, player, arg))
        done += any(e.kind == "round_settled" for e in events)
    return rounds / (time.perf_counter() - began)


def measure(game: str, rounds: int) -> dict[str, Any]:
    """Rounds per second of one game."""
    if game == "classic":
        from bot.engine.classic import ClassicOptions
        from bot.engine.sim import blackjack

        opts = ClassicOptions(decks=6)
        r = blackjack.simulate(rounds=rounds, seed="0", decks=6, strategy="basic", opts=opts)
        return {"rounds": rounds, "rounds/s": r["rounds_per_second"], "how": "1 seat, simulator"}
    if game == "classic-engine":
        n = max(1, rounds // 10)  # the bench strategy is ~5x slower than the simulator's
        return {"rounds": n, "rounds/s": classic_engine(n), "how": "3 seats, bench strategy"}
    if game == "casino21":
        from bot.engine.sim import casino21

        r = casino21.simulate(rounds=rounds, seed="0", players=3)
        return {"rounds": rounds, "rounds/s": r["rounds_per_second"], "how": "3 seats, simulator"}
    if game == "sept_et_demi":
        from bot.engine.sim import sept_et_demi

        r = sept_et_demi.simulate(rounds=rounds, seed="0", players=3)
        return {"rounds": rounds, "rounds/s": r["rounds_per_second"], "how": "3 players, simulator"}
    from bot.engine.sim import pirate21

    r = pirate21.simulate(rounds=rounds, seed="0", players=3)
    return {
        "rounds": r["rounds"],
        "rounds/s": r["rounds_per_second"],
        "how": f"3 players, {r['games']} whole games",
    }


def main(argv: list[str]) -> int:
    """``bench engine [--rounds N] [--games ...]``."""
    ap = argparse.ArgumentParser(prog="python -m bench engine")
    ap.add_argument("--rounds", type=int, default=20_000)
    ap.add_argument("--games", default=",".join(GAMES))
    args = ap.parse_args(argv)
    print("engine bench: simulated rounds per second (one core)")
    print("| game | how | rounds | rounds/s |")
    print("|---|---|--:|--:|")
    for game in args.games.split(","):
        r = measure(game, args.rounds)
        print(f"| {game} | {r['how']} | {r['rounds']} | {r['rounds/s']:.0f} |", flush=True)
    return 0
