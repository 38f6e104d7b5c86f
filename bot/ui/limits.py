"""Discord's size limits, and fitting a message into them without cutting a card in two.

A card picture is written as emoji markup (``<:AS_1f3a:1234567890123456789>``, 30
characters against 2-3 for ``A♠``), so a long hand can push a message over a limit that
text never reached. Rules, from the cheapest to the last resort:

- a field value longer than 1,024 characters is split at line breaks into fields that
  follow it (their name is a zero-width space, so the seats read as one list);
- a text still too long (a content over 2,000, a description over 4,000, a single line
  over 1,024) is written with its cards as text (``bot.ui.cards.as_text``);
- an embed over 6,000 characters in all, or 25 fields, is written with text cards too;
- only then is anything cut.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import discord

from bot.ui.cards import as_text

CONTENT = 2000
DESCRIPTION = 4000  # Discord allows 4,096: a margin, as the renderers always kept
TITLE = 256
FIELD_NAME = 256
FIELD_VALUE = 1024
FIELDS = 25
FOOTER = 2048
TOTAL = 6000
CONTINUED = "\u200b"  # the name of a field that continues the one above


def cut(text: str, limit: int) -> str:
    """``text`` cut to ``limit`` characters, an ellipsis showing the cut."""
    return text if len(text) <= limit else text[: limit - 1] + "…"


def fit_text(text: str, limit: int) -> str:
    """``text`` if it fits, else with its cards as text, cut at ``limit`` as a last resort."""
    if len(text) <= limit:
        return text
    return as_text(text)[:limit]


def fit_content(text: str) -> str:
    """A message's content within 2,000 characters."""
    return fit_text(text, CONTENT)


def field_chunks(name: str, value: str) -> list[tuple[str, str]]:
    """One field, or several when its value is too long: split at line breaks."""
    value = value or "—"
    if len(value) <= FIELD_VALUE:
        return [(fit_text(name, FIELD_NAME), value)]
    chunks: list[str] = []
    current = ""
    for line in value.split("\n"):
        line = fit_text(line, FIELD_VALUE)
        if current and len(current) + 1 + len(line) > FIELD_VALUE:
            chunks.append(current)
            current = line
        else:
            current = f"{current}\n{line}" if current else line
    chunks.append(current)
    names = [fit_text(name, FIELD_NAME)] + [CONTINUED] * (len(chunks) - 1)
    return list(zip(names, chunks, strict=True))


def add_fields(embed: discord.Embed, fields: Iterable[tuple[str, str]]) -> None:
    """Add (name, value) fields, split where a value is too long (full width each)."""
    for name, value in fields:
        for chunk_name, chunk in field_chunks(name, value):
            embed.add_field(name=chunk_name, value=chunk, inline=False)


def _raw(embed: discord.Embed) -> tuple[list[dict[str, Any]], str, str]:
    """The embed's fields, footer text and author name as discord.py keeps them (its
    ``fields``, ``footer`` and ``author`` properties wrap each in a new proxy object: the
    table message is measured on every move)."""
    fields: list[dict[str, Any]] = getattr(embed, "_fields", None) or []
    footer = (getattr(embed, "_footer", None) or {}).get("text") or ""
    author = (getattr(embed, "_author", None) or {}).get("name") or ""
    return fields, str(footer), str(author)


def embed_size(embed: discord.Embed) -> int:
    """The characters Discord counts against an embed's 6,000."""
    fields, footer, author = _raw(embed)
    size = len(embed.title or "") + len(embed.description or "")
    size += sum(len(f.get("name") or "") + len(f.get("value") or "") for f in fields)
    return size + len(footer) + len(author)


def fits(embed: discord.Embed) -> bool:
    """Whether Discord accepts this embed as it is."""
    fields, footer, _author = _raw(embed)
    return (
        embed_size(embed) <= TOTAL
        and len(fields) <= FIELDS
        and len(embed.title or "") <= TITLE
        and len(embed.description or "") <= DESCRIPTION
        and len(footer) <= FOOTER
        and all(len(f.get("name") or "") <= FIELD_NAME for f in fields)
        and all(len(f.get("value") or "") <= FIELD_VALUE for f in fields)
    )


def fit_embed(embed: discord.Embed) -> discord.Embed:
    """The embed, or (too big) the same with its cards as text, then cut to the limits."""
    if fits(embed):
        return embed
    data = embed.to_dict()
    fields: list[tuple[str, str]] = []
    for f in data.pop("fields", []):
        if f["name"] == CONTINUED and fields:  # join a split field again: text is shorter
            fields[-1] = (fields[-1][0], f"{fields[-1][1]}\n{as_text(f['value'])}")
        else:
            fields.append((as_text(f["name"]), as_text(f["value"])))
    out = discord.Embed.from_dict(data)
    out.title = fit_text(as_text(out.title or ""), TITLE) or None
    out.description = fit_text(as_text(out.description or ""), DESCRIPTION) or None
    add_fields(out, fields[:FIELDS])
    while len(out.fields) > FIELDS:
        out.remove_field(FIELDS)
    while embed_size(out) > TOTAL and out.fields:
        out.remove_field(len(out.fields) - 1)
    return out
