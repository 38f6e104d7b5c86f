"""The work of one move, in CPU instructions counted by valgrind's callgrind, for
Croupier and for a floor bot (issue 27: Croupier should cost little more than discord.py).

Timings on the development VM move by ±30 % from one hour to the next, so a 5 % change
in the work per move cannot be seen in them. An instruction count is the same on a busy
or a quiet machine: this bench runs the same moves twice under callgrind, ``--moves N``
and ``2N``, and divides the difference by N. One-off costs (imports, opening the tables,
first moves, lazy caches) are in both runs and cancel out.

By default both bots run against SimCord (``bench/cost_simcord.py``): members click a
button of a table message on ``--tables`` tables in turn, and everything in the process is
counted (SimCord's simulated Discord, the gateway event, discord.py's routing, the bot, its
SQLite file, the REST call). The floor bot (``bench/floor.py``) answers each click with
the same one REST call, an edit of its message with a fixed embed of the same size; the
ratio Croupier / floor is the figure issue 27 aims at (1.3 or less). ``--intents default``
runs both with ``Intents.default()`` (what Croupier declared before issue 27).

``--stub``: Croupier alone on the stubbed transport (``bench/harness.py``: the click
handler ``cogs.tables.moves.on_click`` called directly, no discord.py nor SimCord), the
bot's own path. The background checkpointer is stopped in both (it runs on its own
thread, not on the event loop). Without valgrind (``--no-valgrind``) it prints CPU time
per move instead: quick, but as noisy as any timing here, and its ratio means little:
SimCord's settlement idles ~50 ms after each floor click (its last callbacks are a
finished task's done-callbacks), so the floor's next click runs on cold caches (~2 ms of
CPU for 5.3 M instructions, where Croupier's back-to-back clicks take ~1.1 ms for 7.4 M).

Run it on an otherwise idle machine. There, three runs of 200 Black Jack moves were within
0.02 % of each other (±3,000 instructions per move). Beside other busy processes, the
same code's figure moved by up to 9 %: some of the work depends on time (the event loop
waking while the database's thread works, in set-up and in the moves).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from bot.engine.registry import GAMES

from .drive import Player
from .harness import Interaction, click, next_click, open_tables, world

_COLLECTED = re.compile(r"Collected\s*:\s*(\d+)")


async def run_moves(
    folder: Path, game: str, tables: int, moves: int, script: Path | None = None
) -> float:
    """Open ``tables`` tables, then make ``moves`` button moves on them in turn (a table
    whose game is over is replaced by a new one); the CPU seconds the moves took.
    ``script``: the players' steps, read where the file exists, else chosen and written
    there (as in ``cost_simcord.croupier_moves``)."""
    steps = json.loads(script.read_text()) if script is not None and script.exists() else None
    chosen: list[tuple[int, str, Any]] = []
    db, bot, _transport = await world(folder / f"cost-{game}.sqlite3")
    if db._checkpointer is not None:
        db._checkpointer.stop()
    try:
        opened = await open_tables(bot, tables, game, 3)
        players = {t.id: (Player(), t.game.seated()) for t in opened}
        cpu = 0.0
        for n in range(moves):
            slot = n % len(opened)
            if not opened[slot].is_open:  # a game over (Pirate 21): a new table takes its place
                (table,) = await open_tables(bot, 1, game, 3, first_channel=10**6 + n)
                opened[slot], players[table.id] = table, (Player(), table.game.seated())
            table = opened[slot]
            strategy, seats = players[table.id]
            began = time.process_time()
            if steps is None:
                interaction, name, arg = next_click(bot, table, strategy, seats)
                chosen.append((interaction.user.id, name, arg))
            else:
                player, name, arg = steps[n]
                interaction = Interaction(bot.transport, player, table.message_id, table.guild_id)
            version = table.version
            await click(bot, interaction, table.id, version, name, arg)
            cpu += time.process_time() - began
            if table.version != version + 1:
                raise RuntimeError(f"{name} was not applied at table {table.id}")
        if script is not None and steps is None:
            script.write_text(json.dumps(chosen))
        return cpu
    finally:
        await db.close()


def _inner(args: argparse.Namespace) -> int:
    """One run in this process (under callgrind): prints what the moves sent, as JSON."""

    from .cost_simcord import croupier_moves, floor_moves

    with tempfile.TemporaryDirectory() as tmp:
        if args.inner == "stub":
            script = Path(args.script) if args.script else None
            cpu = asyncio.run(run_moves(Path(tmp), args.game, args.tables, args.moves, script))
            sent: dict[str, Any] = {"moves": args.moves, "cpu_per_move": cpu / args.moves}
        elif args.inner == "floor":
            shape = args.game if args.floor_shape == "game" else None
            sent = asyncio.run(floor_moves(args.tables, args.moves, args.intents, shape))
        else:
            script = Path(args.script) if args.script else None
            job = croupier_moves(
                Path(tmp), args.game, args.tables, args.moves, args.intents, script
            )
            sent = asyncio.run(job)
    print(json.dumps(sent))
    return 0


def _run(
    which: str,
    game: str,
    tables: int,
    moves: int,
    intents: str,
    valgrind: bool,
    floor_shape: str = "blackjack",
    script: Path | None = None,
) -> tuple[int, dict[str, Any]]:
    """A run of ``moves`` moves in a new process: its instructions (0 without valgrind)
    and what it printed (``script``: the players' steps, see ``croupier_moves``)."""

    env = dict(os.environ, PYTHONHASHSEED="0")  # the same set and dict orders every run
    cmd = [sys.executable, "-m", "bench", "cost", "--inner", which, "--game", game]
    cmd += ["--tables", str(tables), "--moves", str(moves), "--intents", intents]
    cmd += ["--floor-shape", floor_shape]
    if script is not None:
        cmd += ["--script", str(script)]
    if valgrind:
        cmd = ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", *cmd]
    done = subprocess.run(cmd, capture_output=True, text=True, env=env, check=False)
    found = _COLLECTED.search(done.stderr)
    if done.returncode or (valgrind and found is None):
        raise RuntimeError(f"{which} run failed ({done.returncode}): {done.stderr[-2000:]}")
    return (int(found[1]) if found else 0), json.loads(done.stdout.strip().splitlines()[-1])


def per_move(
    which: str,
    game: str,
    tables: int,
    moves: int,
    intents: str,
    valgrind: bool,
    floor_shape: str = "blackjack",
) -> dict[str, Any]:
    """Instructions (or CPU seconds) of one move: runs of N and 2N moves, the difference
    over N; with what the 2N run's moves sent. Croupier's players choose their steps in
    a first run, not counted; the two counted runs replay them."""
    with tempfile.TemporaryDirectory() as tmp:
        script = Path(tmp) / "steps.json" if which != "floor" else None
        if script is not None:
            _run(which, game, tables, 2 * moves, intents, False, floor_shape, script)
        one, _ = _run(which, game, tables, moves, intents, valgrind, floor_shape, script)
        two, sent = _run(which, game, tables, 2 * moves, intents, valgrind, floor_shape, script)
    sent.update(instructions_per_move=(two - one) / moves, run_n=one, run_2n=two)
    return sent


def compare(
    game: str, args: argparse.Namespace, valgrind: bool, floor: dict[str, Any] | None = None
) -> dict[str, Any]:
    """Croupier and the floor bot through SimCord, and their ratio (``floor``: the floor
    bot's figures when already measured: they do not depend on the game)."""
    key = "instructions_per_move" if valgrind else "cpu_per_move"
    crou = per_move("croupier", game, args.tables, args.moves, args.intents, valgrind)
    if floor is None:
        shape = getattr(args, "floor_shape", "blackjack")
        floor = per_move("floor", game, args.tables, args.moves, args.intents, valgrind, shape)
    return {
        "game": game,
        "intents": args.intents,
        "croupier_instructions_per_move": crou[key],
        "floor_instructions_per_move": floor[key],
        "ratio": crou[key] / floor[key],
        "croupier": crou,
        "floor": floor,
    }


def _figure(value: float) -> str:
    """Instructions as a whole number, CPU seconds (below 1) in milliseconds."""
    return f"{value:,.0f}" if value >= 1 else f"{1000 * value:.3f} ms"


def _stub(games: tuple[str, ...], args: argparse.Namespace, valgrind: bool) -> int:
    """Croupier alone on the stubbed transport (the services' path, no discord.py)."""
    key = "instructions_per_move" if valgrind else "cpu_per_move"
    print(f"cost bench (stubbed transport): {key}, {args.tables} tables")
    print("| game | per move |\n|---|--:|")
    for game in games:
        got = per_move("stub", game, args.tables, args.moves, args.intents, valgrind)
        print(f"| {game} | {_figure(got[key])} |", flush=True)
    return 0


def main(argv: list[str]) -> int:
    """``bench cost [--game G|all] [--tables T] [--moves N] [--stub] [--json] [--no-valgrind]``."""
    import logging

    logging.disable(logging.WARNING)
    ap = argparse.ArgumentParser(prog="python -m bench cost")
    ap.add_argument("--game", default="blackjack", help=f"one of {', '.join(GAMES)}, or all")
    ap.add_argument("--tables", type=int, default=20)
    ap.add_argument("--moves", type=int, default=200, help="N: the runs make N and 2N moves")
    ap.add_argument("--stub", action="store_true", help="Croupier alone, stubbed transport")
    ap.add_argument("--intents", choices=("croupier", "default"), default="croupier")
    ap.add_argument("--json", action="store_true", help="the figures as JSON")
    ap.add_argument("--no-valgrind", action="store_true", help="CPU time per move instead")
    ap.add_argument(
        "--floor-shape",
        choices=("blackjack", "game"),
        default="blackjack",
        help="the floor's message: Black Jack's (default) or the measured game's shape",
    )
    ap.add_argument("--inner", choices=("stub", "croupier", "floor"), help=argparse.SUPPRESS)
    ap.add_argument("--script", help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.inner:
        return _inner(args)
    games = tuple(GAMES) if args.game == "all" else (args.game,)
    valgrind = not args.no_valgrind
    if valgrind and shutil.which("valgrind") is None:
        print("bench cost needs valgrind (apt install valgrind), or use --no-valgrind")
        return 2
    if args.stub:
        return _stub(games, args, valgrind)
    unit = "instructions" if valgrind else "CPU seconds"
    rows = []
    if not args.json:
        print(
            f"cost bench (SimCord): {unit} per move, {args.tables} tables, runs of"
            f" {args.moves} and {2 * args.moves} moves, intents {args.intents}"
        )
        print("| game | Croupier | floor bot | ratio | calls/move | response bytes |")
        print("|---|--:|--:|--:|--:|--:|")
    for game in games:
        same_floor = rows and args.floor_shape == "blackjack"  # else one floor per game
        row = compare(game, args, valgrind, rows[0]["floor"] if same_floor else None)
        rows.append(row)
        if not args.json:
            crou, floor = row["croupier"], row["floor"]
            print(
                f"| {game} | {_figure(row['croupier_instructions_per_move'])}"
                f" | {_figure(row['floor_instructions_per_move'])} | {row['ratio']:.2f}"
                f" | {crou['calls_per_move']:.2f} / {floor['calls_per_move']:.2f}"
                f" | {crou['response_bytes']:.0f} / {floor['response_bytes']:.0f} |",
                flush=True,
            )
    if args.json:
        print(json.dumps(rows[0] if len(rows) == 1 else rows, indent=1))
    return 0
