"""The stats suite runs on both databases (tests/conftest.py ``any_db``)."""

from __future__ import annotations

import pytest

from bot.db import Database


@pytest.fixture
def db(any_db: Database) -> Database:
    """An open, migrated database of each backend."""
    return any_db
