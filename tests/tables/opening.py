"""A table opened through the service as ``/table open`` opens it, for the service tests."""

from __future__ import annotations

from bot.tables import Table, TableService

GUILD, HOST = 1, 101


async def open_game(
    svc: TableService,
    game: str,
    text: str = "",
    *,
    channel: int = 500,
    players: tuple[int, ...] = (),
    buy_in: int | None = None,
) -> Table:
    """A table of ``game`` (options ``text``) opened by HOST in ``channel``, ``players``
    seated with ``buy_in`` (None: the table's default)."""
    settings, options = svc.parse(game, text, locale="en", name="t")
    out = await svc.open_table(
        guild_id=GUILD,
        channel_id=channel,
        parent_id=None,
        game_key=game,
        host_id=HOST,
        settings=settings,
        options=options,
    )
    for player in players:
        await svc.join(out.table.id, player, buy_in)
    return out.table
