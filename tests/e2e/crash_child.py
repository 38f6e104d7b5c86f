"""Child process for test_crash_recovery: the real bot under SimCord plays a scripted,
random multi-table session on a database file until it is killed.

Usage: python crash_child.py DATABASE WORLD_PATH SEED (DATABASE: a file or a postgresql:// URL)

Discord outlives the bot: the virtual Discord (SimCord's backend: guild, channels, threads,
messages, clock) is pickled to WORLD_PATH after every step and reloaded at the next start,
so a restart finds its threads and table messages as Discord kept them (up to the last
step: a kill between a commit and the next save loses the newest Discord changes, the way
a thread created just before a crash may never have been recorded by the bot).

At start-up, once the bot is READY (tables reloaded, messages re-rendered or lost tables
closed), the child checks the database and prints one line:
``ready <seconds to recover> <open tables> <closed tables> <closed by this restart>``
(or ``FAIL <reason>``), then plays until killed, writing the step in flight to
WORLD_PATH.step (what the kill interrupted). While "down", a moderator sometimes deletes
the thread of an open table: the restart must close that table with refunds.
This uses SimCord's Backend and handle constructors directly (not
public API; pinned by the simcord version in the venv).
"""

from __future__ import annotations

import asyncio
import json
import os
import pickle
import random
import sys
import time
import traceback
from pathlib import Path
from typing import Any

import simcord
from simcord.actors import MemberActor
from simcord.builders import ChannelHandle, GuildHandle, UserHandle

from bot.app import create_bot
from bot.db import open_database
from bot.engine.shuffle import seeded_entropy
from bot.tables import GAMES
from bot.tables.move_names import MOVES
from tests.bank.ledger import table_escrow
from tests.bank_audit import assert_audit_clean
from tests.sql import fetchall

NAMES = ["alice", "bob", "carol", "dave"]
LOBBIES = 3  # tables at once, one per lobby channel
GAME_KEYS = sorted(GAMES)


def save_world(env: Any, path: Path) -> None:
    """Pickle the virtual Discord (without the live bot's gateway subscriptions)."""
    backend = env.backend
    # diagnostics and old chatter only grow: keep the world small so saving stays cheap
    backend.http_requests.clear()
    backend.transcript.clear()
    for messages in backend.messages.values():
        old = sorted(messages)[:-8]
        for message_id in old:
            if not messages[message_id].components:  # table messages stay
                del messages[message_id]
    subscribers = backend.subscribers
    backend.subscribers = []
    try:
        data = pickle.dumps(backend, protocol=pickle.HIGHEST_PROTOCOL)
    finally:
        backend.subscribers = subscribers
    tmp = path.with_suffix(".tmp")
    tmp.write_bytes(data)
    os.replace(tmp, path)


def stacks(table: Any) -> dict[int, int]:
    """Seated players' stacks in the game's public view (money games)."""
    if not table.game.MONEY:  # a game's points, not money
        return {}
    return {s.player: s.stack for s in table.game.public_view().seats}


async def check(env: Any) -> tuple[int, int]:
    """After a restart: a clean audit, open tables whose seat escrows equal the engine's
    stacks, closed tables with nothing left in escrow. Returns (open, closed)."""
    db = env.bot.db
    await assert_audit_clean(db)
    service = env.bot.tables
    rows = await fetchall(db, "SELECT id, guild_id, status, game FROM tables")
    opened = closed = 0
    for table_id, guild_id, status, game in rows:
        escrow = await table_escrow(service.bank.db, guild_id, table_id)
        if status == "closed":
            closed += 1
            assert not any(escrow.values()), (table_id, escrow)
            continue
        opened += 1
        table = service.get(table_id)  # reloaded in memory: it goes on
        if GAMES[game].money:
            seats = {
                int(k.split(":", 1)[1]): v for k, v in escrow.items() if k.startswith("seat:") and v
            }
            engine = {p: s for p, s in stacks(table).items() if s}
            assert seats == engine, (table_id, game, seats, engine)
    return opened, closed


class Player:
    def __init__(self, member: MemberActor) -> None:
        self.member = member

    @property
    def id(self) -> int:
        return int(self.member.id)


