"""Opening and running a table: ``/table open|join|leave|start|top-up|vote-stop|close|
kick|status``, and ``list|invite|uninvite|history`` (``listing.py``, ``private.py``,
``past.py``)."""

from __future__ import annotations

import logging
from dataclasses import dataclass, replace
from typing import Any, Literal

import discord
from discord import app_commands
from discord.ext import commands

from bot.app import CroupierBot
from bot.bank import MAX_AMOUNT
from bot.discord import perms
from bot.discord.answer import refuse
from bot.discord.publisher import NO_PINGS, render
from bot.errors import NotAllowed, UserError
from bot.i18n import normalize, t
from bot.tables import GAMES, Table
from bot.tables.games import all_options
from bot.tables.models import SETTINGS, TableSettings
from bot.ui.limits import add_fields, fit_content, fit_embed
from bot.ui.options import suggest, table_values_text
from bot.ui.translator import _, game_choices

from . import listing, past
from . import private as private_tables
from .play import run_move, table_here
from .second_table import SecondTable, question

log = logging.getLogger(__name__)

# a new thread's auto-archive, in minutes: the longest Discord allows (no longer gated by
# boosts); a thread archives after that long without a message (edits do not count), and
# the publisher reopens it at the next edit
THREAD_ARCHIVE_MINUTES: Literal[10080] = 10080
# characters of /table open's ``options``: every option of a game written out takes ~280;
# Discord's client refuses more, so no refusal ever repeats thousands of them (issue 36)
OPTIONS_MAX = 500


@dataclass(frozen=True)
class Opening:
    """A table ``/table open`` checked: where it opens, its settings and options, how."""

    target: Any
    settings: TableSettings
    options: dict[str, Any]
    game: str
    name: str
    intro: str | None
    here: bool
    tags: list[discord.ForumTag]
    locale: str  # the host's language, for the answers
    private_thread: bool = False  # a private table in a private thread (private.py)


def is_manager(interaction: discord.Interaction, table: Table) -> bool:
    """The table's host (or the game's current host), or a member who manages the server."""
    perms = getattr(interaction.user, "guild_permissions", None)
    host = table.game.host
    return interaction.user.id in (host, table.host_id) or bool(perms and perms.manage_guild)


async def make_home(
    interaction: discord.Interaction,
    target: Any,
    *,
    game: str,
    name: str,
    intro: str | None,
    here: bool,
    locale: str,
    tags: list[discord.ForumTag],
    private_thread: bool = False,
) -> tuple[Any, discord.Thread | None]:
    """Where the table lives: a new forum post, a new thread, or the channel itself; the
    thread made for it (deleted again if the table is refused)."""
    try:
        if isinstance(target, discord.ForumChannel):
            content = intro or t(
                "table.intro_default",
                locale,
                host=interaction.user.mention,
                game=GAMES[game].name(locale),
            )
            post = await target.create_thread(
                name=name,
                content=fit_content(content),
                allowed_mentions=NO_PINGS,
                applied_tags=tags,
                auto_archive_duration=THREAD_ARCHIVE_MINUTES,
            )
            return post.thread, post.thread
        if isinstance(target, discord.TextChannel) and not here:
            if private_thread:  # only its members see it; the host is added at once
                thread = await target.create_thread(
                    name=name,
                    type=discord.ChannelType.private_thread,
                    auto_archive_duration=THREAD_ARCHIVE_MINUTES,
                    invitable=False,
                )
                await thread.add_user(interaction.user)
            else:
                thread = await target.create_thread(
                    name=name,
                    type=discord.ChannelType.public_thread,
                    auto_archive_duration=THREAD_ARCHIVE_MINUTES,
                )
            if intro:
                line = t("table.intro_line", locale, host=interaction.user.mention, intro=intro)
                await thread.send(fit_content(line), allowed_mentions=NO_PINGS)
            return thread, thread
    except discord.Forbidden as exc:
        raise UserError("table.error.bot_cannot_create_thread") from exc
    return target, None


