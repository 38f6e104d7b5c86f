"""Tables on Discord: /table, the move commands and buttons, DMs, timers.

Cogs only validate, call the TableService, and render. The path of one move: the service
commits the action with its postings, then this cog edits the one table message (as the
interaction response when the move came from one of its buttons), sends private cards by
DM (ephemeral when DMs are closed), and posts round summaries.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any, Literal

import discord
from discord import app_commands
from discord.ext import commands, tasks

from bot.app import CroupierBot
from bot.bank import MAX_AMOUNT, Bank
from bot.engine.base import Action, ActionKind, Event, IllegalAction, Phase, Visibility
from bot.errors import NotAllowed, UserError, WrongChannel
from bot.tables import GAMES, Outcome, Table, TableError, TableService
from bot.tables.games import all_options
from bot.tables.models import FORUM, SETTINGS
from bot.tables.moves import build_action
from bot.ui.amounts import MAX_TYPED, parse_amount
from bot.ui.buttons import MoveButton, TableButtons, build_buttons
from bot.ui.edits import TableEdits
from bot.ui.errors import refusal_text
from bot.ui.limits import fit_content, fit_embed
from bot.ui.options import suggest, table_values_text
from bot.ui.render import Ctx, renderer_for
from bot.ui.translator import _, game_choices

log = logging.getLogger(__name__)

NO_PINGS = discord.AllowedMentions.none()
TIMER_TICK = 1.0  # the shortest sleep of the timer loop
MAX_SLEEP = 300.0  # the longest: the loop sleeps until the next timer, re-armed on changes
REPAIR_EVERY = 15.0  # seconds between two retries of table messages whose edit failed
GONE_CODES = {10003, 10008, 50001}  # Unknown Channel, Unknown Message, Missing Access


def now() -> float:
    """Seconds since the epoch on Discord's clock (SimCord's virtual clock in tests)."""
    return discord.utils.utcnow().timestamp()


class BetModal(discord.ui.Modal):
    """'Other amount': asks for a bet."""

    def __init__(self, cog: Tables, table_id: int, version: int, title: str, label: str) -> None:
        super().__init__(title=title, timeout=300)
        self.cog = cog
        self.table_id = table_id
        self.version = version
        self.amount: discord.ui.TextInput[BetModal] = discord.ui.TextInput(
            label=label, min_length=1, max_length=MAX_TYPED
        )
        self.add_item(self.amount)

    async def on_submit(self, interaction: discord.Interaction) -> None:
        """Bet the typed amount (ASCII digits, thousands grouped or not: ``parse_amount``)."""
        try:
            amount = parse_amount(self.amount.value)
        except UserError as exc:
            await self.cog.refuse(interaction, exc, await self.cog.bot.locale_for(interaction))
            return
        await self.cog.run_move(
            interaction,
            self.table_id,
            "bet",
            amount,
            seen_version=self.version,
            from_table_message=False,
        )


class Tables(commands.Cog):
    """The card tables."""

    def __init__(self, bot: CroupierBot) -> None:
        self.bot = bot
        self.service = TableService(bot.db, Bank(bot.db), clock=now, entropy=bot.entropy)
        bot.services["tables"] = self.service
        self._dm_warned: set[tuple[int, int]] = set()  # (table, user) told to use /hand
        self._restored = False
        # tables whose last render failed (5xx, 429...): re-rendered by the repair pass
        self._dirty: dict[int, Table] = {}
        self._last_repair = 0.0
        # REST edits of table messages: one at a time per table, bursts merged
        self.edits = TableEdits(self.edit_now)

    async def cog_load(self) -> None:
        """Register the persistent buttons, reload open tables, start the timer task."""
        self.bot.add_dynamic_items(MoveButton)
        await self.service.load_open_tables()
        self.timer_loop.start()

    async def cog_unload(self) -> None:
        """Stop the timer task and the merged edits (a restart renders every table)."""
        self.timer_loop.cancel()
        self.edits.close()

    # ================================================================ helpers

    async def locale(self, interaction: discord.Interaction) -> str:
        """The language to answer this user in."""
        return await self.bot.locale_for(interaction)

    def table_here(self, interaction: discord.Interaction) -> Table:
        """The open table of the channel or thread the command was used in."""
        table = self.service.table_in(interaction.channel_id or 0)
        if table is None:
            raise WrongChannel("table.error.no_table_here")
        return table

    async def refuse(
        self, interaction: discord.Interaction, exc: BaseException, locale: str
    ) -> None:
        """Answer a refusal ephemerally; re-raise anything that is not a refusal."""
        text = refusal_text(exc, locale)
        if text is None:
            raise exc
        if interaction.response.is_done():
            await interaction.followup.send(text, ephemeral=True)
        else:
            await interaction.response.send_message(text, ephemeral=True)

    def render(
        self, table: Table, note: str | None = None
    ) -> tuple[discord.Embed, TableButtons | None]:
        """The table message's embed and buttons, in the table's language."""
        ctx = Ctx(table, table.settings.locale, note=note)
        renderer = renderer_for(table.game_key)
        embed = fit_embed(renderer.embed(ctx))  # card pictures are long: stay within limits
        if not table.is_open:
            return embed, None
        return embed, build_buttons(table.id, table.version, renderer.buttons(ctx))

    async def edit_table_message(self, table: Table, note: str | None = None) -> None:
        """Edit the public table message to the table's current state."""
        if table.message_id is None:
            return
        embed, view = self.render(table, note)
        channel = self.bot.get_partial_messageable(table.channel_id, guild_id=table.guild_id)
        await channel.get_partial_message(table.message_id).edit(embed=embed, view=view)

    # ================================================================ outages and lost tables

    @staticmethod
    def is_gone(exc: discord.HTTPException) -> bool:
        """The table's thread or message no longer exists, or the bot lost access to it."""
        return isinstance(exc, (discord.NotFound, discord.Forbidden)) or exc.code in GONE_CODES

    async def refresh(self, table: Table, note: str | None = None) -> bool | None:
        """Edit the table message to the committed state by REST (``TableEdits``): True
        when it shows it, False when the edit failed, None when an edit of it is in flight
        and this one follows it, merged with any other asked for meanwhile."""
        return await self.edits.request(table, note)

    async def edit_now(self, table: Table, note: str | None = None) -> bool:
        """Edit the table message to the committed state; True when it shows it.

        The state is already committed, so a failure never undoes anything: a table whose
        thread or message is gone (404) or out of reach (403) is closed with refunds; any
        other failure (5xx, 429 after discord.py's retries) leaves the table dirty for the
        repair pass in the timer loop."""
        try:
            await self.edit_table_message(table, note)
        except discord.HTTPException as exc:
            self._dirty.pop(table.id, None)
            if self.is_gone(exc):
                log.warning("table %s: its message is gone (%s): closing it", table.id, exc)
                if table.is_open:
                    await self.close_gone(table)
                return False
            log.warning("table %s: the message edit failed (%s): retried later", table.id, exc)
            self._dirty[table.id] = table
            return False
        self._dirty.pop(table.id, None)
        return True

    async def close_gone(self, table: Table) -> None:
        """Close a table whose thread or message disappeared: the unfinished round's bets
        are refunded, the stacks become claims, and the bank channel gets an entry."""
        try:
            outcome = await self.service.close_table(table.id, None, "gone")
        except TableError:
            return  # closed meanwhile
        except Exception:
            log.exception("could not close the lost table %s", table.id)
            return
        await self.deliver_private(outcome, None, None)
        from bot.i18n import t

        text = t(
            "table.gone",
            table.settings.locale,
            game=GAMES[table.game_key].name(table.settings.locale),
            id=table.id,
        )
        await self.bank_channel_entry(table.guild_id, text, outcome)

    async def bank_channel_entry(self, guild_id: int, text: str, outcome: Outcome) -> None:
        """Write an entry in the guild's bank channel (cogs/bank.py's BankChannel service,
        ``bot.services["bank_channel"]``); only logged when there is none."""
        channel = self.bot.services.get("bank_channel")
        if channel is None:
            log.info("no bank channel service: %s", text)
            return
        try:
            await channel.announce(guild_id, text)
        except Exception:  # an announcement never breaks a table
            log.exception("bank channel entry failed")

    async def repair(self) -> None:
        """Re-render every table whose last render failed (called by the timer loop)."""
        for table in list(self._dirty.values()):
            await self.refresh(table)  # the live object: it holds the latest committed state

    async def reply(self, interaction: discord.Interaction, text: str) -> None:
        """An ephemeral answer that never raises (the action is already committed)."""
        try:
            if interaction.response.is_done():
                await interaction.followup.send(text, ephemeral=True)
            else:
                await interaction.response.send_message(text, ephemeral=True)
        except discord.HTTPException:
            log.warning("could not answer interaction %s", interaction.id, exc_info=True)

    # ================================================================ the path of a move

    async def run_move(
        self,
        interaction: discord.Interaction,
        table_id: int,
        move: str,
        arg: int | None = None,
        *,
        seen_version: int | None = None,
        from_table_message: bool = False,
        target: int | None = None,
    ) -> None:
        """Apply a move for the interaction's user and publish the result."""
        locale = await self.locale(interaction)
        user = interaction.user.id
        try:
            if move == "join":
                outcome = await self.service.join(table_id, user, arg, interaction.id)
            else:
                action = build_action(move, target if target is not None else user, arg)
                outcome = await self.service.act(
                    table_id,
                    user,
                    action,
                    interaction_id=interaction.id,
                    seen_version=seen_version,
                )
        except IllegalAction as exc:
            if exc.code == "forfeit_needs_confirmation":
                await self._confirm_leave(interaction, table_id, exc, locale)
                return
            if move == "join" and exc.code == "wrong_phase":
                exc = TableError("join_between_rounds")  # say when a seat can be taken
            await self.refuse(interaction, exc, locale)
            return
        except Exception as exc:  # refusals answered; bugs re-raised with a reference
            await self.refuse(interaction, exc, locale)
            return
        if outcome.replayed:
            await self.refuse(interaction, TableError("already_done"), locale)
            return
        await self.publish(
            outcome,
            interaction=interaction,
            locale=locale,
            from_table_message=from_table_message,
            move=move,
        )

    async def publish(
        self,
        outcome: Outcome,
        *,
        interaction: discord.Interaction | None = None,
        locale: str | None = None,
        from_table_message: bool = False,
        move: str | None = None,
    ) -> None:
        """After a commit: the table message, the interaction's answer, DMs, summaries."""
        table = outcome.table
        shown = False
        if interaction is not None and from_table_message and not interaction.response.is_done():
            embed, view = self.render(table)
            try:
                await interaction.response.edit_message(embed=embed, view=view)
                shown = True
                self._dirty.pop(table.id, None)
                self.edits.shown_by_interaction(table)
            except discord.HTTPException:  # committed anyway: edit by REST or repair later
                log.warning("table %s: the interaction edit failed", table.id, exc_info=True)
        if not shown:
            # an interaction still to answer (a slash command, or a click whose edit failed)
            asking = None if interaction is None or interaction.response.is_done() else interaction
            if asking is not None:  # answered first: "done" never waits for the table edit,
                # which a rate limit can hold back for seconds, past the interaction's 3 s
                key = self.game_key_or("move.done." + (move or "ok"), table.game_key)
                await self.reply(asking, self.bot_t(key, locale, fallback="move.done.ok"))
            shown = await self.refresh(table) is not False  # None: the next edit shows it
            # (a table whose message is gone is closed by then, and the bank channel says so)
            if asking is not None and not shown and table.is_open:
                text = self.bot_t("move.render_later", locale, fallback="move.done.ok")
                await self.reply(asking, text)
        self.rearm()  # a render that failed waits for the repair pass: wake up sooner
        # The player has their answer: let other tables' moves answer before this one's
        # DMs and announcements (it also lets SimCord see the move settle at once).
        await asyncio.sleep(0)
        await self.deliver_private(outcome, interaction, locale)
        await self.announce(outcome, actor=interaction.user.id if interaction else None)
        bank_channel = self.bot.services.get("bank_channel")
        if bank_channel is not None:  # own funds added and forfeits, in the bank channel
            await bank_channel.table_outcome(outcome)

    @staticmethod
    def game_key_or(key: str, game_key: str) -> str:
        """``<key>.<game>`` when the catalog has a game's own wording, else ``key``."""
        from bot.i18n import has

        return f"{key}.{game_key}" if has(f"{key}.{game_key}") else key

    def bot_t(self, key: str, locale: str | None, *, fallback: str, **params: Any) -> str:
        """Translate ``key``, or ``fallback`` when the catalog has no such key."""
        from bot.i18n import has, t

        return t(key if has(key) else fallback, locale, **params)

    async def deliver_private(
        self, outcome: Outcome, interaction: discord.Interaction | None, locale: str | None
    ) -> None:
        """Send each player their private events: one DM each, ephemeral if DMs fail."""
        table = outcome.table
        by_player: dict[int, list[Event]] = {}
        for event in outcome.events:
            if event.visibility is Visibility.PRIVATE and event.player is not None:
                by_player.setdefault(event.player, []).append(event)
        if not by_player:
            return
        renderer = renderer_for(table.game_key)
        prefs = self.bot.services.get("prefs")
        for player, events in by_player.items():
            # in the player's own language when they chose one, else the table's
            chosen = await prefs.locale(player) if prefs is not None else None
            ctx = Ctx(table, str(chosen) if chosen else table.settings.locale)
            lines = renderer.private_lines(ctx, events, player)
            if not lines:
                continue
            actor = interaction is not None and interaction.user.id == player
            await self.send_private(table, player, lines, interaction if actor else None, locale)

    async def send_private(
        self,
        table: Table,
        player: int,
        lines: list[str],
        interaction: discord.Interaction | None,
        locale: str | None,
    ) -> None:
        """DM a player; fall back to an ephemeral message, or a public '/hand' hint."""
        title = self.table_title(table)
        link = self.table_link(table)
        text = fit_content("\n".join([f"**{title}** {link}".strip(), *lines]))
        try:
            # create_dm answers from the cache once the DM channel is known: no user fetch
            dm = await self.bot.create_dm(discord.Object(player))
            await dm.send(text)
            return
        except discord.HTTPException:
            pass
        if interaction is not None:
            try:
                await interaction.followup.send(text, ephemeral=True)
                return
            except discord.HTTPException:
                log.warning("could not send private cards to %s in table %s", player, table.id)
        if (table.id, player) in self._dm_warned:
            return
        self._dm_warned.add((table.id, player))
        hint = self.bot_t(
            "private.dm_closed",
            table.settings.locale,
            fallback="private.dm_closed",
            player=f"<@{player}>",
        )
        channel = self.bot.get_partial_messageable(table.channel_id, guild_id=table.guild_id)
        try:
            await channel.send(
                hint, allowed_mentions=discord.AllowedMentions(users=[discord.Object(player)])
            )
        except discord.HTTPException:
            log.warning("could not post the /hand hint in table %s", table.id)

    def table_title(self, table: Table) -> str:
        """The game and the table's name."""
        name = GAMES[table.game_key].name(table.settings.locale)
        return f"{name} — {table.settings.name}" if table.settings.name else name

    @staticmethod
    def table_link(table: Table) -> str:
        """A link to the table message."""
        if table.message_id is None:
            return ""
        return (
            f"https://discord.com/channels/{table.guild_id}/{table.channel_id}/{table.message_id}"
        )

    async def announce(self, outcome: Outcome, actor: int | None = None) -> None:
        """Round summaries, revealed seeds and the end of the table as separate messages; a
        ping at forum pace for the player(s) whose turn it is (a new message: edits never
        ping)."""
        table = outcome.table
        ctx = Ctx(table, table.settings.locale)
        renderer = renderer_for(table.game_key)
        texts = renderer.public_posts(ctx, outcome.events)
        channel = self.bot.get_partial_messageable(table.channel_id, guild_id=table.guild_id)
        try:
            for text in texts:
                await channel.send(fit_content(text), allowed_mentions=NO_PINGS)
            pings = None
            if table.settings.pace == FORUM and table.is_open:
                pings = renderer.pings(ctx, outcome.events, actor)
            if pings is not None:
                text, users = pings
                if text and users:
                    await channel.send(
                        fit_content(text),
                        allowed_mentions=discord.AllowedMentions(
                            users=[discord.Object(u) for u in users]
                        ),
                    )
            elif table.settings.pace == FORUM and table.is_open:
                to_act = table.game.to_act
                if to_act is not None and any(e.kind == "turn" for e in outcome.events):
                    await channel.send(
                        ctx.t("table.your_turn", player=f"<@{to_act}>"),
                        allowed_mentions=discord.AllowedMentions(users=[discord.Object(to_act)]),
                    )
        except discord.HTTPException:
            log.warning("could not post announcements in table %s", table.id, exc_info=True)

    async def _confirm_leave(
        self, interaction: discord.Interaction, table_id: int, exc: IllegalAction, locale: str
    ) -> None:
        """Ask before a leave that forfeits the welcome stake."""
        from bot.ui.buttons import ButtonSpec

        text = refusal_text(exc, locale) or ""
        table = self.service.get(table_id)
        view = build_buttons(
            table_id,
            table.version,
            [
                ButtonSpec(
                    "leave_confirm",
                    self.bot_t("move.leave_confirm", locale, fallback="move.leave_confirm"),
                    discord.ButtonStyle.danger,
                )
            ],
        )
        if interaction.response.is_done():
            await interaction.followup.send(text, view=view, ephemeral=True)
        else:
            await interaction.response.send_message(text, view=view, ephemeral=True)

    # ================================================================ buttons

    async def on_move_button(
        self,
        interaction: discord.Interaction,
        table_id: int,
        version: int,
        move: str,
        arg: int | None,
    ) -> None:
        """A click on a move button (dispatched by MoveButton.callback)."""
        locale = await self.locale(interaction)
        try:
            table = self.service.get(table_id)
        except TableError as exc:
            await self.refuse(interaction, TableError("closed") if exc.code else exc, locale)
            return
        on_message = interaction.message is not None and interaction.message.id == table.message_id
        if move == "hand":
            await self._send_hand(interaction, table, locale)
            return
        if move == "bet_modal":
            title = self.bot_t("modal.bet.title", locale, fallback="modal.bet.title")
            label = self.bot_t("modal.bet.label", locale, fallback="modal.bet.label")
            await interaction.response.send_modal(BetModal(self, table_id, version, title, label))
            return
        await self.run_move(
            interaction, table_id, move, arg, seen_version=version, from_table_message=on_message
        )

    async def _send_hand(self, interaction: discord.Interaction, table: Table, locale: str) -> None:
        ctx = Ctx(table, locale)
        text = renderer_for(table.game_key).hand_text(ctx, interaction.user.id)
        await interaction.response.send_message(fit_content(text), ephemeral=True)

    # ================================================================ timers

    def rearm(self, *, after_tick: bool = False) -> None:
        """Make the timer loop wake up by the next due timer or repair pass (between
        TIMER_TICK and MAX_SLEEP from now). Called after each tick and each publish (every
        commit goes through one). A wake-up already planned sooner is kept: waking early is
        harmless (nothing is due, it re-arms), and most moves only push timers later, so
        they leave the loop's sleep alone. A 1 s tick would cost 86,400 wake-ups per forum
        day (and as many steps of SimCord's virtual clock)."""
        current = now()
        due = self.service.next_due()
        wait = MAX_SLEEP if due is None else due - current
        if self._dirty:  # a table waits for the repair pass
            wait = min(wait, self._last_repair + REPAIR_EVERY - current)
        target = current + max(TIMER_TICK, min(MAX_SLEEP, wait))
        loop = self.timer_loop
        planned = loop.next_iteration
        if planned is None:
            return  # not running (yet, or any more)
        if not after_tick and planned.timestamp() <= target:
            return
        # discord.py counts a relative loop's interval from the start of its last
        # iteration, not from now: that start is the planned wake-up minus the interval
        seconds = max(0.0, target - (planned.timestamp() - loop.seconds))
        if abs(seconds - loop.seconds) > 1e-3:
            loop.change_interval(seconds=seconds)

    @tasks.loop(seconds=TIMER_TICK)
    async def timer_loop(self) -> None:
        """Fire what is due, then sleep until the next timer (see :meth:`rearm`)."""
        try:
            await self._timer_tick()
        finally:
            self.rearm(after_tick=True)

    async def _timer_tick(self) -> None:
        """The one scheduler: fire the timers that are due, then publish their outcome.

        A discord.ext.tasks loop is what SimCord's virtual clock drives in tests."""
        service = self.service
        if self._dirty and now() - self._last_repair >= REPAIR_EVERY:
            self._last_repair = now()
            try:
                await self.repair()
            except Exception:
                log.exception("the repair pass failed")
        due = service.next_due()
        if due is None or due > now():
            return
        for table_id, kind, version in service.pop_due(now()):
            try:
                outcome = await service.fire(table_id, kind, version)
                if outcome is not None:
                    await self.publish(outcome)
            except Exception:
                log.exception("timer %s of table %s failed", kind, table_id)

    # ================================================================ restart

    @commands.Cog.listener()
    async def on_ready(self) -> None:
        """After a (re)start: re-render every open table with a short note."""
        if self._restored:
            return
        self._restored = True
        from bot.i18n import t

        for table in self.service.open_tables():
            try:
                if table.message_id is None:  # stopped between the commit and the message
                    await self.post_table_message(table)
                else:
                    await self.refresh(table, note=t("table.back", table.settings.locale))
            except Exception:
                log.exception("could not restore table %s", table.id)

    async def post_table_message(self, table: Table) -> None:
        """Post the table message of a table that has none (closing it if its thread is
        gone)."""
        embed, view = self.render(table)
        channel = self.bot.get_partial_messageable(table.channel_id, guild_id=table.guild_id)
        try:
            if view is None:
                message = await channel.send(embed=embed)
            else:
                message = await channel.send(embed=embed, view=view)
        except discord.HTTPException as exc:
            if self.is_gone(exc):
                await self.close_gone(table)
            return
        await self.service.set_message(table, message.id)

    # ================================================================ /table

    table = app_commands.Group(
        name="table", description=_("Card tables", "cmd.table.description"), guild_only=True
    )

    @table.command(name="open", description=_("Open a card table", "cmd.table_open.description"))
    @app_commands.describe(
        game=_("The game to play", "cmd.table_open.game"),
        options=_("Table options, e.g. decks=6 min_bet=10 pace=forum", "cmd.table_open.options"),
        name=_("The table's name", "cmd.table_open.name"),
        intro=_("Your intro for the table topic (the mini-RP)", "cmd.table_open.intro"),
        where=_("A text or forum channel for the table (default: here)", "cmd.table_open.where"),
        here=_("Play in this channel itself instead of a new thread", "cmd.table_open.here"),
    )
    @app_commands.choices(game=game_choices())
    async def table_open(
        self,
        interaction: discord.Interaction,
        game: str,
        options: str | None = None,
        name: app_commands.Range[str, 1, 80] | None = None,
        intro: app_commands.Range[str, 1, 1800] | None = None,
        where: discord.TextChannel | discord.ForumChannel | None = None,
        here: bool = False,
    ) -> None:
        """Open a table: a thread (text channel), a forum post (forum channel), or here."""
        locale = await self.locale(interaction)
        assert interaction.guild is not None
        from bot.i18n import normalize, t

        table_name = name or t("table.default_name", locale, user=interaction.user.display_name)
        try:
            settings, engine_options = self.service.parse(
                game, options, locale=normalize(locale), name=table_name
            )
        except Exception as exc:
            await self.refuse(interaction, exc, locale)
            return
        target: Any = where or interaction.channel
        await interaction.response.defer(ephemeral=True, thinking=True)
        created: discord.Thread | None = None
        try:
            if isinstance(target, discord.ForumChannel):
                content = intro or t(
                    "table.intro_default",
                    locale,
                    host=interaction.user.mention,
                    game=GAMES[game].name(locale),
                )
                post = await target.create_thread(
                    name=table_name, content=content, allowed_mentions=NO_PINGS
                )
                created = post.thread
                home: Any = created
            elif isinstance(target, discord.TextChannel) and not here:
                created = await target.create_thread(
                    name=table_name, type=discord.ChannelType.public_thread
                )
                home = created
                if intro:
                    await created.send(
                        t("table.intro_line", locale, host=interaction.user.mention, intro=intro),
                        allowed_mentions=NO_PINGS,
                    )
            else:
                home = target
        except discord.Forbidden as exc:
            raise UserError("table.error.bot_cannot_create_thread") from exc
        try:
            outcome = await self.service.open_table(
                guild_id=interaction.guild.id,
                channel_id=home.id,
                parent_id=getattr(home, "parent_id", None),
                game_key=game,
                host_id=interaction.user.id,
                settings=settings,
                options=engine_options,
            )
        except Exception as exc:
            if created is not None:
                try:
                    await created.delete()
                except discord.HTTPException:
                    log.warning("could not delete the thread of a refused table")
            await self.refuse(interaction, exc, locale)
            return
        table = outcome.table
        embed, view = self.render(table)
        message = await home.send(embed=embed, view=view)
        await self.service.set_message(table, message.id)
        await interaction.followup.send(
            t("table.opened", locale, where=home.mention), ephemeral=True
        )

    @table_open.autocomplete("options")
    async def table_open_options(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        """Suggest option names (default, allowed values, description) or the values of
        the option being typed, from the chosen game's declarations."""
        game = GAMES.get(str(getattr(interaction.namespace, "game", None) or ""))
        specs = all_options(game) if game is not None else SETTINGS
        locale = await self.locale(interaction)
        return [
            app_commands.Choice(name=label, value=value)
            for label, value in suggest(current or "", specs, locale)
        ]

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
        table = self.table_here(interaction)
        await self.run_move(interaction, table.id, "join", buy_in)

    @table.command(name="leave", description=_("Leave this table", "cmd.table_leave.description"))
    async def table_leave(self, interaction: discord.Interaction) -> None:
        """Leave: your stack becomes a claim at the bank."""
        await self.run_move(interaction, self.table_here(interaction).id, "leave")

    @table.command(
        name="start",
        description=_("Start the game or the next round", "cmd.table_start.description"),
    )
    async def table_start(self, interaction: discord.Interaction) -> None:
        """Start (host)."""
        await self.run_move(interaction, self.table_here(interaction).id, "start")

    @table.command(
        name="top-up",
        description=_("Bring more chips from your balance", "cmd.table_topup.description"),
    )
    async def table_top_up(
        self, interaction: discord.Interaction, amount: app_commands.Range[int, 1, MAX_AMOUNT]
    ) -> None:
        """Own funds to the table."""
        await self.run_move(interaction, self.table_here(interaction).id, "top_up", amount)

    @table.command(
        name="vote-stop", description=_("Vote to end the game", "cmd.table_votestop.description")
    )
    async def table_vote_stop(self, interaction: discord.Interaction) -> None:
        """Sept et demi: a majority ends the game."""
        await self.run_move(interaction, self.table_here(interaction).id, "vote_stop")

    def _is_manager(self, interaction: discord.Interaction, table: Table) -> bool:
        perms = getattr(interaction.user, "guild_permissions", None)
        host = getattr(table.game, "host", table.host_id)
        return interaction.user.id in (host, table.host_id) or bool(perms and perms.manage_guild)

    @table.command(
        name="close",
        description=_("Close this table (host or admin)", "cmd.table_close.description"),
    )
    async def table_close(self, interaction: discord.Interaction) -> None:
        """Close: bets of the unfinished round are refunded, stacks become claims."""
        table = self.table_here(interaction)
        if not self._is_manager(interaction, table):
            raise NotAllowed("table.error.not_host")
        outcome = await self.service.close_table(table.id, interaction.user.id, "host")
        await self.publish(
            outcome, interaction=interaction, locale=await self.locale(interaction), move="close"
        )

    @table.command(
        name="kick", description=_("Remove a player (host or admin)", "cmd.table_kick.description")
    )
    async def table_kick(self, interaction: discord.Interaction, player: discord.Member) -> None:
        """Make a player leave (between rounds)."""
        table = self.table_here(interaction)
        if not self._is_manager(interaction, table):
            raise NotAllowed("table.error.not_host")
        await self.run_move(interaction, table.id, "leave_confirm", target=player.id)

    @table.command(
        name="status", description=_("Show this table again", "cmd.table_status.description")
    )
    async def table_status(self, interaction: discord.Interaction) -> None:
        """The table's current state, ephemeral."""
        table = self.table_here(interaction)
        embed, _view = self.render(table)
        locale = await self.locale(interaction)
        from bot.i18n import t

        values = table_values_text(
            GAMES[table.game_key].options, table.game.options.to_dict(), table.settings
        )
        embed.add_field(
            name=t("rules.field.table_options", locale), value=values[:1024], inline=False
        )
        await interaction.response.send_message(embed=embed, ephemeral=True)

    # ================================================================ moves

    async def _slash_move(
        self, interaction: discord.Interaction, move: str, arg: int | None = None
    ) -> None:
        await self.run_move(interaction, self.table_here(interaction).id, move, arg)

    @app_commands.command(name="bet", description=_("Place your bet", "cmd.bet.description"))
    @app_commands.guild_only()
    async def bet(
        self, interaction: discord.Interaction, amount: app_commands.Range[int, 1, MAX_AMOUNT]
    ) -> None:
        """Bet an amount."""
        await self._slash_move(interaction, "bet", amount)

    @app_commands.command(name="hit", description=_("Carte ! One more card", "cmd.hit.description"))
    @app_commands.guild_only()
    async def hit(self, interaction: discord.Interaction) -> None:
        """One more card."""
        await self._slash_move(interaction, "hit")

    @app_commands.command(
        name="stand", description=_("Servi: stop drawing", "cmd.stand.description")
    )
    @app_commands.guild_only()
    async def stand(self, interaction: discord.Interaction) -> None:
        """Stand."""
        await self._slash_move(interaction, "stand")

    @app_commands.command(
        name="double", description=_("Double your bet, take one card", "cmd.double.description")
    )
    @app_commands.guild_only()
    async def double(self, interaction: discord.Interaction) -> None:
        """Double down."""
        await self._slash_move(interaction, "double")

    @app_commands.command(name="split", description=_("Split a pair", "cmd.split.description"))
    @app_commands.guild_only()
    async def split(self, interaction: discord.Interaction) -> None:
        """Split."""
        await self._slash_move(interaction, "split")

    @app_commands.command(
        name="insurance",
        description=_("Insure against a dealer Black Jack", "cmd.insurance.description"),
    )
    @app_commands.guild_only()
    async def insurance(self, interaction: discord.Interaction, take: bool = True) -> None:
        """Take (or decline) insurance."""
        await self._slash_move(interaction, "insurance" if take else "no_insurance")

    @app_commands.command(
        name="surrender",
        description=_("Give up the hand for half the bet", "cmd.surrender.description"),
    )
    @app_commands.guild_only()
    async def surrender(self, interaction: discord.Interaction) -> None:
        """Surrender."""
        await self._slash_move(interaction, "surrender")

    @app_commands.command(
        name="draw", description=_("Casino 21: draw several cards at once", "cmd.draw.description")
    )
    @app_commands.guild_only()
    async def draw(
        self, interaction: discord.Interaction, count: app_commands.Range[int, 0, 10]
    ) -> None:
        """Draw ``count`` cards (0 = stand)."""
        await self._slash_move(interaction, "draw", count)

    @app_commands.command(
        name="ace", description=_("Casino 21: value of your ace", "cmd.ace.description")
    )
    @app_commands.guild_only()
    async def ace(self, interaction: discord.Interaction, value: Literal[1, 11]) -> None:
        """Choose 1 or 11 for the ace just drawn."""
        await self._slash_move(interaction, "ace", value)

    @app_commands.command(
        name="end-turn", description=_("Casino 21: end the turn (host)", "cmd.endturn.description")
    )
    @app_commands.guild_only()
    async def end_turn(self, interaction: discord.Interaction) -> None:
        """The host ends the turn."""
        await self._slash_move(interaction, "end_turn")

    @app_commands.command(
        name="show", description=_("Sept et demi: show the new card", "cmd.show.description")
    )
    @app_commands.guild_only()
    async def show(self, interaction: discord.Interaction) -> None:
        """Show the new card."""
        await self._slash_move(interaction, "show")

    @app_commands.command(
        name="hide",
        description=_(
            "Sept et demi: hide the new card and show the hidden one", "cmd.hide.description"
        ),
    )
    @app_commands.guild_only()
    async def hide(self, interaction: discord.Interaction) -> None:
        """Swap: hide the new card."""
        await self._slash_move(interaction, "swap")

    @app_commands.command(
        name="hand",
        description=_("Your cards at this table (only you see it)", "cmd.hand.description"),
    )
    @app_commands.guild_only()
    async def hand(self, interaction: discord.Interaction) -> None:
        """Your private cards, ephemeral."""
        table = self.table_here(interaction)
        await self._send_hand(interaction, table, await self.locale(interaction))


async def setup(bot: CroupierBot) -> None:
    """Extension entry point."""
    await bot.add_cog(Tables(bot))


__all__ = ["Action", "ActionKind", "Phase", "Tables", "setup"]
