"""The table message's buttons kept from its last render (issue 27).

Most moves leave the buttons as they were (the same moves offered, in the same phase):
only the version their custom ids carry changes. Drawing them (the legal moves turned
into labelled buttons) was about a quarter of a render; they are drawn again only when
what they show changed, as the renderer's ``button_key`` says it. One entry per table,
in its language, replaced: it never grows with the number of moves (380-650 bytes per
table: the key holds the game's own options object, the buttons are shared between
tables, ``bot.ui.buttons._shared``).

The embed's parts (each seat's lines, the status line, the dealer's hand, the
commitments) are drawn every time: kept the same way, they saved ~11,500 instructions
per Black Jack move for 3-4.6 KB per idle table (the seat lines; the others nothing
measurable), against an idle table's budget of 10 KiB.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from bot.ui.buttons import ButtonRows, ButtonSpec

ENABLED = True  # tests compare a render with the cache to one without


def button_rows(
    table: Any, locale: str, key: Any, draw: Callable[[], list[ButtonSpec]]
) -> ButtonRows | None:
    """The table's buttons drawn from ``key`` in ``locale``: the last ones when both are
    the same, else ``draw()``'s, kept for the next render (a None key: drawn, not kept)."""
    if key is None:
        return ButtonRows.of(table.id, draw())
    kept = table.render_cache
    if kept is not None and kept[0] == locale and kept[1] == key:
        rows: ButtonRows | None = kept[2]
        return rows
    rows = ButtonRows.of(table.id, draw())
    table.render_cache = (locale, key, rows)
    return rows
