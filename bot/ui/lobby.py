"""The lobby's page on Discord (``/table list``): one line per table (name, game, where,
host, seats free, bets, phase), a **Join** button per table and Previous / Next. The
buttons are component JSON (``TableButtons``: no view stored, no double dispatch): their
custom ids route the clicks (``cogs/tables/listing.py``), after a restart too.

custom ids: ``crl:join:<table>`` and ``crl:page:<guild>:<page>:<game or *>``."""

from __future__ import annotations

from typing import Any

import discord

from bot.i18n import t
from bot.tables.games import GAMES
from bot.tables.listing import Entry, Page
from bot.ui.buttons import TableButtons
from bot.ui.limits import fit_embed

JOIN_TEMPLATE = r"crl:join:(?P<table>\d+)"
PAGE_TEMPLATE = r"crl:page:(?P<guild>\d+):(?P<page>\d+):(?P<game>[a-z0-9_]+|\*)"
ALL_GAMES = "*"
PER_ROW = 5


def join_id(table_id: int) -> str:
    """The custom id of a table's Join button in the lobby."""
    return f"crl:join:{table_id}"


def page_id(guild_id: int, page: int, game: str | None) -> str:
    """The custom id of a button that shows page ``page`` of the lobby."""
    return f"crl:page:{guild_id}:{page}:{game or ALL_GAMES}"


def _bets(e: Entry, locale: str) -> str:
    if e.bets is None:
        return t("lobby.no_bets", locale)
    low, high = e.bets
    if high is None:
        return t("lobby.bets_from", locale, low=low)
    return t("lobby.bets", locale, low=low, high=high)


def entry_line(n: int, e: Entry, locale: str) -> str:
    """One table of the page: ``n`` matches its Join button."""
    table = e.table
    name = discord.utils.escape_markdown(table.settings.name or GAMES[table.game_key].name(locale))
    key = "lobby.entry_private" if table.settings.private else "lobby.entry"
    return t(
        key,
        locale,
        n=n,
        name=name,
        game=GAMES[table.game_key].name(locale),
        where=f"<#{table.channel_id}>",
        host=f"<@{table.host_id}>",
        free=e.free,
        seats=e.seats,
        bets=_bets(e, locale),
        phase=t(f"phase.{e.phase.value}", locale),
    )


def _button(
    label: str, custom_id: str, *, style: int = 2, disabled: bool = False
) -> dict[str, Any]:
    return {"type": 2, "style": style, "label": label, "custom_id": custom_id, "disabled": disabled}


def lobby_page(
    page: Page, guild_id: int, game: str | None, viewer: int, locale: str
) -> tuple[discord.Embed, TableButtons]:
    """The embed and buttons of one lobby page, as ``viewer`` sees it (a full table's or
    their own seat's Join is greyed out)."""
    lines = [entry_line(i + 1, e, locale) for i, e in enumerate(page.entries)]
    title = t("lobby.title", locale)
    if game is not None:
        title += " · " + GAMES[game].name(locale)
    embed = discord.Embed(title=title, description="\n".join(lines))
    footer = t("lobby.footer", locale, page=page.number + 1, pages=page.pages, total=page.total)
    if any(e.table.settings.private for e in page.entries):
        footer += " · " + t("lobby.private_legend", locale)
    embed.set_footer(text=footer)
    joins = [
        _button(
            t("lobby.join", locale, n=i + 1),
            join_id(e.table.id),
            style=3,
            disabled=e.free == 0 or viewer in e.table.game.seated(),
        )
        for i, e in enumerate(page.entries)
    ]
    rows = [joins[i : i + PER_ROW] for i in range(0, len(joins), PER_ROW)]
    if page.pages > 1:
        rows.append(
            [
                _button(
                    t("lobby.previous", locale),
                    page_id(guild_id, max(0, page.number - 1), game),
                    disabled=page.number == 0,
                ),
                _button(
                    t("lobby.next", locale),
                    page_id(guild_id, min(page.pages - 1, page.number + 1), game),
                    disabled=page.number >= page.pages - 1,
                ),
            ]
        )
    return fit_embed(embed), TableButtons(rows)
