"""Shared fixtures: a bot on a temporary database for SimCord, and a fresh Database."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest

from bot.app import CroupierBot, create_bot
from bot.db import Database, SqliteDatabase, migrate
from bot.engine.shuffle import seeded_entropy


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
