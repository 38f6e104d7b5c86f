"""A fresh PostgreSQL schema per bench run, dropped afterwards."""

from __future__ import annotations

import secrets
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager


async def schema_sql(url: str, sql: str) -> None:
    """Run one statement on the server (a schema's creation or removal)."""
    import asyncpg

    admin = await asyncpg.connect(url)
    try:
        await admin.execute(sql)
    finally:
        await admin.close()


@asynccontextmanager
async def pg_schema(url: str) -> AsyncIterator[str]:
    """A fresh schema on the server: the URL that uses it."""
    name = f"bench_{secrets.token_hex(5)}"
    await schema_sql(url, f"CREATE SCHEMA {name}")
    try:
        yield f"{url}{'&' if '?' in url else '?'}search_path={name}"
    finally:
        await schema_sql(url, f"DROP SCHEMA {name} CASCADE")
