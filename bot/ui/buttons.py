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


def build_view(table_id: int, version: int, specs: list[ButtonSpec]) -> discord.ui.View | None:
    """A persistent view (no timeout) holding the move buttons; None when there are none."""
    if not specs:
        return None
    view = discord.ui.View(timeout=None)
    for spec in specs[:25]:
        view.add_item(
            MoveButton(
                table_id,
                version,
                spec.move,
                spec.arg,
                label=spec.label,
                style=spec.style,
                row=spec.row,
                emoji=spec.emoji,
                disabled=spec.disabled,
            )
        )
    return view
