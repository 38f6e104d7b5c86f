"""Shared fixtures: a bot on a temporary database for SimCord, and a fresh Database.

Both backends: ``backend`` is parametrized over SQLite and PostgreSQL (the PostgreSQL half
runs when ``TEST_DATABASE_URL`` names a server, else it is skipped with one reason).
``database_url`` is a fresh database of the backend: a file in ``tmp_path``, or a schema of
its own on the test server (dropped after the test). Suites that run on both ask for
``any_db`` (the bank and tables suites' ``db``) or ``database_url``.
"""

from __future__ import annotations

import os
import secrets
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest

from bot.app import CroupierBot, create_bot
from bot.db import Database, SqliteDatabase, migrate, open_database
from bot.engine.shuffle import seeded_entropy

TEST_DATABASE_URL = os.environ.get("TEST_DATABASE_URL", "").strip()
NEEDS_PG = pytest.mark.skipif(
    not TEST_DATABASE_URL, reason="PostgreSQL half: set TEST_DATABASE_URL to run it"
)
BACKENDS = [pytest.param("sqlite"), pytest.param("postgresql", marks=NEEDS_PG)]


def pg_schema_url(schema: str) -> str:
    """TEST_DATABASE_URL with its search path set to ``schema``."""
    sep = "&" if "?" in TEST_DATABASE_URL else "?"
    return f"{TEST_DATABASE_URL}{sep}search_path={schema}"


async def pg_schema(action: str, schema: str) -> None:
    """CREATE or DROP a schema on the test server."""
    import asyncpg

    c = await asyncpg.connect(TEST_DATABASE_URL)
    try:
        if action == "create":
            await c.execute(f"CREATE SCHEMA {schema}")
        else:
            await c.execute(f"DROP SCHEMA IF EXISTS {schema} CASCADE")
    finally:
        await c.close()


@pytest.fixture(params=BACKENDS)
def backend(request: pytest.FixtureRequest) -> str:
    """``sqlite`` or ``postgresql``."""
    return str(request.param)


@pytest.fixture
async def database_url(backend: str, tmp_path: Path) -> AsyncIterator[str]:
    """A fresh, empty database of the backend: a file path, or a PostgreSQL URL."""
    if backend == "sqlite":
        yield str(tmp_path / "croupier.sqlite3")
        return
    schema = f"t_{secrets.token_hex(6)}"
    await pg_schema("create", schema)
    try:
        yield pg_schema_url(schema)
    finally:
        await pg_schema("drop", schema)


@pytest.fixture
async def any_db(database_url: str) -> AsyncIterator[Database]:
    """An open, migrated database of each backend."""
    database = await open_database(database_url)
    await migrate(database)
    yield database
    await database.close()


@pytest.fixture
def db_path(tmp_path: Path) -> str:
    """A database file path in the test's temporary folder."""
    return str(tmp_path / "croupier.sqlite3")


@pytest.fixture
def simcord_bot(db_path: str) -> CroupierBot:
    """The real bot on a temporary database (SimCord starts it)."""
    return create_bot(database_path=db_path, entropy=seeded_entropy("e2e"))


@pytest.fixture
async def db(db_path: str) -> AsyncIterator[Database]:
    """An open, migrated database."""
    database = await SqliteDatabase.open(db_path)
    await migrate(database)
    yield database
    await database.close()


@pytest.fixture(autouse=True)
def no_missing_message_key():
    """Every text a test produced exists in the catalogs (a missing key shows raw)."""
    from bot import i18n

    i18n.MISSING.clear()
    yield
    assert not i18n.MISSING, f"missing message keys: {sorted(i18n.MISSING)}"


@pytest.fixture(autouse=True)
def cards_as_text(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Tests read the bot's card emojis as text (tests/card_markup.py); no card pictures
    of a previous test's bot leak into the next test (they are process-wide)."""
    from bot.ui import cards
    from tests.card_markup import install

    install(monkeypatch)
    yield
    cards.use_faces({})


@pytest.fixture
def fresh_logging() -> Iterator[None]:
    """Logging as a new process has it, for a test that reads what is logged: earlier
    tests may have left levels disabled (the benches' ``logging.disable``), loggers
    quietened (the sandbox's ``discord`` at ERROR) or turned off."""
    import logging

    manager = logging.root.manager
    disabled = manager.disable
    loggers = [x for x in manager.loggerDict.values() if isinstance(x, logging.Logger)]
    saved = [(x, x.level, x.disabled) for x in loggers]
    logging.disable(logging.NOTSET)
    for x in loggers:
        x.setLevel(logging.NOTSET)
        x.disabled = False
    yield
    logging.disable(disabled)
    for x, level, off in saved:
        x.setLevel(level)
        x.disabled = off
