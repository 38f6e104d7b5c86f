"""How each game's table looks on Discord: the embed, the buttons, the announcements.

The common renderer (``common.py``) draws what every game shares; each game's renderer is
the module named by its registry key (``blackjack.py``...), imported here, which registers
itself. Nothing else imports a game's renderer."""

from __future__ import annotations

from importlib import import_module

from bot.engine.registry import GAMES

from .common import Ctx, GameRenderer, renderer_for

for _key in GAMES:
    import_module(f"{__name__}.{_key}")

__all__ = ["Ctx", "GameRenderer", "renderer_for"]
