"""Child process for test_split_crash: one bot process of several on one PostgreSQL
database, serving some shards of ``SHARD_COUNT``: the bot's table service and bank as
``python -m bot`` builds them for ``SHARD_IDS`` (its own connections, its shards' open
tables loaded, replayed and played on), driven by random commands of the players and
admins of its shards' guilds until it is killed: tables opened, joined, every legal move,
timers, leaves, closes, ``/bank claim``, and admins' approvals and rejections of held
claims. Two commands run at a time, as a bot answers several interactions at once.

Usage: python split_crash_child.py URL SHARD_COUNT SHARD_IDS(comma-separated) SEED STEP_FILE

At start-up it checks what it loaded (only its shards' tables, each replayed to the last
logged version, seat escrows equal to the engine's stacks) and prints
``ready <open tables>`` or ``FAIL <reason>``; a command that fails with anything but a
refusal prints ``FAIL`` and ends the process. STEP_FILE holds the commands in flight (what
a kill interrupted), STEP_FILE with the suffix ``.reloads`` how many stale copies this
start reloaded (a table the other process wrote)."""

from __future__ import annotations

import asyncio
import contextlib
import os
import random
import sys
import time
import traceback
from pathlib import Path
from typing import Any

from bot.bank import Bank, BankError
from bot.db import Busy, Conn, open_database
from bot.engine.base import Action, ActionKind, IllegalAction, InvalidOptions
from bot.engine.shuffle import seeded_entropy
from bot.errors import UserError
from bot.shards import shard_of
from bot.tables import GAMES, Table, TableService
from bot.tables.errors import StaleTable
from tests.bank.ledger import _escrow as table_escrow_in
from tests.tables.money_model import seated

K = ActionKind
SHARD_COUNT = 4
# one guild per shard: Discord routes guild g to shard (g >> 22) % SHARD_COUNT
GUILDS = tuple(((1000 + shard) << 22) | 7 for shard in range(SHARD_COUNT))
PLAYERS = (11, 12, 13, 14, 15)
ADMINS = (91, 92)
CLAIM_LIMIT = 150  # claims above it wait for an admin (set up by the test)
TABLES_PER_GUILD = 2
# Busy: another process holds the database (a UserError before issue 40, now its own)
REFUSALS = (IllegalAction, InvalidOptions, UserError, BankError, Busy, StaleTable)
NOT_MOVES = frozenset({K.JOIN, K.CLOSE, K.LEAVE, K.TOP_UP, K.VOTE_STOP, K.TIMEOUT})
STEPS = (
    ("move", 20),
    ("join", 4),
    ("open", 2),
    ("timeout", 3),
    ("leave", 2),
    ("claim", 2),
    ("decide", 3),
    ("close", 1),
    ("idle", 1),
)
STEP_CHOICES = tuple(name for name, weight in STEPS for _ in range(weight))


def stacks(table: Table) -> dict[int, int]:
    """The seated players' stacks in the engine's public view (money games)."""
    if not table.game.MONEY:  # a game's points, not money
        return {}
    return {s.player: s.stack for s in table.game.public_view().seats if s.stack}


async def check_loaded(service: TableService, shards: tuple[int, ...]) -> int:
    """What a start loaded: its shards' open tables, each at its last logged version, its
    seat escrows equal to its engine's stacks. The number of open tables."""
    # the other process may play on some of these tables meanwhile (both serve a shard
    # during a rolling restart): a table is replayed at least as far as its log went
    # before, and its escrows are compared in a snapshot where it has not moved on since
    before, tables = await service.db.read(logged), await service.load_open_tables()
    for table in tables:
        assert shard_of(table.guild_id, SHARD_COUNT) in shards, (table.id, table.guild_id)
        assert before.get(table.id, 0) <= table.version, ("not replayed to the end", table.id)
        if GAMES[table.game_key].money:
            version, escrow = await service.db.read(escrow_at, table)
            seats = {int(k[5:]): v for k, v in escrow.items() if k.startswith("seat:") and v}
            assert version > table.version or seats == stacks(table), (table.id, seats)
    return len(tables)


async def logged(c: Conn) -> dict[int, int]:
    """Each table's last logged version."""
    sql = "SELECT table_id, MAX(version) FROM table_actions GROUP BY table_id"
    return {int(t): int(v) for t, v in await c.fetchall(sql)}


async def escrow_at(c: Conn, table: Table) -> tuple[int, dict[str, int]]:
    """The table's last logged version and its escrows, in one snapshot."""
    return (await logged(c))[table.id], await table_escrow_in(c, table.guild_id, table.id)


