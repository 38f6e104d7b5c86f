"""The moves ``bench cost`` counts, through SimCord: Croupier and the floor bot.

Both bots run against SimCord in the same way: members click a button of a table message,
SimCord sends the INTERACTION_CREATE through the gateway, discord.py routes it to a
``DynamicItem`` and the bot answers with one interaction response that edits the message
(plus, for Croupier, whatever else the move sends: DMs, announcements). Everything in the
process is counted: SimCord's simulated Discord, discord.py and the bot.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import discord

from .discord_calls import SLASH, SLASH_NAMES
from .drive import Player

# a simulated player's step: its seat, then a button's tail (and None) or a slash command
# and its options
Step = tuple[int, str, dict[str, Any] | None]
HOST = -1  # the step's seat: the host, seated or not


def intents_named(name: str) -> discord.Intents:
    """``croupier``: what the bot declares; ``default``: ``Intents.default()`` (before)."""
    from bot.app import INTENTS

    return discord.Intents.default() if name == "default" else INTENTS


def _message(channel: Any, message_id: int) -> Any:
    for msg in channel.history():
        if msg.id == message_id:
            return msg
    raise RuntimeError("table message not found")


def _shown(env: Any, message: Any) -> list[str]:
    """The custom_ids the message shows now, read in SimCord's store (no copy)."""
    stored = env.backend.get_message(message.channel.id, message.id)
    return [c.get("custom_id") or "" for row in stored.components for c in row["components"]]


class CroupierTables:
    """Tables opened with ``/table open`` in threads, played with the bench strategy."""

    def __init__(self, env: Any, game: str) -> None:
        self.env = env
        self.game = game
        self.guild = env.create_guild()
        self.lobby = self.guild.create_text_channel("casino")
        self.members: dict[int, Any] = {}
        self.slash_moves = 0

    async def open(self, n: int) -> tuple[Any, Any, Player, Any]:
        """Open a table with three new members seated, and start it."""
        members = [self.guild.add_member(self.env.create_user(f"p{n}-{i}")) for i in range(3)]
        self.members.update((int(m.id), m) for m in members)
        await members[0].slash(self.lobby, "table open", game=self.game)
        thread = self.lobby.threads[-1]
        table = self.env.bot.tables.table_in(thread.id)
        for m in members[1:]:
            await m.slash(thread, "table join")
        # a click acts on the message as SimCord stores it now: this handle is only its id
        msg = _message(thread, table.message_id)
        await self.start(table, msg)
        return thread, table, Player(), msg

    async def start(self, table: Any, msg: Any) -> None:
        """The host starts the first round."""
        host = self.members[table.game.host]
        await host.click(msg, custom_id=f"cr:{table.id}:{table.version}:start")

    def choose(self, table: Any, strategy: Player, msg: Any) -> Step:
        """The simulated player's next step at ``table`` (the host starts the next round
        when nobody has a move): the seat that acts, and the button's tail or the slash
        command."""
        move = strategy.next_move(table.game, table.game.seated())
        if move is None:
            return (HOST, "start", None)
        player, name, arg = move
        seat = table.game.seated().index(player)
        prefix = f"cr:{table.id}:{table.version}:"
        tail = name + ("" if arg is None else f":{arg}")
        shown = _shown(self.env, msg)
        bets = sorted(int(b[len(prefix) + 4 :]) for b in shown if b.startswith(prefix + "bet:"))
        if name == "bet" and prefix + tail not in shown and bets:  # the smallest offered
            tail = f"bet:{bets[0]}"
        if prefix + tail in shown:
            return (seat, tail, None)
        cmd, opt = SLASH.get(name, (SLASH_NAMES.get(name, name), None))
        kwargs: dict[str, Any] = {opt: arg} if opt else {}
        if name == "no_insurance":
            kwargs = {"take": False}
        return (seat, cmd, kwargs)

    async def play(self, thread: Any, table: Any, msg: Any, step: Step) -> None:
        """Make ``step``: a click on the table message, or a slash command."""
        seat, what, slash = step
        member = self.members[table.game.host if seat == HOST else table.game.seated()[seat]]
        if slash is None:
            await member.click(msg, custom_id=f"cr:{table.id}:{table.version}:{what}")
            return
        self.slash_moves += 1
        await member.slash(thread, what, **slash)


