"""``bot.ui.limits`` reads discord.py's Embed internals (its public properties build a proxy
object per read, on every move): pinned here against the public properties, so a
discord.py upgrade that renames them fails this test instead of measuring embeds as empty."""

from __future__ import annotations

import discord

from bot.ui import limits


def test_the_raw_parts_are_the_public_ones() -> None:
    embed = discord.Embed(title="t" * 10, description="d" * 20)
    embed.add_field(name="n" * 3, value="v" * 4000, inline=False)
    embed.add_field(name="m" * 5, value="w" * 7, inline=False)
    embed.set_footer(text="f" * 30)
    embed.set_author(name="a" * 40)
    fields, footer, author = limits._raw(embed)
    assert [(f["name"], f["value"]) for f in fields] == [(f.name, f.value) for f in embed.fields]
    assert (footer, author) == (embed.footer.text, embed.author.name)
    assert limits.embed_size(embed) == 10 + 20 + 3 + 4000 + 5 + 7 + 30 + 40
    embed.add_field(name="x", value="y" * 2000, inline=False)
    assert not limits.fits(embed)  # over 6,000 in all: read through the internals too


def test_an_embed_without_fields_footer_or_author_measures_its_text() -> None:
    embed = discord.Embed(title="t", description="d" * 4097)
    assert limits.embed_size(embed) == 4098
    assert not limits.fits(embed)  # the description alone is over 4,096
