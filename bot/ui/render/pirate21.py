"""How a pirate21 table looks (the default rendering until it gets its own)."""

from __future__ import annotations

from .common import GameRenderer, register


class Renderer(GameRenderer):
    """The pirate21 table."""

    has_private_cards = True


register("pirate21", Renderer())
