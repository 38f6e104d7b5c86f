"""Users' reply language: their ``/language`` choice, kept in ``user_prefs``, and the
last language Discord gave for them (``user_locales``), for the DMs sent with no
interaction at hand."""

from __future__ import annotations

from bot.db import Busy, Conn, Database
from bot.i18n import normalize


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


async def _seen(conn: Conn, user_id: int) -> str | None:
    row = await conn.fetchone("SELECT locale FROM user_locales WHERE user_id = ?", (user_id,))
    return None if row is None else str(row[0])


async def _store_seen(conn: Conn, user_id: int, locale: str) -> None:
    await conn.execute(
        "INSERT INTO user_locales (user_id, locale) VALUES (?, ?)"
        " ON CONFLICT (user_id) DO UPDATE SET locale = excluded.locale",
        (user_id, locale),
    )


class Prefs:
    """Users' reply language (``user_prefs``), cached in memory.

    With ``shared=True`` (PostgreSQL) other processes write the same tables: a choice made
    through one must apply in every one at once, so each lookup reads the row (one indexed
    read) instead of the cache."""

    def __init__(self, db: Database, *, shared: bool = False) -> None:
        self.db = db
        self.shared = shared
        self._cache: dict[int, str | None] = {}
        self._seen: dict[int, str | None] = {}  # user -> last locale Discord gave

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

    async def seen(self, user_id: int, discord_locale: object) -> None:
        """Remember the language Discord gave with the user's interaction (``fr``,
        ``en-US``...): stored only when it changed, so most interactions write nothing."""
        if not discord_locale:
            return
        locale = normalize(str(discord_locale))
        if self._seen.get(user_id) == locale:
            return
        if user_id not in self._seen and await self.db.read(_seen, user_id) == locale:
            self._seen[user_id] = locale
            return
        try:
            await self.db.write(_store_seen, user_id, locale)
        except Busy:  # another process holds the database: remembered at a later one
            return
        self._seen[user_id] = locale

    async def reader_locale(self, user_id: int, default: str) -> str:
        """The language of a message to one person with no interaction at hand: their
        ``/language`` choice, else the last language Discord gave for them, else
        ``default`` (the guild's)."""
        chosen = await self.locale(user_id)
        if chosen:
            return chosen
        if self.shared or user_id not in self._seen:  # another process may have seen them
            self._seen[user_id] = await self.db.read(_seen, user_id)
        return self._seen[user_id] or default
