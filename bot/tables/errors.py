"""Refusals of the table service; each is a UserError with a translatable key."""

from __future__ import annotations

from bot.errors import UserError


class TableError(UserError):
    """A table-level refusal (no table here, already one here, not the host...)."""

    def __init__(self, code: str, **params: object) -> None:
        super().__init__(f"table.error.{code}", **params)
        self.code = code  # the key names the catalog sentence, the code the refusal


class StaleTable(RuntimeError):
    """The table's row is at another version than this copy: another process (a takeover
    during a rolling restart) wrote it. The service reloads the table."""

    def __init__(self, table_id: int) -> None:
        super().__init__(f"table {table_id} was written by another process")
        self.table_id = table_id


class StaleAction(TableError):
    """A button from an older state of the table (a double click, an old message)."""

    def __init__(self) -> None:
        super().__init__("stale")
