"""A table opened through the service as ``/table open`` opens it, for the service tests."""

from __future__ import annotations

from bot.engine.base import Action, ActionKind
from bot.tables import Outcome, Table, TableService

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


WIN = ["TS", "9D", "QH", "8C"]  # the host 20, the dealer 17: the host wins at a stand


async def win_a_round(service: TableService, table_id: int, bet: int = 100) -> Outcome:
    """The host bets and wins at a stand; the outcome of the settling move."""
    service.get(table_id).game.rig(WIN)
    await service.act(table_id, HOST, Action(ActionKind.BET, HOST, amount=bet))
    return await service.act(table_id, HOST, Action(ActionKind.STAND, HOST))