class Process:
    """The commands of one bot process's users."""

    def __init__(self, service: TableService, guilds: list[int], seed: int, mark: Path):
        self.service = service
        self.bank = service.bank
        self.guilds = guilds
        self.rng = random.Random(seed)
        self.channel = seed * 1000  # channel ids: unique across the processes' starts
        self.mark = mark
        self.flight: dict[int, str] = {}
        self.reloads = 0  # copies found stale (the other process wrote the table) and reloaded
        service.reloaded.append(self.reloaded)

    def reloaded(self, table: Table) -> None:
        self.reloads += 1
        self.write(self.mark.with_suffix(".reloads"), str(self.reloads))

    def write(self, path: Path, text: str) -> None:
        tmp = path.with_suffix(".tmp")  # a kill never leaves half a line
        tmp.write_text(text)
        os.replace(tmp, path)

    def note(self, worker: int, what: str) -> None:
        self.flight[worker] = what
        self.write(self.mark, " + ".join(self.flight[w] for w in sorted(self.flight)))

    async def step(self, worker: int) -> None:
        """One random command in one of this process's guilds."""
        rng = self.rng
        guild = rng.choice(self.guilds)
        name = rng.choice(STEP_CHOICES)
        tables = [t for t in self.service.open_tables() if t.guild_id == guild]
        if name == "open" or not tables:
            if len(tables) < TABLES_PER_GUILD:
                await self.open(worker, guild)
            return
        if name in ("claim", "decide"):
            await self.bank_step(worker, guild, name)
            return
        table = rng.choice(tables)
        game, svc, player = table.game, self.service, rng.choice(PLAYERS)
        self.note(worker, f"{name} {table.game_key}")
        if name == "join" or len(seated(table)) < 2:
            await svc.join(table.id, player, rng.choice((None, None, 200)))
        elif name == "move":
            actors = sorted(seated(table) | {int(getattr(game, "host", 0) or 0)})
            pairs = [
                (a, k) for a in actors for k in sorted(game.legal_actions(a) - NOT_MOVES, key=str)
            ]
            if pairs:
                actor, kind = rng.choice(pairs)
                await svc.act(table.id, actor, self.arguments(table, Action(kind, actor)))
        elif name == "leave":
            await svc.act(table.id, player, Action(K.LEAVE, player, confirm=True))
        elif name == "timeout":
            await svc.fire(table.id, "deadline", table.version)
        elif name == "idle":
            await svc.fire(table.id, "idle", table.version)
        elif name == "close":
            await svc.close_table(table.id, table.host_id, "host")

    async def open(self, worker: int, guild: int) -> None:
        key = self.rng.choice(sorted(GAMES))
        self.note(worker, f"open {key}")
        self.channel += 1
        settings, options = TableService.parse(key, "", locale="en", name="t")
        await self.service.open_table(
            guild_id=guild,
            channel_id=self.channel,
            parent_id=None,
            game_key=key,
            host_id=self.rng.choice(PLAYERS),
            settings=settings,
            options=options,
        )

    async def bank_step(self, worker: int, guild: int, name: str) -> None:
        rng = self.rng
        if name == "claim":
            self.note(worker, "bank claim")
            await self.bank.claim(guild, rng.choice(PLAYERS))
            return
        held = await self.bank.claims(guild, None, statuses=["held"])
        if not held:
            return
        line, admin = rng.choice(held), rng.choice(ADMINS)
        if rng.random() < 0.5:
            self.note(worker, "approve a claim")
            await self.bank.approve_claim(guild, line.claim_id, admin)
        else:
            self.note(worker, "reject a claim")
            await self.bank.reject_claim(guild, line.claim_id, admin, "crash test")

    def arguments(self, table: Table, action: Action) -> Action:
        kind, player, rng = action.kind, action.player, self.rng
        if kind is K.BET:
            limits = getattr(table.game, "bet_limits", None)
            low, high = (limits(player) if limits is not None else None) or (10, 100)
            return Action(kind, player, amount=rng.randint(low, max(low, min(high, 4 * low))))
        if kind is K.DRAW:
            return Action(kind, player, amount=rng.choice((0, 1, 1, 2)))
        if kind is K.CHOOSE_ACE:
            return Action(kind, player, value=rng.choice((1, 11)))
        return action

    async def worker(self, worker: int) -> None:
        while True:
            with contextlib.suppress(REFUSALS):  # a refusal: the bot answers it, goes on
                await self.step(worker)
            self.note(worker, "idle")
            await asyncio.sleep(0)


async def main(url: str, count: int, shards: tuple[int, ...], seed: int, mark: Path) -> int:
    mark.write_text("start")
    db = await open_database(url)
    entropy = seeded_entropy(f"split{seed}")
    service = TableService(db, Bank(db), clock=time.time, entropy=entropy, shards=(count, shards))
    try:
        opened = await check_loaded(service, shards)
    except Exception:
        print("FAIL " + traceback.format_exc().replace("\n", " | "), flush=True)
        return 1
    print(f"ready {opened}", flush=True)
    guilds = [g for g in GUILDS if shard_of(g, count) in shards]
    process = Process(service, guilds, seed, mark)
    try:
        await asyncio.gather(process.worker(0), process.worker(1))
    except Exception:
        print("FAIL " + traceback.format_exc().replace("\n", " | "), flush=True)
        return 1
    return 0


if __name__ == "__main__":
    shard_ids = tuple(int(s) for s in sys.argv[3].split(","))
    args: Any = (sys.argv[1], int(sys.argv[2]), shard_ids, int(sys.argv[4]), Path(sys.argv[5]))
    sys.exit(asyncio.run(main(*args)))
