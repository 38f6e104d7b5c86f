"""The move buttons of a table message, as component JSON.

custom_id = ``cr:<table>:<version>:<move>[:<arg>]``: everything needed to act after a
restart, and the version lets the service recognise a double click on an old rendering.
The ``MoveButton`` DynamicItem that routes the clicks lives with the cog that handles them
(cogs/tables/moves.py).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import discord

PREFIX = "cr"  # the custom_id prefix of every move button
TEMPLATE = r"cr:(?P<table>\d+):(?P<version>\d+):(?P<move>[a-z_]+)(?::(?P<arg>-?\d+))?"


@dataclass(frozen=True)
class ButtonSpec:
    """One button to draw: a move, its label and style, an optional numeric argument."""

    move: str
    label: str
    style: discord.ButtonStyle = discord.ButtonStyle.secondary
    arg: int | None = None
    row: int | None = None
    emoji: str | None = None
    disabled: bool = False


def custom_id(table_id: int, version: int, move: str, arg: int | None = None) -> str:
    """The custom_id of a move button."""
    base = f"{PREFIX}:{table_id}:{version}:{move}"
    return base if arg is None else f"{base}:{arg}"


ROW_WIDTH = 5  # buttons per action row (Discord's limit)
MAX_ROWS = 5


class TableButtons(discord.ui.View):
    """A message's move buttons, built as the component JSON Discord receives.

    Clicks never go through a view: the ``MoveButton`` template (cogs/tables/moves.py)
    routes them, before and after a restart. So the message needs no ``MoveButton`` items,
    which cost ~14 % of a move to build on every move (``bench cost``); this view holds
    the component dicts such a view would produce (a test compares them) and has no
    children, so discord.py never dispatches to it nor stores it."""

    def __init__(self, rows: list[list[dict[str, Any]]]) -> None:
        super().__init__(timeout=None)
        self.rows = rows

    @property
    def custom_ids(self) -> list[str]:
        """The buttons' custom_ids in display order."""
        return [button["custom_id"] for row in self.rows for button in row]

    def to_components(self) -> list[dict[str, Any]]:
        """The action rows, as ``View.to_components`` of the same buttons gives them."""
        return [{"type": 1, "components": row} for row in self.rows]


def button_dict(table_id: int, version: int, spec: ButtonSpec) -> dict[str, Any]:
    """One button as Discord's component JSON (the same keys as discord.py's)."""
    out: dict[str, Any] = {
        "type": 2,
        "style": spec.style.value,
        "disabled": spec.disabled,
        "label": spec.label or spec.move,
        "custom_id": custom_id(table_id, version, spec.move, spec.arg),
    }
    if spec.emoji:
        out["emoji"] = {"id": None, "name": spec.emoji}
    return out


class ButtonRows:
    """Move buttons laid out in rows, for any table and version: a move that leaves the
    buttons as they were (most of them) only writes the table and version into their
    custom ids, in the same JSON ``build_buttons`` gives. Tables showing the same buttons
    share one (``bot.ui.render.cache``)."""

    __slots__ = ("rows",)

    def __init__(self, rows: tuple[tuple[_Kept, ...], ...]) -> None:
        self.rows = rows

    @classmethod
    def of(cls, specs: list[ButtonSpec]) -> ButtonRows | None:
        """The rows of these buttons (None when there are none)."""
        if not specs:
            return None
        rows = tuple(
            tuple(
                (
                    b["style"],
                    b["disabled"],
                    b["label"],
                    b["custom_id"].split(":", 3)[3],  # cr:<table>:<version>:<move>[:<arg>]
                    b["emoji"]["name"] if "emoji" in b else None,
                )
                for b in row
            )
            for row in layout(0, 0, specs)
        )
        return cls(rows)

    def build(self, table_id: int, version: int) -> TableButtons:
        """The buttons of the table at ``version`` (``button_dict``'s JSON, keys in order)."""
        start = f"{PREFIX}:{table_id}:{version}:"
        rows = []
        for row in self.rows:
            out = []
            for style, disabled, label, tail, emoji in row:
                button: dict[str, Any] = {
                    "type": 2,
                    "style": style,
                    "disabled": disabled,
                    "label": label,
                    "custom_id": start + tail,
                }
                if emoji is not None:
                    button["emoji"] = {"id": None, "name": emoji}
                out.append(button)
            rows.append(out)
        return TableButtons(rows)


# a kept button: style, disabled, label, the custom id after the version, emoji or None
_Kept = tuple[int, bool, str, str, "str | None"]


def build_buttons(table_id: int, version: int, specs: list[ButtonSpec]) -> TableButtons | None:
    """The move buttons in their rows (a full row spills into the next); None when none."""
    if not specs:
        return None
    return TableButtons(layout(table_id, version, specs))


def layout(table_id: int, version: int, specs: list[ButtonSpec]) -> list[list[dict[str, Any]]]:
    """The buttons' JSON in their rows: each spec's row, a full row spilling into the next."""
    by_row: dict[int, list[dict[str, Any]]] = {}
    for spec in specs:
        by_row.setdefault(spec.row or 0, []).append(button_dict(table_id, version, spec))
    rows: list[list[dict[str, Any]]] = []
    for row in sorted(by_row):
        buttons = by_row[row]
        rows.extend(buttons[i : i + ROW_WIDTH] for i in range(0, len(buttons), ROW_WIDTH))
    return rows[:MAX_ROWS]
