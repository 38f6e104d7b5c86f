"""Cards as text: codes from the engine to Unicode suits."""

from __future__ import annotations

from collections.abc import Iterable

from bot.engine.cards import Card

FACE_DOWN = "🂠"


def card(code: str | None) -> str:
    """``AS`` -> ``A♠``; None (face down) -> a card back."""
    if code is None:
        return FACE_DOWN
    text = _TEXT.get(code)
    if text is None:  # every table message draws its cards again: parse each code once
        text = str(Card.parse(code))
        if len(_TEXT) < 1024:
            _TEXT[code] = text
    return text


_TEXT: dict[str, str] = {}


def cards(codes: Iterable[str | None]) -> str:
    """Several cards separated by spaces, or a dash for none."""
    text = " ".join(card(c) for c in codes)
    return text or "—"