async def step(
    env: Any, rng: random.Random, guild: Any, lobbies: list[Any], players: list[Player]
) -> str:
    """One random thing a user (or time) does; returns what it was."""
    service = env.bot.tables
    tables = service.open_tables()
    roll = rng.random()
    if len(tables) < LOBBIES and (roll < 0.15 or not tables):
        taken = {t.parent_id for t in tables}
        free = [c for c in lobbies if c.id not in taken]
        if free:
            host = rng.choice(players)
            game = rng.choice(GAME_KEYS)
            mark(f"open {game}")
            await host.member.slash(rng.choice(free), "table open", game=game)
            return "open"
    if roll < 0.03:
        mark("bank claim")
        await rng.choice(players).member.slash(lobbies[0], "bank claim")
        return "claim"
    if roll < 0.08:
        seconds = rng.choice([5, 20, 70, 100, 200])
        mark(f"time +{seconds}s")
        await env.advance_time(seconds)
        return "time"
    if roll < 0.10:
        env.inject_error("PATCH", "/channels/*/messages/*", status=rng.choice([500, 429]), times=1)
    if not tables:
        return "idle"
    table = rng.choice(tables)
    thread = ChannelHandle(env, guild, env.backend.channels[table.channel_id])
    if table.message_id is None or table.message_id not in env.backend.messages.get(thread.id, {}):
        return "idle"
    if roll < 0.12:
        host = next((p for p in players if p.id == table.host_id), players[0])
        mark(f"close {table.game_key}")
        await host.member.slash(thread, "table close")
        return "close"
    message = next(m for m in thread.history() if m.id == table.message_id)
    buttons: list[tuple[str, str]] = []
    for row in message.components:
        for child in getattr(row, "children", []):
            cid = getattr(child, "custom_id", None) or ""
            parts = cid.split(":")
            if len(parts) >= 4 and parts[0] == "cr" and parts[3] in MOVES:
                buttons.append((parts[3], cid))
    choices: list[tuple[Player, str]] = []
    for p in players:
        legal = table.game.legal_actions(p.id)
        for move, cid in buttons:
            if move == "leave" and rng.random() < 0.9:
                continue
            if MOVES[move][0] in legal:
                choices.append((p, cid))
    if not choices:
        mark("time +30s")
        await env.advance_time(30)
        return "time"
    player, cid = rng.choice(choices)
    move = cid.split(":")[3]
    mark(f"click {table.game_key} {move}")
    await player.member.click(message, custom_id=cid)
    return move


MARK: list[Path] = []


async def query(url: str, sql: str) -> list[tuple[Any, ...]]:
    """Rows of the database before the bot starts (none before its first start or its
    migrations: a kill may come first)."""
    if "://" not in url and not Path(url).exists():
        return []
    db = await open_database(url)
    try:
        return [tuple(row) for row in await db.read(lambda c: c.fetchall(sql))]
    except Exception:  # killed before the migrations: no tables yet
        return []
    finally:
        await db.close()


def mark(what: str) -> None:
    """Record the step in flight (read by the parent after the kill)."""
    if MARK:
        MARK[0].write_text(what)


async def main(db_path: str, world_path: Path, seed: int) -> int:
    rng = random.Random(seed)
    bot = create_bot(database_url=db_path, entropy=seeded_entropy(f"crash{seed}"))
    env = simcord.Env(bot, check_errors=False)
    meta_path = world_path.with_suffix(".json")
    first = not world_path.exists()
    MARK.append(world_path.with_suffix(".step"))
    mark("start")
    if not first:
        env.backend = pickle.loads(world_path.read_bytes())
        if rng.random() < 0.25:  # a moderator deletes an open table's thread meanwhile
            rows = await query(
                db_path,
                "SELECT channel_id FROM tables WHERE status = 'open' AND parent_id IS NOT NULL",
            )
            present = [r[0] for r in rows if r[0] in env.backend.channels]
            if present:
                env.backend.delete_channel(rng.choice(present))
    counted = await query(db_path, "SELECT COUNT(*) FROM tables WHERE status = 'closed'")
    closed_before = int(counted[0][0]) if counted else 0
    started = time.monotonic()
    await env.start()
    recovery = time.monotonic() - started
    with env.time_context():
        if first:
            guild = env.create_guild()
            lobbies = [guild.create_text_channel(f"casino-{i}") for i in range(LOBBIES)]
            players = [Player(guild.add_member(env.create_user(n))) for n in NAMES]
            meta = {
                "guild": guild.id,
                "lobbies": [c.id for c in lobbies],
                "users": [p.id for p in players],
            }
            meta_path.write_text(json.dumps(meta))
            save_world(env, world_path)
        else:
            meta = json.loads(meta_path.read_text())
            guild = GuildHandle(env, env.backend.guilds[meta["guild"]])
            lobbies = [ChannelHandle(env, guild, env.backend.channels[c]) for c in meta["lobbies"]]
            players = [
                Player(MemberActor(env, guild, UserHandle(env, env.backend.users[u])))
                for u in meta["users"]
            ]
        try:
            assert env.bot.publisher.restored
            opened, closed = await check(env)
        except Exception:
            print("FAIL " + traceback.format_exc().replace("\n", " | "), flush=True)
            return 1
        print(f"ready {recovery:.3f} {opened} {closed} {closed - closed_before}", flush=True)
        while True:
            await step(env, rng, guild, lobbies, players)
            mark("saving the world")
            if env.errors:
                print("FAIL bot errors: " + " | ".join(map(repr, env.errors)), flush=True)
                return 1
            save_world(env, world_path)


if __name__ == "__main__":
    sys.exit(asyncio.run(main(sys.argv[1], Path(sys.argv[2]), int(sys.argv[3]))))
