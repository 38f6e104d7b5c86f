"""The bot object: start-up (database, migrations, services, cogs, command sync) and error
replies. The services are one typed object, :class:`Services`, built in ``setup_hook``;
cogs reach them through the bot's properties (``bot.tables`` is ``bot.services.tables``)."""

from __future__ import annotations

import asyncio
import dataclasses
import logging
import secrets
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.bank import Bank
from bot.bank.daily import DailyPay
from bot.config import Settings
from bot.db import Database, is_postgres, migrate, open_database, sqlite_path
from bot.db.backups import Backups, default_folder
from bot.db.check import check_open
from bot.db.lock import ProcessLock, claim
from bot.discord.answer import answer
from bot.discord.bank_channel import BankChannel
from bot.discord.card_emojis import CardEmojis
from bot.discord.publisher import Publisher
from bot.discord.scheduler import Scheduler, now
from bot.engine.shuffle import Entropy, secure_entropy
from bot.heap import settle_after_startup
from bot.i18n import t
from bot.prefs import Prefs
from bot.shards import layout_of
from bot.stats.service import StatsService
from bot.tables import Table, TableService
from bot.tables.client_seeds import ClientSeeds
from bot.ui.errors import refusal_text
from bot.ui.history import round_summaries
from bot.ui.translator import CroupierTranslator

log = logging.getLogger("croupier")

# Slash commands, buttons, modals and autocomplete arrive as interactions (no intent);
# DMs, threads and forum posts are REST calls. ``guilds`` keeps the guild and channel
# cache that interactions resolve ``interaction.guild``/``channel`` from (GUILD_CREATE,
# CHANNEL_*, THREAD_*). No message intent: a lost table message is noticed by the 404 of
# its next edit (bot/discord/publisher.py), not by MESSAGE_DELETE.
INTENTS = discord.Intents(guilds=True)


@dataclass(frozen=True, slots=True)
class Services:
    """What ``setup_hook`` builds once the database is open and migrated."""

    db: Database  # one database for everything, user-wide settings included
    bank: Bank  # the only code that moves money
    daily: DailyPay  # /bank daily (through the bank's ledger)
    seeds: ClientSeeds  # players' client seeds (/fairness)
    tables: TableService  # open tables: load, act, store
    prefs: Prefs  # users' reply language
    bank_channel: BankChannel  # each guild's bank channel
    publisher: Publisher  # the table messages, DMs and announcements
    scheduler: Scheduler  # deadlines and the repair pass
    card_emojis: CardEmojis  # the card pictures (started in setup_hook: needs the app id)
    stats: StatsService  # the players' statistics and charts


