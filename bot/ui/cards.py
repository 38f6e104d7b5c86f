"""Cards as text: codes from the engine to Unicode suits."""

from __future__ import annotations

from collections.abc import Iterable

from bot.engine.cards import Card

FACE_DOWN = "🂠"


def card(code: str | None) -> str:
    """``AS`` -> ``A♠``; None (face down) -> a card back."""
    if code is None:
        return FACE_DOWN
    return str(Card.parse(code))


def cards(codes: Iterable[str | None]) -> str:
    """Several cards separated by spaces, or a dash for none."""
    text = " ".join(card(c) for c in codes)
    return text or "—"
