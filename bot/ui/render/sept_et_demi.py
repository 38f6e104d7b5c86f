"""How a sept_et_demi table looks (the default rendering until it gets its own)."""

from __future__ import annotations

from .common import GameRenderer, register


class Renderer(GameRenderer):
    """The sept_et_demi table."""

    has_private_cards = True


register("sept_et_demi", Renderer())
