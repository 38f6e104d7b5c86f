"""Translation helpers for texts a game may word its own way."""

from __future__ import annotations

from typing import Any

from bot.i18n import has, t


def game_key_or(key: str, game_key: str) -> str:
    """``<key>.<game>`` when the catalog has a game's own wording, else ``key``."""
    return f"{key}.{game_key}" if has(f"{key}.{game_key}") else key


def t_or(key: str, locale: str | None, *, fallback: str, **params: Any) -> str:
    """Translate ``key``, or ``fallback`` when the catalog has no such key."""
    return t(key if has(key) else fallback, locale, **params)