async def croupier_moves(
    folder: Path, game: str, tables: int, moves: int, intents: str, script: Path | None = None
) -> dict[str, Any]:
    """Croupier: ``moves`` moves on ``tables`` tables in turn (a finished game's table is
    replaced by a new one); what the moves sent. ``script``: a file of the simulated
    players' steps; where it exists they are read from it (the measured runs: a player's
    choice is not the bot's work, and the floor's member has no choice to make), else they
    are chosen with the bench strategy and written there. The games are the same in both
    (seeded shoes, the same hash seed): a step that does not move its table stops the run."""
    import simcord

    import bot.app
    from bot.engine.shuffle import seeded_entropy
    from bot.stats import chart

    # the bot imports matplotlib on a thread after READY (its first chart's second): done
    # here first, where no simulated Discord waits for it (under valgrind it takes longer
    # than SimCord's settle allows); the same in both runs, so it cancels out anyway
    chart.warm()
    bot.app.INTENTS = intents_named(intents)  # read when the bot is built
    croupier = bot.app.create_bot(
        database_path=str(folder / "cost.sqlite3"), entropy=seeded_entropy("bench")
    )
    steps: list[Step] | None = None
    if script is not None and script.exists():
        steps = [(s, w, a) for s, w, a in json.loads(script.read_text())]
    chosen: list[Step] = []
    async with simcord.run(croupier) as env:
        checkpointer = env.bot.db._checkpointer  # its own thread: not the move's work
        if checkpointer is not None:
            checkpointer.stop()
        driver = CroupierTables(env, game)
        opened = [await driver.open(n) for n in range(tables)]
        first, cpu = len(env.http_requests), time.process_time()
        for n in range(moves):
            slot = n % len(opened)
            thread, table, strategy, msg = opened[slot]
            if not table.is_open:
                opened[slot] = thread, table, strategy, msg = await driver.open(tables + n)
            elif msg.id != table.message_id:  # a round's end posted the next table message
                msg = _message(thread, table.message_id)
                opened[slot] = thread, table, strategy, msg
            version = table.version
            step = steps[n] if steps is not None else driver.choose(table, strategy, msg)
            chosen.append(step)
            await driver.play(thread, table, msg, step)
            if table.version == version:
                raise RuntimeError(f"a move was not applied at table {table.id}: {step}")
        cpu = time.process_time() - cpu
        if script is not None and steps is None:
            script.write_text(json.dumps(chosen))
        return _sent(env.http_requests[first:], moves, cpu, slash=driver.slash_moves)


async def floor_moves(
    tables: int, moves: int, intents: str, shape: str | None = None
) -> dict[str, Any]:
    """The floor bot: ``moves`` clicks on ``tables`` messages in turn (``shape``: a game
    whose table message the floor's mirrors, default Black Jack's)."""
    import simcord

    from .floor import FloorBot

    async with simcord.run(FloorBot(intents_named(intents), shape)) as env:
        guild = env.create_guild()
        channel = guild.create_text_channel("casino")
        member = guild.add_member(env.create_user("p"))
        view, embed = env.bot.view, env.bot.embed
        target = env.bot.get_partial_messageable(channel.id)
        sent = [await target.send(embed=embed, view=view) for _ in range(tables)]
        messages = [_message(channel, m.id) for m in sent]
        first, cpu = len(env.http_requests), time.process_time()
        for n in range(moves):
            await member.click(messages[n % tables], custom_id="fl:0")
        cpu = time.process_time() - cpu
        return _sent(env.http_requests[first:], moves, cpu, slash=0)


def _sent(requests: list[Any], moves: int, cpu: float, slash: int) -> dict[str, Any]:
    """Calls per move, the interaction responses' mean body size, CPU seconds per move."""
    responses = [r for r in requests if r.path.endswith("/callback")]
    size: Callable[[Any], int] = lambda r: len(json.dumps(r.json, ensure_ascii=False))  # noqa: E731
    return {
        "moves": moves,
        "cpu_per_move": cpu / moves,
        "slash_moves": slash,
        "calls_per_move": len(requests) / moves,
        "response_bytes": sum(map(size, responses)) / max(1, len(responses)),
    }