class CroupierBot(commands.Bot):
    """Croupier: the ``guilds`` intent only (see ``INTENTS``)."""

    def __init__(
        self,
        settings: Settings,
        *,
        sync_commands: bool = True,
        entropy: Entropy = secure_entropy,
        settle_heap: bool = False,
    ) -> None:
        self.layout = layout_of(settings)
        # the bot uses no voice: no warning that PyNaCl and davey are not installed
        discord.VoiceClient.warn_nacl = discord.VoiceClient.warn_dave = False
        shards: dict[str, Any] = {}
        if isinstance(self, discord.AutoShardedClient):
            shards = {"shard_ids": list(self.layout.shard_ids), "shard_count": settings.shard_count}
        super().__init__(
            command_prefix=commands.when_mentioned,
            intents=INTENTS,
            help_command=None,
            allowed_mentions=discord.AllowedMentions(everyone=False, roles=False),
            **shards,
        )
        self.settings = settings
        self.sync_commands = sync_commands
        self.entropy = entropy  # shuffle seeds; tests pass a deterministic one
        # the long-running process tunes the GC once its tables are loaded (bot/heap.py);
        # test processes start hundreds of bots and skip it
        self.settle_heap = settle_heap
        self._file_lock: ProcessLock | None = None
        self._services: Services | None = None  # built by setup_hook
        self._warm_up: asyncio.Task[int] | None = None  # see TableService.warm_up
        self.tree.error(self.on_app_command_error)

    async def setup_hook(self) -> None:
        """Open the database, migrate, build the services, load the cogs, sync commands."""
        url = self.settings.database_url
        if not is_postgres(url):  # one process per SQLite file
            self._file_lock = claim(sqlite_path(url))
        db = await open_database(url)
        try:
            await check_open(db)  # damaged, or newer than this code: refused
            applied = await migrate(db)
        except BaseException:
            await db.close()  # no services hold it yet: close() would not see it
            raise
        if applied:
            log.info("applied migrations: %s", ", ".join(applied))
        if self.layout.partial:
            log.info("shards %s of %d", self.layout.shard_ids, self.layout.shard_count)
        await self.start_services(db)
        await self.tree.set_translator(CroupierTranslator())
        from cogs import EXTENSIONS

        for name in EXTENSIONS:
            await self.load_extension(name)
        self.scheduler.start()
        await self.card_emojis.start()  # before on_ready re-renders the open tables
        if self.settle_heap:
            settle_after_startup()  # the open tables are loaded: keep them out of full GCs
        if self.sync_commands and self.layout.first:  # one process syncs for all
            await self._sync()

    async def start_services(self, db: Database) -> None:
        """The services on ``db`` (open and migrated), then the open tables loaded into
        memory; ``close()`` stops them and closes ``db``."""
        bank = Bank(db)
        daily = DailyPay(db, now)
        seeds = ClientSeeds(db, self.entropy)
        tables = TableService(
            db,
            bank,
            clock=now,
            entropy=self.entropy,
            shards=self.layout.table_filter(),
            seeds=seeds,
        )
        # other processes may change a user's language: PostgreSQL reads it every time
        prefs = Prefs(db, shared=db.dialect != "sqlite")
        bank_channel = BankChannel(self, db, self.settings.default_locale)
        publisher = Publisher(self, tables, prefs, bank_channel)
        scheduler = Scheduler(tables, publisher, self._backups(db))
        # shard 0 uploads the card pictures for all processes
        card_emojis = CardEmojis(self, upload=self.layout.first)
        stats = StatsService(db, clock=now)
        self._services = Services(
            db=db,
            bank=bank,
            daily=daily,
            seeds=seeds,
            tables=tables,
            prefs=prefs,
            bank_channel=bank_channel,
            publisher=publisher,
            scheduler=scheduler,
            card_emojis=card_emojis,
            stats=stats,
        )
        tables.wake = scheduler.rearm  # a table built at first use: its timers
        tables.summarize = round_summaries  # each settled round's text, in its history
        # a table another process wrote is re-rendered by the next repair pass
        tables.reloaded.append(self._rerender)
        await tables.load()  # each table is built at its first use, or after READY

    @property
    def services(self) -> Services:
        """The services (a RuntimeError before ``setup_hook`` built them)."""
        if self._services is None:
            raise RuntimeError("the bot's services are built in setup_hook")
        return self._services

    @property
    def has_services(self) -> bool:
        """Whether ``setup_hook`` built the services."""
        return self._services is not None

    @property
    def db(self) -> Database:
        """The one database."""
        return self.services.db

    @property
    def bank(self) -> Bank:
        """The bank."""
        return self.services.bank

    @property
    def tables(self) -> TableService:
        """The open tables."""
        return self.services.tables

    @property
    def prefs(self) -> Prefs:
        """Users' reply language."""
        return self.services.prefs

    @property
    def bank_channel(self) -> BankChannel:
        """Each guild's bank channel."""
        return self.services.bank_channel

    @property
    def publisher(self) -> Publisher:
        """The table messages, DMs and announcements."""
        return self.services.publisher

    @property
    def scheduler(self) -> Scheduler:
        """Deadlines and the repair pass."""
        return self.services.scheduler

    @property
    def card_emojis(self) -> CardEmojis:
        """The card pictures."""
        return self.services.card_emojis

    @property
    def stats(self) -> StatsService:
        """The players' statistics and charts."""
        return self.services.stats

    @property
    def daily(self) -> DailyPay:
        """/bank daily."""
        return self.services.daily

    @property
    def seeds(self) -> ClientSeeds:
        """The players' client seeds."""
        return self.services.seeds

    def _backups(self, db: Database) -> Backups | None:
        """The scheduled backups (BACKUP_EVERY; SQLite only: load_settings refuses it on
        PostgreSQL), or None."""
        every = self.settings.backup_every
        if every is None or db.dialect != "sqlite":
            return None
        folder = self.settings.backup_dir
        return Backups(
            db,
            every=every,
            keep=self.settings.backup_keep,
            folder=Path(folder) if folder else default_folder(db.path),
            start=now(),
        )

    def _rerender(self, table: Table) -> None:
        self.publisher.dirty[table.id] = table
        self.scheduler.rearm()

    async def on_ready(self) -> None:
        """After a (re)start: warm the open tables up in the background, and re-render
        every one once, with a short note."""
        if self._services is not None:
            if self._warm_up is None:
                self._warm_up = asyncio.create_task(self.tables.warm_up())
            await self.publisher.restore()

    async def _sync(self) -> None:
        guild_id = self.settings.dev_guild_id
        if guild_id is not None:
            guild = discord.Object(id=guild_id)
            self.tree.copy_global_to(guild=guild)
            synced = await self.tree.sync(guild=guild)
        else:
            synced = await self.tree.sync()
        log.info("synced %d application commands", len(synced))

    async def close(self) -> None:
        """Stop the services, then the gateway, then the database."""
        if self._warm_up is not None:
            self._warm_up.cancel()
        services = self._services
        if services is not None:
            await services.card_emojis.stop()
            services.scheduler.stop()
            services.publisher.close()
        await super().close()
        if services is not None:
            try:  # the next start then replays no action log (a crash would)
                await services.tables.save_snapshots()
            except Exception:
                log.exception("could not save the tables' snapshots (the log stays)")
            await services.db.close()
        if self._file_lock is not None:
            self._file_lock.release()
            self._file_lock = None

    async def locale_for(self, interaction: discord.Interaction) -> str:
        """The language to answer in: the user's choice, else Discord's locale (remembered
        for the DMs sent later with no interaction at hand), else the guild's default."""
        given = interaction.locale
        if self._services is not None:
            await self.prefs.seen(interaction.user.id, given)
            chosen = await self.prefs.locale(interaction.user.id)
            if chosen:
                return chosen
        return str(given) if given else self.settings.default_locale

    async def on_app_command_error(
        self, interaction: discord.Interaction, error: app_commands.AppCommandError
    ) -> None:
        """Answer UserErrors in the user's language; log anything else with a reference."""
        await self.on_interaction_error(interaction, error, interaction.command)

    async def on_interaction_error(
        self, interaction: discord.Interaction, error: BaseException, where: object
    ) -> None:
        """The one answer to an interaction that raised (slash commands, buttons, modals):
        a refusal in the user's language, else "Something went wrong" with a reference
        that the log line carries too."""
        original = getattr(error, "original", error)
        try:
            locale = await self.locale_for(interaction)
        except Exception:  # the database may be what failed: answer all the same
            locale = str(interaction.locale)
        refusal = refusal_text(original, locale)
        if refusal is not None:
            text = refusal
        elif isinstance(error, app_commands.MissingPermissions):
            text = t(
                "error.missing_permissions", locale, perms=", ".join(error.missing_permissions)
            )
        elif isinstance(error, app_commands.CommandOnCooldown):
            text = t("error.cooldown", locale, seconds=f"{error.retry_after:.0f}")
        else:
            ref = secrets.token_hex(4)
            log.error("unexpected error (ref %s) in %s", ref, where, exc_info=original)
            text = t("error.unexpected", locale, ref=ref)
        await answer(interaction, text)


class ShardedCroupierBot(CroupierBot, commands.AutoShardedBot):
    """A bot of ``SHARD_COUNT`` shards: it connects as the shards it serves (all of them,
    or ``SHARD_IDS`` with the other processes on the same PostgreSQL), so Discord sends it
    only their guilds' events (and shard 0 the DMs)."""


def create_bot(
    settings: Settings | None = None,
    *,
    database_url: str | None = None,
    database_path: str | None = None,
    sync_commands: bool = True,
    entropy: Entropy = secure_entropy,
    settle_heap: bool = False,
) -> CroupierBot:
    """Build a bot; tests pass ``database_url`` (an SQLite file or a postgresql:// URL;
    ``database_path`` is the same) to use a temporary database."""
    if settings is None:
        settings = Settings(token=None)
    url = database_url or database_path
    if url is not None:
        settings = dataclasses.replace(settings, database_url=url)
    cls = ShardedCroupierBot if settings.shard_count > 1 else CroupierBot
    return cls(settings, sync_commands=sync_commands, entropy=entropy, settle_heap=settle_heap)
