"""Users' reply language: their ``/language`` choice, kept in ``user_prefs``."""

from __future__ import annotations

from bot.db import Conn, Database


async def _chosen(conn: Conn, user_id: int) -> str | None:
    row = await conn.fetchone("SELECT locale FROM user_prefs WHERE user_id = ?", (user_id,))
    return None if row is None or not row[0] else str(row[0])


async def _store(conn: Conn, user_id: int, locale: str | None) -> None:
    if locale is None:
        await conn.execute("DELETE FROM user_prefs WHERE user_id = ?", (user_id,))
    else:
        await conn.execute(
            "INSERT INTO user_prefs (user_id, locale) VALUES (?, ?)"
            " ON CONFLICT (user_id) DO UPDATE SET locale = excluded.locale",
            (user_id, locale),
        )


class Prefs:
    """Users' reply language (``user_prefs``), cached in memory.

    With ``shared=True`` (PostgreSQL) other processes write the same table: a choice made
    through one must apply in every one at once, so each lookup reads the row (one indexed
    read) instead of the cache."""

    def __init__(self, db: Database, *, shared: bool = False) -> None:
        self.db = db
        self.shared = shared
        self._cache: dict[int, str | None] = {}

    async def locale(self, user_id: int) -> str | None:
        """The user's chosen language (``fr``/``en``), or None for Discord's."""
        if not self.shared and user_id in self._cache:
            return self._cache[user_id]
        value = await self.db.read(_chosen, user_id)
        if not self.shared:
            self._cache[user_id] = value
        return value

    async def set_locale(self, user_id: int, locale: str | None) -> None:
        """Remember the choice (None: back to Discord's language)."""
        await self.db.write(_store, user_id, locale)
        if not self.shared:
            self._cache[user_id] = locale
