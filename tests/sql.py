"""Ad-hoc SQL for tests, through the database's one way in (``write`` / ``read``)."""

from __future__ import annotations

from bot.db import Database, Row


async def fetchone(db: Database, sql: str, params: tuple[object, ...] = ()) -> Row | None:
    """The first row of a query, read from the committed state."""
    return await db.read(lambda c: c.fetchone(sql, params))


async def fetchall(db: Database, sql: str, params: tuple[object, ...] = ()) -> list[Row]:
    """Every row of a query, read from the committed state."""
    return await db.read(lambda c: c.fetchall(sql, params))


async def execute(db: Database, sql: str, params: tuple[object, ...] = ()) -> int:
    """One statement in a write transaction of its own; the rows it changed."""
    return await db.write(lambda c: c.execute(sql, params))


async def committed(db: Database, table_id: int) -> tuple[int, str]:
    """A table's committed version and snapshot JSON: its row's snapshot and the actions
    logged after it, replayed by a service of its own (as a restart loads it)."""
    from bot.bank import Bank
    from bot.tables import TableService

    service = TableService(db, Bank(db), clock=lambda: 0.0)
    found = await service.committed(table_id)
    assert found is not None, f"table {table_id} has no snapshot"
    return found.version, found.snapshot_json()
