"""How tests read cards: the bot writes them as its emojis, tests compare text.

The test bot uploads its card pictures at start-up as on Discord, so every message it
sends writes cards as ``<:AS_1f3a:123…>``. The ``cards_as_text`` fixture (tests/conftest.py,
autouse) makes what SimCord hands to a test (``channel.history()``, a DM channel's
history, ``result.response.content`` and ``.embeds``, ``.followups``) read like a screen
reader would: each card emoji the application really has (same name AND id) becomes its
text form (``A♠``, ``🂠``), so assertions written against text keep their meaning. A
malformed or unknown emoji is left as markup, and such an assertion fails.

The raw markup stays in SimCord's store (``env.backend.messages``): the leak scan and the
tests of the picture form read it there (``raw_text``).
"""

from __future__ import annotations

import re
from collections import Counter
from copy import deepcopy
from typing import Any

import discord
import pytest

from bot.discord.card_emojis import key_of
from bot.ui.cards import BACK, card_text

MARKUP = re.compile(r"<(a?):([A-Za-z0-9_]{2,32}):(\d{1,20})>")


def markup_text(name: str) -> str | None:
    """The text form of the card an emoji name of ours stands for, else None."""
    key = key_of(name)
    if key is None:
        return None
    return card_text(None if key == BACK else key)


def readable(env: Any, text: str | None) -> str | None:
    """``text`` with the application's card emojis written as text."""
    if not text or "<" not in text:
        return text
    known = {e.id: e.name for e in env.backend.application_emojis.values()}

    def one(found: re.Match[str]) -> str:
        name, emoji_id = found[2], int(found[3])
        plain = markup_text(name) if known.get(emoji_id) == name and not found[1] else None
        return found[0] if plain is None else plain

    return MARKUP.sub(one, text)


def readable_embed(env: Any, data: dict[str, Any]) -> dict[str, Any]:
    """An embed payload with its cards as text (title, description, fields, footer)."""
    data = deepcopy(data)
    for key in ("title", "description"):
        if data.get(key):
            data[key] = readable(env, data[key])
    for field in data.get("fields") or []:
        field["name"] = readable(env, field.get("name"))
        field["value"] = readable(env, field.get("value"))
    if data.get("footer"):
        data["footer"]["text"] = readable(env, data["footer"].get("text"))
    return data


def readable_message(env: Any, message: discord.Message) -> discord.Message:
    """A ``discord.Message`` built by SimCord, its cards as text."""
    message.content = readable(env, message.content) or ""
    message.embeds = [
        discord.Embed.from_dict(readable_embed(env, e.to_dict())) for e in message.embeds
    ]
    return message


def raw_text(message: Any) -> str:
    """A stored SimCord message's content and embed text, markup untouched."""
    parts = [message.content or ""]
    for embed in message.embeds or []:
        parts += [str(embed.get("title") or ""), str(embed.get("description") or "")]
        for f in embed.get("fields") or []:
            parts += [str(f.get("name") or ""), str(f.get("value") or "")]
    return "\n".join(parts)


def install(monkeypatch: pytest.MonkeyPatch) -> None:
    """Make SimCord's read side show cards as text for this test."""
    from simcord import actors, builders, results

    original = results.to_discord_message

    def to_discord_message(env: Any, message: Any) -> discord.Message:
        return readable_message(env, original(env, message))

    for module in (results, actors, builders):
        monkeypatch.setattr(module, "to_discord_message", to_discord_message)
    response = results.ResponseMessage

    def content(self: Any) -> str:
        return readable(self._env, self._message.content) or ""

    def embeds(self: Any) -> list[discord.Embed]:
        return [discord.Embed.from_dict(readable_embed(self._env, e)) for e in self._message.embeds]

    monkeypatch.setattr(response, "content", property(content))
    monkeypatch.setattr(response, "embeds", property(embeds))


class CardsIn:
    """The cards a text shows, written either way (picture markup or text), for the
    leak scans: a card emoji counts by its name, whatever its id, so a renderer writing
    a hidden card with a wrong or stale id is still caught."""

    def __init__(self, text: str) -> None:
        self.pictures = Counter(key_of(m[2]) for m in MARKUP.finditer(text))
        self.plain = MARKUP.sub(" ", text)

    def count(self, code: str) -> int:
        """How many times the card ``code`` is shown."""
        return self.pictures[code] + self.plain.count(card_text(code))
