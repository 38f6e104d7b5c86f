"""The table message's buttons: plain components identical to discord.py's own View."""

from __future__ import annotations

from typing import Any

import discord
import pytest

from bot.ui.buttons import TEMPLATE, ButtonSpec, build_buttons
from cogs.tables.moves import MoveButton

GREEN = discord.ButtonStyle.success
GREY = discord.ButtonStyle.secondary

SPECS = [
    ButtonSpec("join", "Join", discord.ButtonStyle.primary, row=0),
    ButtonSpec("start", "Next round", GREEN, row=0),
    ButtonSpec("bet", "Bet 10", GREEN, arg=10, row=1),
    ButtonSpec("bet_modal", "Other amount", discord.ButtonStyle.primary, row=1),
    ButtonSpec("hit", "Hit", GREEN, row=2),
    ButtonSpec("stand", "Stand", discord.ButtonStyle.danger, row=2),
    ButtonSpec("ace", "Ace = 11", discord.ButtonStyle.primary, arg=11, row=3),
    ButtonSpec("ace", "Ace = -1", discord.ButtonStyle.primary, arg=-1, row=3),
    ButtonSpec("hand", "My hand", GREY, row=4, emoji="🂠"),
    ButtonSpec("vote_stop", "Vote stop", GREY, row=4, disabled=True),
]


def discord_view(table_id: int, version: int, specs: list[ButtonSpec]) -> discord.ui.View:
    """What the table message used to carry: a discord.py View of MoveButton items."""
    view = discord.ui.View(timeout=None)
    for s in specs:
        view.add_item(
            MoveButton(
                table_id,
                version,
                s.move,
                s.arg,
                label=s.label,
                style=s.style,
                row=s.row,
                emoji=s.emoji,
                disabled=s.disabled,
            )
        )
    return view


async def test_components_are_what_discord_py_would_send() -> None:
    ours = build_buttons(12, 34, SPECS)
    assert ours is not None
    theirs: list[dict[str, Any]] = discord_view(12, 34, SPECS).to_components()
    assert ours.to_components() == theirs
    assert ours.custom_ids == [i.custom_id for i in discord_view(12, 34, SPECS).children]  # type: ignore[attr-defined]


async def test_every_button_is_routed_by_the_move_template() -> None:
    ours = build_buttons(7, 3, SPECS)
    assert ours is not None
    for custom_id, spec in zip(ours.custom_ids, SPECS, strict=True):
        match = MoveButton.__discord_ui_compiled_template__.fullmatch(custom_id)
        assert match is not None, custom_id
        assert (match["table"], match["version"], match["move"]) == ("7", "3", spec.move)
        assert match["arg"] == (None if spec.arg is None else str(spec.arg))
    assert TEMPLATE.startswith("cr:")


async def test_a_full_row_spills_into_the_next_one() -> None:
    specs = [ButtonSpec("draw", f"Draw {n}", GREEN, arg=n, row=2) for n in range(7)]
    specs.append(ButtonSpec("leave", "Leave", GREY, row=4))
    ours = build_buttons(1, 1, specs)
    assert ours is not None
    assert [len(row["components"]) for row in ours.to_components()] == [5, 2, 1]
    # discord.py's own View refuses the sixth button of a row outright
    with pytest.raises(ValueError):
        discord_view(1, 1, specs)


async def test_no_buttons_no_view_and_discord_py_never_stores_it() -> None:
    assert build_buttons(1, 1, []) is None
    ours = build_buttons(1, 1, SPECS[:1])
    assert ours is not None
    # a real discord.py View (no duck-typed stand-in); discord.py stores a sent view only
    # when it is dispatchable, and ours has no children to dispatch to
    assert isinstance(ours, discord.ui.View) and not ours.is_dispatchable()
    assert ours.children == [] and ours.timeout is None
