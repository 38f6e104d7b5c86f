"""What a table's last render drew, to draw the next one from (issue 27).

A move changes one seat or two, the status line and the version: the table message is
drawn again from the parts that did not change. Each part is kept with the key it was
drawn from (what it shows: the seat's public state, the phase...) and drawn again when
the key differs; the renderers say what each part's key is (``seat_key``, ``status_key``,
``button_key``). One cache per table, in one language (a render in another replaces it),
each part one entry, replaced: it never grows with the number of moves.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, TypeVar

from bot.ui import cards

T = TypeVar("T")
ENABLED = True  # tests compare a render with the caches to one without


@dataclass(slots=True, eq=False)
class RenderCache:
    """One table's drawn parts, in ``locale`` with the card pictures of ``drawing``."""

    locale: str
    drawing: int
    parts: dict[str, tuple[Any, Any]] = field(default_factory=dict)  # name -> (key, value)
    seats: dict[Any, tuple[Any, list[str]]] = field(default_factory=dict)  # player -> ...

    def part(self, name: str, key: Any, draw: Callable[[], T]) -> T:
        """The part ``name`` drawn from ``key``: the one kept when its key is equal."""
        kept = self.parts.get(name)
        if kept is not None and kept[0] == key:
            value: T = kept[1]
            return value
        value = draw()
        self.parts[name] = (key, value)
        return value


def cache_of(table: Any, locale: str) -> RenderCache | None:
    """The table's cache for a render in ``locale`` (a new one when the language or the
    card pictures changed); None when caching is off."""
    if not ENABLED:
        return None
    kept: RenderCache | None = table.render_cache
    now = cards.drawing()
    if kept is None or kept.locale != locale or kept.drawing != now:
        kept = table.render_cache = RenderCache(locale, now)
    return kept
