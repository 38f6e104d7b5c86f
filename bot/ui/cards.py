"""How a card is written: the bot's card picture (a custom emoji) when it has one, else
text (``A♠``, and ``🂠`` for a card face down).

``card`` is the one function every renderer calls. The pictures are the application's own
emojis, installed at start-up by ``bot.discord.card_emojis.CardEmojis`` with ``use_faces``;
a card without one (upload failed, or no bot running, as in unit tests) is written as
text. ``card_text`` is always text (logs), and ``as_text`` turns a text written with
pictures back into the text form (a message that would not fit Discord's limits with
pictures: ``bot.ui.limits``).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping

from bot.engine.cards import Card

FACE_DOWN = "🂠"
BACK = "back"  # the key of the face-down picture (the others are card codes)


def card(code: str | None) -> str:
    """``AS`` -> the ace of spades' picture, or ``A♠``; None (face down) -> a card back."""
    if _faces:
        face = _faces.get(BACK if code is None else code)
        if face is not None:
            return face
    return card_text(code)


def card_text(code: str | None) -> str:
    """``AS`` -> ``A♠``; None (face down) -> ``🂠``: the text form, pictures or not."""
    if code is None:
        return FACE_DOWN
    text = _TEXT.get(code)
    if text is None:  # every table message draws its cards again: parse each code once
        text = str(Card.parse(code))
        if len(_TEXT) < 1024:
            _TEXT[code] = text
    return text


def cards(codes: Iterable[str | None]) -> str:
    """Several cards separated by spaces, or a dash for none."""
    text = " ".join(card(c) for c in codes)
    return text or "—"


_TEXT: dict[str, str] = {}
_faces: dict[str, str] = {}  # card code or BACK -> emoji markup ``<:name:id>``
_markup_text: dict[str, str] = {}  # emoji markup -> the card's text form
_MARKUP = re.compile(r"<a?:[A-Za-z0-9_]{2,32}:\d{1,20}>")


def use_faces(markup: Mapping[str, str]) -> None:
    """Draw these cards (code or ``BACK`` -> emoji markup) as pictures, the others as text."""
    _faces.clear()
    _faces.update(markup)
    _markup_text.clear()
    _markup_text.update(
        {face: card_text(None if key == BACK else key) for key, face in markup.items()}
    )


def as_text(text: str) -> str:
    """``text`` with every card picture written as text instead (same cards, shorter)."""
    if not _markup_text or "<" not in text:
        return text
    return _MARKUP.sub(lambda m: _markup_text.get(m[0], m[0]), text)
