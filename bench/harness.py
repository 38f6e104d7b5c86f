"""The bot's own path without Discord: the real click handler (cogs/tables/moves.py), the
bot's services (TableService, Bank, Publisher...) and SQLite file, with a stubbed transport.

Interactions are small fakes carrying what the cog reads (id, user, message, locale). The
stubbed transport builds the same payload discord.py would send (``Embed.to_dict()`` and
``View.to_components()``) and stops there: no HTTP, no gateway, no discord.py dispatch.
"""

from __future__ import annotations

import itertools
import time
from pathlib import Path
from typing import Any

import discord

from bot.bank import Bank
from bot.db import Database, migrate, open_database
from bot.discord.bank_channel import BankChannel
from bot.discord.publisher import Publisher
from bot.discord.scheduler import now
from bot.engine.base import ActionKind
from bot.engine.registry import GAMES
from bot.engine.shuffle import seeded_entropy
from bot.prefs import Prefs
from bot.tables import TableService

GUILD = 1
_ids = itertools.count(10**15)


def payload(embed: Any = None, view: Any = None, content: str | None = None) -> dict[str, Any]:
    """What discord.py serialises before an HTTP call (the work the transport would do)."""
    out: dict[str, Any] = {}
    if content is not None:
        out["content"] = content
    if embed is not None:
        out["embeds"] = [embed.to_dict()]
    if view is not None:
        out["components"] = view.to_components()
    return out


class Transport:
    """Counts the calls the cog makes and when the interaction response was sent."""

    def __init__(self) -> None:
        self.calls = 0
        self.bytes = 0

    def send(self, **kwargs: Any) -> None:
        self.calls += 1
        body = payload(kwargs.get("embed"), kwargs.get("view"), kwargs.get("content"))
        self.bytes += len(discord.utils._to_json(body))  # as discord.py writes a body


class _Message:
    def __init__(self, transport: Transport, message_id: int) -> None:
        self.id = message_id
        self.transport = transport

    async def edit(self, **kwargs: Any) -> None:
        self.transport.send(**kwargs)


class _Channel:
    def __init__(self, transport: Transport, channel_id: int) -> None:
        self.id = channel_id
        self.transport = transport

    def get_partial_message(self, message_id: int) -> _Message:
        return _Message(self.transport, message_id)

    async def send(self, content: str | None = None, **kwargs: Any) -> _Message:
        self.transport.send(content=content, **kwargs)
        return _Message(self.transport, next(_ids))


class _User:
    def __init__(self, transport: Transport, user_id: int) -> None:
        self.id = user_id
        self.transport = transport

    async def send(self, content: str | None = None, **kwargs: Any) -> None:
        self.transport.send(content=content, **kwargs)


class StubBot:
    """What the table cogs use of the bot: its services, built as ``setup_hook`` does."""

    def __init__(self, db: Database, transport: Transport) -> None:
        self.db = db
        self.entropy = seeded_entropy("bench")
        self.transport = transport
        self.bank = Bank(db)
        self.tables = TableService(db, self.bank, clock=now, entropy=self.entropy)
        self.prefs = Prefs(db, shared=db.dialect != "sqlite")
        self.bank_channel = BankChannel(self, db)  # type: ignore[arg-type]
        self.publisher = Publisher(self, self.tables, self.prefs, self.bank_channel)  # type: ignore[arg-type]

    async def locale_for(self, interaction: Any) -> str:
        return "en"

    def get_partial_messageable(self, channel_id: int, **_: Any) -> _Channel:
        return _Channel(self.transport, channel_id)

    def get_user(self, user_id: int) -> _User:
        return _User(self.transport, user_id)

    async def fetch_user(self, user_id: int) -> _User:
        return _User(self.transport, user_id)

    async def create_dm(self, user: Any) -> _User:
        return _User(self.transport, user.id)

    def add_dynamic_items(self, *items: Any) -> None:
        pass


class _Response:
    def __init__(self, interaction: Interaction) -> None:
        self.interaction = interaction
        self.done = False

    def is_done(self) -> bool:
        return self.done

    def _sent(self, **kwargs: Any) -> None:
        self.interaction.transport.send(**kwargs)
        self.done = True
        self.interaction.responded_at = time.perf_counter()

    async def edit_message(self, **kwargs: Any) -> None:
        self._sent(**kwargs)

    async def send_message(self, content: str | None = None, **kwargs: Any) -> None:
        self._sent(content=content, **kwargs)

    async def send_modal(self, modal: Any) -> None:
        self._sent()

    async def defer(self, **kwargs: Any) -> None:
        self._sent()


