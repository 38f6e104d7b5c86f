"""REST calls to Discord per move and per round, measured on SimCord.

The real bot (``create_bot``, a temporary database, seeded shuffles) runs against SimCord;
simulated members open a table in a thread, join it, start, then play with the bench
strategy (:mod:`bench.drive`) by clicking the table message's buttons (a slash command
only when the renderer shows no button for the move). ``env.http_requests`` is read before
and after every interaction. As at scale (more than 128 players getting DMs, discord.py's
DM-channel cache), discord.py's cache of DM channels is emptied before every move.
Interaction responses and follow-ups are not bound to the global limit (Discord's rate
limit docs): the calls that are ("global") decide how many tables one bot runs.
"""

from __future__ import annotations

import asyncio
import re
import statistics
import tempfile
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bot.engine.base import Visibility
from bot.engine.registry import GAMES

from .drive import Player

RATE_LIMIT = 50.0  # requests per second per bot (Discord's global limit)
INTERACTION = {"response", "followup"}  # not counted against the global limit
SLASH = {"ace": ("ace", "value"), "draw": ("draw", "count"), "bet": ("bet", "amount")}
SLASH_NAMES = {"swap": "hide", "no_insurance": "insurance"}


def classify(method: str, path: str, dm_channels: set[str]) -> str:
    """A short name for a REST call."""
    if path.endswith("/callback"):
        return "response"
    if path.startswith("/webhooks/"):
        return "followup"
    if path == "/users/@me/channels":
        return "dm_open"
    if method == "GET" and path.startswith("/users/"):
        return "fetch_user"
    m = re.match(r"/channels/(\d+)/messages(/\d+)?$", path)
    if m:
        if m.group(1) in dm_channels:
            return "dm"
        return "edit" if m.group(2) else "post"
    return f"{method} {path.split('/')[1]}"


@dataclass
class Result:
    """Counts for one game and player count."""

    game: str
    players: int
    moves: int = 0
    button_moves: int = 0
    button_calls: list[int] = field(default_factory=list)
    slash_calls: list[int] = field(default_factory=list)
    # (calls, moves, dms, calls counting against the global limit, DM sends)
    rounds: list[tuple[int, int, int, int, int]] = field(default_factory=list)
    kinds: Counter[str] = field(default_factory=Counter)
    setup_calls: int = 0
    seconds: float = 0.0

    def row(self) -> dict[str, Any]:
        """The figures of the table in docs/BENCHMARKS.md."""
        calls = [r[0] for r in self.rounds]
        budget = [r[1] + r[2] + 2 for r in self.rounds]
        per_round = statistics.mean(calls) if calls else float("nan")
        round_seconds = self.seconds_per_round()
        global_calls = _mean([r[3] for r in self.rounds])
        return {
            "game": self.game,
            "players": self.players,
            "rounds": len(self.rounds),
            "moves": self.moves,
            "calls/button move": _mean(self.button_calls),
            "max/button move": max(self.button_calls, default=0),
            "calls/slash move": _mean(self.slash_calls),
            "calls/round": per_round,
            "moves/round": _mean([r[1] for r in self.rounds]),
            "dms/round": _mean([r[2] for r in self.rounds]),
            "budget/round": _mean(budget),
            "rounds over budget": sum(c > b for c, b in zip(calls, budget, strict=True)),
            "tables at 50 req/s": RATE_LIMIT / (per_round / round_seconds) if calls else 0,
            "global/round": global_calls,
            "dm sends/round": _mean([r[4] for r in self.rounds]),
            "tables at 1 round/min": RATE_LIMIT * 60 / global_calls if global_calls else 0,
            "kinds": dict(self.kinds),
        }

    def seconds_per_round(self) -> float:
        """Human pace assumed for the table budget: 3 s per move."""
        moves = _mean([r[1] for r in self.rounds]) or 1.0
        return 3.0 * moves


def _mean(values: list[int]) -> float:
    return statistics.mean(values) if values else 0.0


def _buttons(message: Any) -> set[str]:
    return {
        getattr(child, "custom_id", None) or ""
        for row in message.components
        for child in getattr(row, "children", [])
    }


