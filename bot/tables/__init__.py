"""Tables: open/join/act/close under a per-table lock, persisted with their postings and
timers in one transaction. No discord imports."""

from . import history
from .errors import StaleAction, StaleTable, TableError
from .games import GAMES, GameSpec
from .models import Outcome, Table, TableSettings
from .service import TableService

__all__ = [
    "GAMES",
    "GameSpec",
    "Outcome",
    "StaleAction",
    "StaleTable",
    "Table",
    "TableError",
    "TableService",
    "TableSettings",
    "history",
]
