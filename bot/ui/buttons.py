"""The persistent move buttons of a table message (discord.py DynamicItem pattern).

custom_id = ``cr:<table>:<version>:<move>[:<arg>]``: everything needed to act after a
restart, and the version lets the service recognise a double click on an old rendering.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

import discord

PREFIX = "cr"
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


class MoveButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=TEMPLATE):
    """A move on a table message; the Tables cog handles the click."""

    def __init__(
        self,
        table_id: int,
        version: int,
        move: str,
        arg: int | None = None,
        *,
        label: str = "",
        style: discord.ButtonStyle = discord.ButtonStyle.secondary,
        row: int | None = None,
        emoji: str | None = None,
        disabled: bool = False,
    ) -> None:
        super().__init__(
            discord.ui.Button(
                label=label or move,
                style=style,
                custom_id=custom_id(table_id, version, move, arg),
                row=row,
                emoji=emoji,
                disabled=disabled,
            )
        )
        self.table_id = table_id
        self.version = version
        self.move = move
        self.arg = arg

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Button[Any], match: re.Match[str]
    ) -> MoveButton:
        """Rebuild the button from its custom_id (after a restart too)."""
        arg = match["arg"]
        return cls(
            int(match["table"]),
            int(match["version"]),
            match["move"],
            int(arg) if arg is not None else None,
        )

    async def callback(self, interaction: discord.Interaction) -> None:
        """Hand the click to the Tables cog."""
        cog: Any = interaction.client.get_cog("Tables")  # type: ignore[attr-defined]
        await cog.on_move_button(interaction, self.table_id, self.version, self.move, self.arg)


ROW_WIDTH = 5  # buttons per action row (Discord's limit)
MAX_ROWS = 5


class TableButtons:
    """A message's move buttons as the component payload Discord receives.

    Clicks never go through a view: the ``MoveButton`` template routes them
    (``add_dynamic_items``), before and after a restart. So the message needs no
    ``discord.ui.View`` of ``MoveButton`` items, which cost about a tenth of a move to
    build on every move; this holds the component dicts such a view would produce and
    answers the few questions discord.py asks of a view it sends. It is "finished" and
    not dispatchable, so discord.py never stores it."""

    __discord_ui_view__ = True  # what discord.py checks before sending a view
    timeout = None

    def __init__(self, rows: list[list[dict[str, Any]]]) -> None:
        self.rows = rows

    @property
    def custom_ids(self) -> list[str]:
        """The buttons' custom_ids in display order."""
        return [button["custom_id"] for row in self.rows for button in row]

    def to_components(self) -> list[dict[str, Any]]:
        """The action rows, as discord.py's ``View.to_components``."""
        return [{"type": 1, "components": row} for row in self.rows]

    def has_components_v2(self) -> bool:
        """Classic action rows only."""
        return False

    def is_finished(self) -> bool:
        """Nothing listens to it (the template does)."""
        return True

    def is_dispatchable(self) -> bool:
        """Nothing for discord.py to dispatch to it."""
        return False


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


def build_buttons(table_id: int, version: int, specs: list[ButtonSpec]) -> TableButtons | None:
    """The move buttons in their rows (a full row spills into the next); None when none."""
    if not specs:
        return None
    by_row: dict[int, list[dict[str, Any]]] = {}
    for spec in specs:
        by_row.setdefault(spec.row or 0, []).append(button_dict(table_id, version, spec))
    rows: list[list[dict[str, Any]]] = []
    for row in sorted(by_row):
        buttons = by_row[row]
        rows.extend(buttons[i : i + ROW_WIDTH] for i in range(0, len(buttons), ROW_WIDTH))
    return TableButtons(rows[:MAX_ROWS])