class _Followup:
    def __init__(self, interaction: Interaction) -> None:
        self.interaction = interaction

    async def send(self, content: str | None = None, **kwargs: Any) -> None:
        self.interaction.transport.send(content=content, **kwargs)


class _Obj:
    def __init__(self, id: int) -> None:
        self.id = id


def snowflake() -> int:
    """A unique id shaped like Discord's (its timestamp is now, as an interaction's)."""
    return discord.utils.time_snowflake(discord.utils.utcnow()) + next(_ids) % (1 << 22)


class Interaction:
    """A button click (or slash command) as the cog sees it."""

    def __init__(
        self, transport: Transport, user_id: int, message_id: int | None, guild_id: int | None
    ) -> None:
        self.id = snowflake()
        self.guild_id = guild_id
        self.transport = transport
        self.user = _Obj(user_id)
        self.message = None if message_id is None else _Obj(message_id)
        self.channel_id = None
        self.locale = "en-US"
        self.response = _Response(self)
        self.followup = _Followup(self)
        self.responded_at: float | None = None


async def world(path: Path | str) -> tuple[Database, StubBot, Transport]:
    """A migrated database (an SQLite file or a postgresql:// URL), a stub bot with the
    real services, and its transport."""
    db = await open_database(str(path))
    await migrate(db)
    transport = Transport()
    return db, StubBot(db, transport), transport


async def click(
    bot: StubBot, interaction: Any, table_id: int, version: int, move: str, arg: Any
) -> None:
    """A click on a move button, as ``MoveButton.callback`` hands it over."""
    from cogs.tables.moves import on_click

    await on_click(bot, interaction, table_id, version, move, arg)  # type: ignore[arg-type]


async def open_tables(
    bot: StubBot,
    count: int,
    game: str,
    players: int,
    *,
    start: bool = True,
    first_channel: int = 1,
    guilds: int = 1,
    first_table: int = 0,
) -> list[Any]:
    """Open ``count`` tables of ``game`` with ``players`` players each (rich enough to play
    for a long time), give each a table message, and start them; the tables go round
    ``guilds`` servers (each with its own house account). ``first_table``: the number of
    this process's first table among several processes' (their servers and players)."""
    service = bot.tables
    bank: Bank = service.bank
    for g in range(GUILD, GUILD + guilds):
        await service.ensure_guild(g)
        # each table's float (bot/tables/floats.py) comes from its server's treasury
        await bank.mint(g, 20_000 * (count // guilds + 1))
    tables = []
    user = itertools.count(1000 + players * first_table)
    rich = rich_buy_in(game)
    for n in range(count):
        ids = [next(user) for _ in range(players)]
        guild = GUILD + (first_table + n) % guilds
        if rich:
            for pid in ids:
                await bank.mint(guild, 10**7, user_id=pid)
        settings, options = service.parse(game, None, locale="en", name=f"bench {n}")
        outcome = await service.open_table(
            guild_id=guild,
            channel_id=first_channel + n,
            parent_id=None,
            game_key=game,
            host_id=ids[0],
            settings=settings,
            options=options,
            buy_in=rich,
        )
        table = outcome.table
        for pid in ids[1:]:
            await service.join(table.id, pid, rich)
        await service.set_message(table, next(_ids))
        if start and ActionKind.START in table.game.legal_actions(table.game.host):
            await service.act(table.id, table.game.host, _start(table.game.host))
        tables.append(table)
    return tables


def rich_buy_in(game: str) -> int | None:
    """A buy-in that lasts the whole bench where players bring their own chips; None where
    the game sets what they bring (a fixed buy-in, a welcome stake, coins)."""
    spec = GAMES[game]
    terms = spec.build(0, {}, seeded_entropy("bench")).buy_in()
    if not spec.money or terms.fixed is not None or terms.welcome:
        return None
    return 10**6


def next_click(bot: StubBot, table: Any, strategy: Any, seats: list[int]) -> tuple[Any, str, Any]:
    """The simulated player's next click at ``table``: its interaction, move and argument
    (the host starts the next round when nobody has a move)."""
    move = strategy.next_move(table.game, seats) or (table.game.host, "start", None)
    player, name, arg = move
    return Interaction(bot.transport, player, table.message_id, table.guild_id), name, arg


def _start(host: int) -> Any:
    from bot.engine.base import Action

    return Action(ActionKind.START, host)