def forum_tags(target: Any, tag: str | None) -> list[discord.ForumTag]:
    """The tag a new forum post gets: the host's pick (by name or id), else the forum's
    first when the forum requires one; refused when none fits."""
    if not isinstance(target, discord.ForumChannel):
        if tag:
            raise UserError("table.thread.tag_not_forum", tag=fit_quote(tag))
        return []
    available = list(target.available_tags)
    if tag:
        wanted = tag.strip().casefold()
        for forum_tag in available:
            if wanted in (forum_tag.name.casefold(), str(forum_tag.id)):
                return [forum_tag]
        names = ", ".join(f"`{known.name}`" for known in available) or "—"
        raise UserError(
            "table.thread.unknown_tag", tag=fit_quote(tag), where=target.mention, tags=names
        )
    if not target.flags.require_tag:
        return []
    if not available:
        raise UserError("table.thread.no_tag", where=target.mention)
    return available[:1]


def fit_quote(text: str, limit: int = 50) -> str:
    """A value the user typed, quoted back in a refusal, cut to ``limit`` characters."""
    return text if len(text) <= limit else text[: limit - 1] + "…"


def check_permissions(
    interaction: discord.Interaction, target: Any, here: bool, locale: str
) -> None:
    """Refuse to open a table where the bot could not keep it, or where the member could
    not have posted or started a thread by hand (a member may not use the bot to write
    where they may not)."""
    guild = interaction.guild
    if guild is None or not hasattr(target, "permissions_for"):
        return
    bot_needs, member_needs = perms.opening_needs(target, here)
    where = getattr(target, "mention", "")
    if bot_needs is perms.BOT_OPENS_THREAD:  # what the thread will grant, not the channel
        mine = perms.in_new_thread(target, guild.me)
    else:
        mine = target.permissions_for(guild.me)
    lacking = perms.missing(mine, bot_needs)
    if lacking:
        raise UserError("table.error.bot_missing", where=where, perms=perms.names(lacking, locale))
    member = interaction.user
    if isinstance(member, discord.Member):
        lacking = perms.missing(target.permissions_for(member), member_needs)
        if lacking:
            names = perms.names(lacking, locale)
            raise NotAllowed("table.error.member_missing", where=where, perms=names)


async def undo_home(created: discord.Thread | None, message: discord.Message | None) -> None:
    """A table that was not opened: delete the thread made for it, else its message."""
    try:
        if created is not None:
            await created.delete()
        elif message is not None:
            await message.delete()
    except discord.HTTPException:
        log.warning("could not delete the thread or message of a table not opened")


