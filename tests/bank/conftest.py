"""Bank fixtures: a Bank on a fresh migrated database, audited after every test."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from bot.bank import Bank
from bot.db import Database
from tests.bank_audit import assert_audit_clean

GUILD = 1001  # the guild the ``bank`` fixture sets up (tests use the same number)


@pytest.fixture
def db(any_db: Database) -> Database:
    """The bank suite runs on both databases (tests/conftest.py ``any_db``)."""
    return any_db


@pytest.fixture
async def bank(db: Database) -> AsyncIterator[Bank]:
    """A Bank with guild GUILD set up (treasury 1_000_000); the audit must be clean after."""
    service = Bank(db)
    await service.ensure_guild(GUILD)
    yield service
    await assert_audit_clean(db)
