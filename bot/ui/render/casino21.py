"""How a casino21 table looks (the default rendering until it gets its own)."""

from __future__ import annotations

from .common import GameRenderer, register


class Renderer(GameRenderer):
    """The casino21 table."""

    has_private_cards = False


register("casino21", Renderer())
