"""The table message's buttons drawn once for every table showing them (issue 27).

Most moves leave the buttons as they were (the same moves offered, in the same phase):
only the table and version their custom ids carry change. Drawing them (the legal moves
turned into labelled buttons) was about a quarter of a render; a layout is drawn once
per (game, language, ``button_key``) and shared by every table in that state: the
renderer's ``button_key`` says everything its buttons read. A table keeps its last key
and layout (a few hundred bytes, the layout shared), so a move that changes nothing
there costs one comparison; the shared layouts are bounded (``LAYOUTS_KEPT``).

The embed's parts (each seat's lines, the status line, the dealer's hand, the
commitments) are drawn every time: kept per table and keyed the same way, they saved
~11,500 instructions per Black Jack move for 3-4.6 KB per idle table (the seat lines;
the others nothing measurable), against an idle table's budget of 10 KiB.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from typing import Any

from bot.ui.buttons import ButtonRows, ButtonSpec

ENABLED = True  # tests compare a render with the cache to one without
LAYOUTS_KEPT = 1024  # a few kinds of state per game, language and options in use
_LAYOUTS: dict[tuple[str, str, Hashable], ButtonRows | None] = {}


def button_rows(
    table: Any, locale: str, key: Hashable | None, draw: Callable[[], list[ButtonSpec]]
) -> ButtonRows | None:
    """The buttons drawn from ``key`` in ``locale``: the table's last ones when both are
    the same, else those of any table in that state, else ``draw()``'s (a None key:
    drawn every time)."""
    if key is None:
        return ButtonRows.of(draw())
    kept = table.render_cache
    if kept is not None and kept[0] == locale and kept[1] == key:
        rows: ButtonRows | None = kept[2]
        return rows
    shared = (table.game_key, locale, key)
    if shared in _LAYOUTS:
        rows = _LAYOUTS[shared]
    else:
        rows = ButtonRows.of(draw())
        if len(_LAYOUTS) >= LAYOUTS_KEPT:
            _LAYOUTS.clear()  # rare: the layouts in use are drawn again
        _LAYOUTS[shared] = rows
    table.render_cache = (locale, key, rows)
    return rows


def clear() -> None:
    """Forget the shared layouts (tests)."""
    _LAYOUTS.clear()