class Lobby(commands.Cog):
    """Opening, joining, leaving and closing tables."""

    def __init__(self, bot: CroupierBot) -> None:
        self.bot = bot

    async def cog_load(self) -> None:
        """Route the lobby's clicks (before and after a restart)."""
        self.bot.add_dynamic_items(listing.LobbyPage, listing.LobbyJoin)

    async def cog_unload(self) -> None:
        """Stop routing them."""
        self.bot.remove_dynamic_items(listing.LobbyPage, listing.LobbyJoin)

    @commands.Cog.listener()
    async def on_raw_thread_delete(self, payload: discord.RawThreadDeleteEvent) -> None:
        """A table's thread or forum post was deleted: close its table now (raw: the
        thread may be out of the cache)."""
        await self.bot.publisher.channel_deleted(payload.thread_id)

    @commands.Cog.listener()
    async def on_raw_thread_update(self, payload: discord.RawThreadUpdateEvent) -> None:
        """A thread changed (raw: it may be out of the cache): a table whose thread a
        moderator locked pauses, and resumes once it is unlocked; an open table's archived
        thread is reopened."""
        meta = payload.data.get("thread_metadata", {})
        await self.bot.publisher.thread_changed(
            payload.thread_id, archived=bool(meta.get("archived")), locked=bool(meta.get("locked"))
        )

    @commands.Cog.listener()
    async def on_guild_channel_delete(self, channel: discord.abc.GuildChannel) -> None:
        """A table's channel, or the channel its thread hangs from, was deleted."""
        await self.bot.publisher.channel_deleted(channel.id)

    table = app_commands.Group(
        name="table", description=_("Card tables", "cmd.table.description"), guild_only=True
    )

    async def _here(
        self, interaction: discord.Interaction, move: str, arg: int | None = None
    ) -> None:
        await run_move(self.bot, interaction, table_here(self.bot, interaction).id, move, arg)

    @table.command(name="open", description=_("Open a card table", "cmd.table_open.description"))
    @app_commands.describe(
        game=_("The game to play", "cmd.table_open.game"),
        options=_("Table options, e.g. decks=6 min_bet=10 pace=forum", "cmd.table_open.options"),
        name=_("The table's name", "cmd.table_open.name"),
        intro=_("Your intro for the table topic (the mini-RP)", "cmd.table_open.intro"),
        where=_("A text or forum channel for the table (default: here)", "cmd.table_open.where"),
        here=_("Play in this channel itself instead of a new thread", "cmd.table_open.here"),
        tag=_(
            "The forum post's tag (default: the forum's first, if it needs one)",
            "cmd.table_open.tag",
        ),
        private=_("Only the members you invite may sit (/table invite)", "cmd.table_open.private"),
    )
    @app_commands.choices(game=game_choices())
    async def table_open(
        self,
        interaction: discord.Interaction,
        game: str,
        options: app_commands.Range[str, 1, OPTIONS_MAX] | None = None,
        name: app_commands.Range[str, 1, 80] | None = None,
        intro: app_commands.Range[str, 1, 1800] | None = None,
        where: discord.TextChannel | discord.ForumChannel | None = None,
        here: bool = False,
        tag: app_commands.Range[str, 1, 100] | None = None,
        private: bool = False,
    ) -> None:
        """Open a table: a thread (text channel), a forum post (forum channel), or here."""
        locale = await self.bot.locale_for(interaction)
        assert interaction.guild is not None
        table_name = name or t("table.default_name", locale, user=interaction.user.display_name)
        try:
            settings, engine_options = self.bot.tables.parse(
                game, options, locale=normalize(locale), name=table_name
            )
        except Exception as exc:
            await refuse(interaction, exc, locale)
            return
        target = where or interaction.channel
        try:
            check_permissions(interaction, target, here, locale)
            tags = forum_tags(target, tag)
        except UserError as exc:
            await refuse(interaction, exc, locale)
            return
        settings = replace(settings, private=private)
        secret = private and not here and private_tables.thread_allowed(interaction, target)
        opening = Opening(
            target, settings, engine_options, game, table_name, intro, here, tags, locale, secret
        )
        mine = self.bot.tables.hosted_by(interaction.guild.id, interaction.user.id)
        if mine:  # asked first: a second table is rarely meant
            view = SecondTable(interaction, locale, lambda click: self.open_in(click, opening))
            text = question(mine, locale)
            await interaction.response.send_message(text, view=view, ephemeral=True)
            return
        await self.open_in(interaction, opening)

    async def open_in(self, interaction: discord.Interaction, opening: Opening) -> None:
        """Open the table ``/table open`` checked (``interaction``: the command's, or the
        click that confirmed a second table, answered already)."""
        assert interaction.guild is not None
        game, settings, engine_options = opening.game, opening.settings, opening.options
        locale = opening.locale
        if not interaction.response.is_done():
            await interaction.response.defer(ephemeral=True, thinking=True)
        self.bot.publisher.dms.retry(interaction.user.id)  # a new table: DMs tried again
        home, created = await make_home(
            interaction,
            opening.target,
            game=game,
            name=opening.name,
            intro=opening.intro,
            here=opening.here,
            locale=locale,
            tags=opening.tags,
            private_thread=opening.private_thread,
        )
        # all or nothing: the message first (a table is never stored without one), then
        # the table; if either fails, the thread made for it and the message go away
        message = None
        try:
            message = await self.bot.publisher.post_placeholder(home, game, locale)
            outcome = await self.bot.tables.open_table(
                guild_id=interaction.guild.id,
                channel_id=home.id,
                parent_id=getattr(home, "parent_id", None),
                game_key=game,
                host_id=interaction.user.id,
                settings=settings,
                options=engine_options,
                message_id=message.id,
            )
        except Exception as exc:
            await undo_home(created, message)
            if message is None and isinstance(exc, discord.HTTPException):
                log.warning("could not post a new table's message: %s", exc)
                exc = UserError("table.error.post_failed", error=exc.text or exc.status)
            await refuse(interaction, exc, locale)
            return
        await self.bot.publisher.refresh(outcome.table)  # a failure: the repair pass
        await self.bot.bank_channel.table_outcome(outcome)  # the float it drew
        opened = t("table.opened", locale, where=home.mention)
        if settings.private:  # who may sit, and how to let them
            opened += " " + t("table.opened_private", locale)
        opened = fit_content(opened)
        await interaction.followup.send(opened, ephemeral=True)

    @table_open.autocomplete("options")
    async def table_open_options(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        """Suggest option names (default, allowed values, description) or the values of
        the option being typed, from the chosen game's declarations."""
        game = GAMES.get(str(getattr(interaction.namespace, "game", None) or ""))
        specs = all_options(game) if game is not None else SETTINGS
        locale = await self.bot.locale_for(interaction)
        return [
            app_commands.Choice(name=label, value=value)
            for label, value in suggest(current or "", specs, locale)
        ]

    @table_open.autocomplete("tag")
    async def table_open_tag(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        """Suggest the tags of the forum the table would open in (``where``, else here)."""
        where = getattr(interaction.namespace, "where", None)
        channel_id = getattr(where, "id", None) or interaction.channel_id
        guild = interaction.guild
        forum = guild.get_channel(channel_id) if guild is not None and channel_id else None
        if not isinstance(forum, discord.ForumChannel):
            return []
        wanted = (current or "").casefold()
        return [
            app_commands.Choice(name=known.name, value=known.name)
            for known in forum.available_tags
            if wanted in known.name.casefold()
        ][:25]

    @table.command(
        name="join", description=_("Sit down at this table", "cmd.table_join.description")
    )
    @app_commands.describe(buy_in=_("Chips to bring from your balance", "cmd.table_join.buy_in"))
    async def table_join(
        self,
        interaction: discord.Interaction,
        buy_in: app_commands.Range[int, 1, MAX_AMOUNT] | None = None,
    ) -> None:
        """Take a seat."""
        await self._here(interaction, "join", buy_in)

    @table.command(name="leave", description=_("Leave this table", "cmd.table_leave.description"))
    async def table_leave(self, interaction: discord.Interaction) -> None:
        """Leave: your stack becomes a claim at the bank."""
        await self._here(interaction, "leave")

    @table.command(
        name="start",
        description=_("Start the game or the next round", "cmd.table_start.description"),
    )
    async def table_start(self, interaction: discord.Interaction) -> None:
        """Start (host)."""
        await self._here(interaction, "start")

    @table.command(
        name="top-up",
        description=_("Bring more chips from your balance", "cmd.table_topup.description"),
    )
    async def table_top_up(
        self, interaction: discord.Interaction, amount: app_commands.Range[int, 1, MAX_AMOUNT]
    ) -> None:
        """Own funds to the table."""
        await self._here(interaction, "top_up", amount)

    @table.command(
        name="vote-stop", description=_("Vote to end the game", "cmd.table_votestop.description")
    )
    async def table_vote_stop(self, interaction: discord.Interaction) -> None:
        """Sept et demi: a majority ends the game."""
        await self._here(interaction, "vote_stop")

    @table.command(
        name="close",
        description=_("Close this table (host or admin)", "cmd.table_close.description"),
    )
    async def table_close(self, interaction: discord.Interaction) -> None:
        """Close: bets of the unfinished round are refunded, stacks become claims."""
        table = table_here(self.bot, interaction)
        if not is_manager(interaction, table):
            raise NotAllowed("table.error.not_host")
        outcome = await self.bot.tables.close_table(table.id, interaction.user.id, "host")
        locale = await self.bot.locale_for(interaction)
        await self.bot.publisher.publish(
            outcome, interaction=interaction, locale=locale, move="close"
        )

    @table.command(
        name="kick", description=_("Remove a player (host or admin)", "cmd.table_kick.description")
    )
    async def table_kick(self, interaction: discord.Interaction, player: discord.Member) -> None:
        """Make a player leave (between rounds): the host reads whom they removed, the
        player is told by DM (else in the thread)."""
        table = table_here(self.bot, interaction)
        if not is_manager(interaction, table):
            raise NotAllowed("table.error.not_host")
        if player.id == interaction.user.id:  # oneself: a leave, answered as one
            await run_move(self.bot, interaction, table.id, "leave_confirm", target=player.id)
            return
        locale = await self.bot.locale_for(interaction)
        name = discord.utils.escape_markdown(player.display_name)
        done = t("table.kick.done", locale, player=name)
        outcome = await run_move(
            self.bot,
            interaction,
            table.id,
            "leave_confirm",
            target=player.id,
            locale=locale,
            answer=done,
        )
        if outcome is not None:
            await self.bot.publisher.tell_kicked(outcome, player.id, interaction.user.id)

    @table.command(
        name="status", description=_("Show this table again", "cmd.table_status.description")
    )
    async def table_status(self, interaction: discord.Interaction) -> None:
        """The table's current state, ephemeral."""
        table = table_here(self.bot, interaction)
        embed, _view = render(table, news=self.bot.publisher.news.get(table.id))
        locale = await self.bot.locale_for(interaction)
        values = table_values_text(GAMES[table.game_key].options, table.options(), table.settings)
        add_fields(embed, [(t("rules.field.table_options", locale), values)])
        await interaction.response.send_message(embed=fit_embed(embed), ephemeral=True)

    @table.command(
        name="list", description=_("The open tables of this server", "cmd.table_list.description")
    )
    @app_commands.describe(game=_("Only this game's tables", "cmd.table_list.game"))
    @app_commands.choices(game=game_choices())
    async def table_list(self, interaction: discord.Interaction, game: str | None = None) -> None:
        """The lobby: the open tables, with Join buttons, page by page (ephemeral)."""
        await listing.show_lobby(self.bot, interaction, game)

    @table.command(
        name="invite",
        description=_("Let a member sit at your private table", "cmd.table_invite.description"),
    )
    @app_commands.describe(member=_("The member to invite", "cmd.table_invite.member"))
    async def table_invite(self, interaction: discord.Interaction, member: discord.Member) -> None:
        """Invite a member to this private table (host)."""
        await private_tables.invite(self.bot, interaction, member)

    @table.command(
        name="uninvite",
        description=_("Take back an invitation to your table", "cmd.table_uninvite.description"),
    )
    @app_commands.describe(member=_("The member to uninvite", "cmd.table_uninvite.member"))
    async def table_uninvite(
        self, interaction: discord.Interaction, member: discord.Member
    ) -> None:
        """Take an invite back (host); a seated member keeps their seat."""
        await private_tables.uninvite(self.bot, interaction, member)

    @table.command(
        name="history",
        description=_(
            "The last rounds of this table, with their seeds", "cmd.table_history.description"
        ),
    )
    @app_commands.describe(rounds=_("How many rounds (default 5)", "cmd.table_history.rounds"))
    async def table_history(
        self,
        interaction: discord.Interaction,
        rounds: app_commands.Range[int, 1, 10] = past.ROUNDS,
    ) -> None:
        """The last settled rounds, their decks and ``/verify`` lines (ephemeral)."""
        await past.show_history(self.bot, interaction, rounds)


async def setup(bot: CroupierBot) -> None:
    """Extension entry point."""
    await bot.add_cog(Lobby(bot))
