"""Private tables: who may sit at them (issue 39). The host is always allowed; the members
they invite (``/table invite``) are stored in ``table_invites`` (migration 0014), written
in the invite's own transaction, and kept in memory (one query, at the first use, for
every open table). An uninvited member who is seated keeps their seat: they play on until
they leave or the host removes them (``/table kick``); they cannot sit down again."""

from __future__ import annotations

from bot.db import Conn, Database

from .models import Table

_OPEN_INVITES = (
    "SELECT i.table_id, i.user_id FROM table_invites i"
    " JOIN tables t ON t.id = i.table_id WHERE t.status = 'open'"
)


async def _all(c: Conn) -> list[tuple[int, int]]:
    return [(int(r[0]), int(r[1])) for r in await c.fetchall(_OPEN_INVITES)]


async def _invited(c: Conn, table_id: int, user_id: int) -> bool:
    found = await c.fetchone(
        "SELECT 1 FROM table_invites WHERE table_id = ? AND user_id = ?", (table_id, user_id)
    )
    return found is not None


async def _invite(c: Conn, table_id: int, user_id: int) -> bool:
    added = await c.execute(
        "INSERT INTO table_invites (table_id, user_id) VALUES (?, ?)"
        " ON CONFLICT (table_id, user_id) DO NOTHING",
        (table_id, user_id),
    )
    return added == 1


async def _uninvite(c: Conn, table_id: int, user_id: int) -> bool:
    removed = await c.execute(
        "DELETE FROM table_invites WHERE table_id = ? AND user_id = ?", (table_id, user_id)
    )
    return removed == 1


class Invites:
    """The invite lists of the open private tables."""

    def __init__(self, db: Database) -> None:
        self.db = db
        self._by_table: dict[int, set[int]] | None = None  # None: not read yet

    async def load(self) -> None:
        """Read every open table's invites (once; later changes are made through here)."""
        if self._by_table is not None:
            return
        rows = await self.db.read(_all)
        if self._by_table is None:  # another caller may have read them meanwhile
            by_table: dict[int, set[int]] = {}
            for table_id, user_id in rows:
                by_table.setdefault(table_id, set()).add(user_id)
            self._by_table = by_table

    def admits(self, table: Table, user_id: int) -> bool:
        """Whether ``user_id`` may sit at ``table`` (after :meth:`load`): any table that is
        not private; a private one: its host, its current host, an invited member."""
        if not table.settings.private or user_id in (table.host_id, table.game.host):
            return True
        assert self._by_table is not None, "Invites.load first"
        return user_id in self._by_table.get(table.id, ())

    async def may_join(self, table: Table, user_id: int) -> bool:
        """:meth:`admits`, the invites read first if need be; a refusal is checked in the
        database first (another process may have served the table and taken the invite
        since this one read them: a takeover)."""
        await self.load()
        if self.admits(table, user_id):
            return True
        if not await self.db.read(_invited, table.id, user_id):
            return False
        assert self._by_table is not None
        self._by_table.setdefault(table.id, set()).add(user_id)
        return True

    async def invited(self, table_id: int) -> frozenset[int]:
        """The members invited to a table."""
        await self.load()
        assert self._by_table is not None
        return frozenset(self._by_table.get(table_id, ()))

    async def invite(self, table_id: int, user_id: int) -> bool:
        """Invite a member (stored first); False if they were invited already."""
        await self.load()
        added = await self.db.write(_invite, table_id, user_id)
        assert self._by_table is not None
        self._by_table.setdefault(table_id, set()).add(user_id)
        return bool(added)

    async def uninvite(self, table_id: int, user_id: int) -> bool:
        """Take an invite back (stored first); False if there was none."""
        await self.load()
        removed = await self.db.write(_uninvite, table_id, user_id)
        assert self._by_table is not None
        self._by_table.get(table_id, set()).discard(user_id)
        return bool(removed)
