"""SQLite access: one aiosqlite connection per process, transactions and migrations."""

from .connection import Database
from .migrate import MigrationError, latest_level, migrate

__all__ = ["Database", "MigrationError", "latest_level", "migrate"]