async def run_game(game_key: str, players: int, rounds: int, folder: Path) -> Result:
    """Play ``rounds`` rounds of ``game_key`` with ``players`` members; count REST calls."""
    import simcord

    from bot.app import create_bot
    from bot.engine.shuffle import seeded_entropy

    result = Result(game_key, players)
    bot = create_bot(
        database_path=str(folder / f"{game_key}-{players}.sqlite3"),
        entropy=seeded_entropy(f"bench:{game_key}:{players}"),
    )
    async with simcord.run(bot) as env:
        guild = env.create_guild()
        lobby = guild.create_text_channel("casino")
        members = [guild.add_member(env.create_user(f"p{i}")) for i in range(players)]
        by_id = {int(m.id): m for m in members}
        service = env.bot.tables
        outcomes: list[Any] = []
        real_act, real_join = service.act, service.join

        async def act(*args: Any, **kwargs: Any) -> Any:
            out = await real_act(*args, **kwargs)
            outcomes.append(out)
            return out

        async def join(*args: Any, **kwargs: Any) -> Any:
            out = await real_join(*args, **kwargs)
            outcomes.append(out)
            return out

        service.act, service.join = act, join
        start = len(env.http_requests)
        await members[0].slash(lobby, "table open", game=game_key)
        thread = lobby.threads[-1]
        table = service.table_in(thread.id)
        for m in members[1:]:
            await m.slash(thread, "table join")

        def message() -> Any:
            for msg in thread.history():
                if msg.id == table.message_id:
                    return msg
            raise RuntimeError("table message not found")

        await members[0].click(message(), custom_id=f"cr:{table.id}:{table.version}:start")
        result.setup_calls = len(env.http_requests) - start
        dm_channels: set[str] = set()
        strategy = Player()
        round_calls = round_moves = round_dms = round_global = round_sends = 0
        loop = asyncio.get_running_loop()
        began = loop.time()
        stuck = 0
        while len(result.rounds) < rounds and table.is_open:
            move = strategy.next_move(table.game, table.game.seated())
            if move is None:
                stuck += 1
                if stuck > 3:
                    raise RuntimeError(f"{game_key}: nobody can move in {table.game.phase}")
                host = members[0]
                await host.click(message(), custom_id=f"cr:{table.id}:{table.version}:start")
                continue
            stuck = 0
            player, name, arg = move
            member = by_id[player]
            cid = f"cr:{table.id}:{table.version}:{name}" + ("" if arg is None else f":{arg}")
            evict_dm_channels(env.bot)
            before = len(env.http_requests)
            outcomes.clear()
            msg = message()
            shown = _buttons(msg)
            if name == "bet" and cid not in shown:  # bet the smallest amount offered
                prefix = f"cr:{table.id}:{table.version}:bet:"
                amounts = sorted(int(b[len(prefix) :]) for b in shown if b.startswith(prefix))
                if amounts:
                    arg = amounts[0]
                    cid = prefix + str(arg)
            if cid in shown:
                res = await member.click(msg, custom_id=cid)
                button = True
            else:
                cmd, opt = SLASH.get(name, (SLASH_NAMES.get(name, name), None))
                kwargs = {opt: arg} if opt else {}
                if name == "no_insurance":
                    kwargs = {"take": False}
                res = await member.slash(thread, cmd, **kwargs)
                button = False
            if res.ephemeral and not outcomes:
                raise RuntimeError(f"{game_key}: {name} refused: {res.response.content}")
            new = env.http_requests[before:]
            for r in new:
                if r.path == "/users/@me/channels":
                    continue
                m = re.match(r"/channels/(\d+)/messages$", r.path)
                if m and int(m.group(1)) not in (thread.id, lobby.id):
                    dm_channels.add(m.group(1))
            kinds = [classify(r.method, r.path, dm_channels) for r in new]
            result.kinds.update(kinds)
            round_global += sum(k not in INTERACTION for k in kinds)
            round_sends += kinds.count("dm")
            calls = len(new)
            result.moves += 1
            (result.button_calls if button else result.slash_calls).append(calls)
            result.button_moves += button
            dms = sum(
                len(
                    {
                        e.player
                        for e in o.events
                        if e.visibility is Visibility.PRIVATE and e.player is not None
                    }
                )
                for o in outcomes
            )
            round_calls += calls
            round_moves += 1
            round_dms += dms
            if any(o.round_settled for o in outcomes):
                result.rounds.append(
                    (round_calls, round_moves, round_dms, round_global, round_sends)
                )
                round_calls = round_moves = round_dms = round_global = round_sends = 0
        result.seconds = loop.time() - began
        await env.bot.db.close()
    return result


def evict_dm_channels(bot: Any) -> None:
    """Empty discord.py's cache of DM channels, as more than 128 recipients do (its LRU)."""
    state = bot._connection
    state._private_channels.clear()
    state._private_channels_by_user.clear()


def fmt(row: dict[str, Any]) -> str:
    """One markdown table row."""
    return (
        f"| {row['game']:<12} | {row['players']} | {row['rounds']:>3} |"
        f" {row['calls/button move']:.2f} (max {row['max/button move']}) |"
        f" {row['calls/slash move']:.2f} | {row['moves/round']:.1f} | {row['dms/round']:.1f} |"
        f" {row['calls/round']:.1f} | {row['budget/round']:.1f} | {row['rounds over budget']} |"
        f" {row['tables at 50 req/s']:.0f} | {row['global/round']:.1f} |"
        f" {row['dm sends/round']:.1f} | {row['tables at 1 round/min']:.0f} |"
    )


HEADER = (
    "| game         | p | rnd | calls / button move | calls / slash move | moves / round |"
    " DMs / round | calls / round | budget / round | rounds over | tables at 50 req/s |"
    " global / round | DM sends / round | tables at 1 round/min |\n"
    "|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|"
)


def main(argv: list[str]) -> int:
    """``bench discord [--rounds N] [--games g1,g2] [--players 3,7]``."""
    import argparse
    import logging

    logging.disable(logging.WARNING)  # renderers being finished log missing keys
    ap = argparse.ArgumentParser(prog="python -m bench discord")
    ap.add_argument("--rounds", type=int, default=10)
    ap.add_argument("--games", default=",".join(GAMES))
    ap.add_argument("--players", default="3,7")
    ap.add_argument("-v", "--verbose", action="store_true", help="calls by kind")
    args = ap.parse_args(argv)
    print(
        f"discord bench: REST calls on SimCord, {args.rounds} rounds per line; budget ="
        " moves + DMs + 2; tables at 50 req/s assume 3 s per move; global = calls other than"
        " interaction responses and follow-ups; DM cache emptied before each move"
    )
    print(HEADER)
    with tempfile.TemporaryDirectory() as tmp:
        for game in args.games.split(","):
            for n in (int(p) for p in args.players.split(",")):
                res = asyncio.run(run_game(game, n, args.rounds, Path(tmp)))
                row = res.row()
                print(fmt(row), flush=True)
                if args.verbose:
                    print(f"    setup {res.setup_calls} calls; by kind {row['kinds']}")
    return 0
