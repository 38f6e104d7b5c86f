"""Players' client seeds (``user_seeds``, migration 0015): what ``/fairness seed`` sets and
``/fairness show`` shows, mixed into the order of every shoe shuffled while the player is
seated (``bot.engine.shuffle.shoe_key``).

A player's seed is random until they set one: drawn once, from the bot's entropy (the
CSPRNG; a deterministic source in tests), and stored. The table service reads the seated
players' seeds from here before each move; the cache is this process's, refreshed from the
database when a player sits down or a round starts (another process may have changed it).
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable

from bot.db import Conn, Database
from bot.engine.shuffle import CLIENT_SEED_MAX, Entropy, client_seed_problem, secure_entropy
from bot.errors import UserError

DEFAULT_SEED_CHARS = 16  # hex digits of a random seed


async def _read(conn: Conn, users: list[int]) -> dict[int, str]:
    marks = ", ".join("?" for _ in users)
    rows = await conn.fetchall(
        f"SELECT user_id, seed FROM user_seeds WHERE user_id IN ({marks})", tuple(users)
    )
    return {int(u): str(s) for u, s in rows}


async def _insert_missing(conn: Conn, seeds: dict[int, str]) -> dict[int, str]:
    """Store these default seeds where the user has none yet; every user's seed now."""
    for user, seed in seeds.items():
        await conn.execute(
            "INSERT INTO user_seeds (user_id, seed) VALUES (?, ?) ON CONFLICT (user_id) DO NOTHING",
            (user, seed),
        )
    return await _read(conn, list(seeds))


async def _store(conn: Conn, user_id: int, seed: str) -> None:
    await conn.execute(
        "INSERT INTO user_seeds (user_id, seed) VALUES (?, ?)"
        " ON CONFLICT (user_id) DO UPDATE SET seed = excluded.seed",
        (user_id, seed),
    )


class ClientSeeds:
    """Each player's client seed, stored, cached, random by default."""

    def __init__(self, db: Database, entropy: Entropy = secure_entropy) -> None:
        self.db = db
        self.entropy = entropy
        self._cache: dict[int, str] = {}
        # another process may set a seed only on a shared database: one SQLite file has
        # one bot process (bot/db/lock.py), whose cache is always right
        self.shared = db.dialect != "sqlite"

    def _default(self, user_id: int) -> str:
        raw = hashlib.sha256(b"croupier-client-seed" + self.entropy(user_id)).hexdigest()
        return raw[:DEFAULT_SEED_CHARS]

    async def of(self, user_id: int, *, refresh: bool = False) -> str:
        """The player's seed (drawn and stored the first time)."""
        return (await self.of_players([user_id], refresh=refresh))[user_id]

    async def of_players(self, users: Iterable[int], *, refresh: bool = False) -> dict[int, str]:
        """Each player's seed: from the cache, or (``refresh`` on a shared database, or not
        cached) the database, a random one stored for a player who has none."""
        wanted = sorted(set(users))
        fresh = refresh and self.shared
        missing = wanted if fresh else [u for u in wanted if u not in self._cache]
        if missing:
            found = await self.db.read(_read, missing)
            absent = {u: self._default(u) for u in missing if u not in found}
            if absent:
                found.update(await self.db.write(_insert_missing, absent))
            self._cache.update(found)
        return {u: self._cache[u] for u in wanted}

    async def set(self, user_id: int, text: str) -> str:
        """Set the player's seed (refused, unchanged, when it is not a valid one)."""
        text = text.strip()
        problem = client_seed_problem(text)
        if problem is not None:
            raise UserError(f"fairness.error.{problem}", max=CLIENT_SEED_MAX)
        await self.db.write(_store, user_id, text)
        self._cache[user_id] = text
        return text
