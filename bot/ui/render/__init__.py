"""How each game's table looks on Discord: the embed, the buttons, the announcements."""

from __future__ import annotations

from .common import Ctx, GameRenderer, renderer_for

__all__ = ["Ctx", "GameRenderer", "renderer_for"]
