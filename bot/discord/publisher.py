"""The table messages on Discord: what a committed outcome shows, and to whom.

After the table service commits a move, :meth:`Publisher.publish` edits the one public
table message (as the interaction's response when the move came from its buttons, else by
REST through :class:`~bot.discord.edits.TableEdits`, bursts merged), answers the interaction,
sends private cards (the actor's in their interaction's answer, the others' by DM through
:class:`~bot.discord.dms.DirectMessages`), posts the round summaries,
revealed seeds and forum pings, and the bank channel's news. A table whose REST edit
failed waits for the repair pass (run by the scheduler); a table whose thread or message
is gone (404) is closed with refunds; one the bot may no longer reach (403) stays open,
retried with backoff, and its host is told once which permission is missing.
"""

from __future__ import annotations

import asyncio
import logging
import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import discord

from bot.discord import perms
from bot.discord.answer import answer as reply  # the one answer (its ``answer`` is a text here)
from bot.discord.bank_channel import BankChannel
from bot.discord.dms import DirectMessages
from bot.discord.edits import TableEdits
from bot.engine.base import ROUND_SETTLED, Event, Visibility
from bot.engine.events import ROUND_REFUNDED, ROUND_STARTED, MoneyKind
from bot.i18n import t
from bot.prefs import Prefs
from bot.tables import GAMES, Outcome, Table, TableError, TableService
from bot.tables.models import FORUM
from bot.ui.buttons import TableButtons
from bot.ui.limits import CONTENT, fit_content, fit_embed
from bot.ui.render import Ctx, renderer_for
from bot.ui.render import cache as render_cache
from bot.ui.render.bank import amount
from bot.ui.wording import game_key_or, t_or

log = logging.getLogger(__name__)

NO_PINGS = discord.AllowedMentions.none()
GONE_CODES = {10003, 10008}  # Unknown Channel, Unknown Message
UNKNOWN_MESSAGE = 10008  # the thread or channel may still be there: post the message again
THREAD_ARCHIVED = 50083  # an edit in an archived thread: reopen it (unless locked), edit again
# The bot asks for no message intent (issue 27), so no MESSAGE_DELETE reaches it: a table
# message deleted while its table stands still is found by fetching it. Each table message
# not seen (edited, posted) for MESSAGE_CHECK_AGE is fetched once, a share of them per
# sweep: about one GET per idle table per hour (0.3 requests/s at 1,000 idle tables).
MESSAGE_CHECK_AGE = 3600.0
# seconds before the next try of a table message whose edit keeps failing (5xx, 429 past
# discord.py's retries, a 403 while the bot lacks access, a locked thread), by failures so
# far: an admin's role change can take minutes, a channel locked on purpose days, and each
# refused call counts toward Discord's 10,000 invalid requests per 10 minutes
REPAIR_BACKOFF = (0.0, 15.0, 30.0, 60.0, 120.0, 300.0, 600.0)
NEWS_KEPT = 3  # changes the table message says at once (older ones are in the thread)


@dataclass(slots=True)
class _Roll:
    """A round's end: the old table message, the summary it becomes, what did not fit."""

    old: int  # the old table message's id
    summary: str
    rest: list[str]  # the summaries and seeds that did not fit, posted before the table
    in_flight: asyncio.Event | None  # a REST edit of the old message in flight: its end
    edited: bool = False  # the click's response made the old message the summary


class EmbedsDropped(Exception):
    """Discord made the edit but dropped its embed: the bot lacks Embed Links there."""


def is_gone(exc: discord.HTTPException) -> bool:
    """The table's thread or message no longer exists (a 403 only means no access now)."""
    return exc.code in GONE_CODES or (isinstance(exc, discord.NotFound) and exc.code == 0)


def clock() -> float:
    """Seconds since the epoch on Discord's clock (SimCord's virtual clock in tests)."""
    return discord.utils.utcnow().timestamp()


def render(
    table: Table,
    note: str | None = None,
    closing: list[Event] | None = None,
    news: list[str] | None = None,
) -> tuple[discord.Embed, TableButtons | None]:
    """The table message's embed and buttons, in the table's language (``news``: the
    latest changes, under its status line); a closed table's says so, with its standings
    (from ``closing``, the events that closed it), and has no buttons."""
    locale = table.settings.locale
    renderer = renderer_for(table.game_key)
    if not table.is_open:
        table.render_cache = None  # nothing to draw from any more
        ctx = Ctx(table, locale, note=note)
        return fit_embed(renderer.closed_embed(ctx, closing or [])), None
    # the buttons drawn again only when they changed (issue 27)
    ctx = Ctx(table, locale, note=note, news=tuple(news or ()), cached=render_cache.ENABLED)
    embed = fit_embed(renderer.embed(ctx))  # card pictures are long: stay within limits
    rows = renderer.button_rows(ctx)
    return embed, None if rows is None else rows.build(table.id, table.version)


def table_title(table: Table) -> str:
    """The game and the table's name."""
    name = GAMES[table.game_key].name(table.settings.locale)
    return f"{name} — {table.settings.name}" if table.settings.name else name


def table_link(table: Table) -> str:
    """A link to the table message."""
    if table.message_id is None:
        return ""
    return f"https://discord.com/channels/{table.guild_id}/{table.channel_id}/{table.message_id}"


class Publisher:
    """Owns the table messages and their edits, the DMs and the announcements."""

    def __init__(
        self, client: discord.Client, tables: TableService, prefs: Prefs, bank: BankChannel
    ) -> None:
        self.client = client
        self.tables = tables
        self.prefs = prefs
        self.bank_channel = bank
        # tables whose last render failed (5xx, 429, 403...): re-rendered by the repair pass
        self.dirty: dict[int, Table] = {}
        # tables whose repair keeps failing: (failures, next try), the log told once
        self.backoff: dict[int, tuple[int, float]] = {}
        self.blocked: set[int] = set()  # tables the bot may not reach (403): host told
        self.locked: set[int] = set()  # tables whose thread a moderator locked: paused
        self.rolling: set[int] = set()  # tables whose next round's message is being posted
        # called after each publish: the scheduler sets it (a failed render wakes it sooner)
        self.wake: Callable[[], None] = lambda: None
        self.edits = TableEdits(self.edit_now)  # REST edits: one per table, bursts merged
        self.dms = DirectMessages(client)  # each player's DM channel, closed DMs
        self._dm_warned: set[tuple[int, int]] = set()  # (table, user) told to use /hand
        # the events that closed a table, until its message shows them (its standings)
        self._closing: dict[int, list[Event]] = {}
        # table -> the latest changes its message says (seats, timers...), until a new round
        self.news: dict[int, list[str]] = {}
        self.seen_at: dict[int, float] = {}  # table -> when its message was last seen there
        self.restored = False

    def channel(self, table: Table) -> discord.PartialMessageable:
        """The table's thread or channel, without a fetch."""
        return self.client.get_partial_messageable(table.channel_id, guild_id=table.guild_id)

    def close(self) -> None:
        """Drop the merged edits still going out (a restart renders every table)."""
        self.edits.close()

    # ================================================================ the table message

    async def edit_table_message(self, table: Table, note: str | None = None) -> None:
        """Edit the public table message to the table's current state."""
        if table.message_id is None:
            return
        closing, news = self._closing.get(table.id), self.news.get(table.id)
        embed, view = render(table, self.note(table, note), closing, news)
        partial = self.channel(table).get_partial_message(table.message_id)
        message = await partial.edit(embed=embed, view=view)
        if not message.embeds:
            raise EmbedsDropped
        self._closing.pop(table.id, None)

    async def refresh(self, table: Table, note: str | None = None) -> bool | None:
        """Edit the table message to the committed state by REST: True when it shows it,
        False when the edit failed, None when an edit of it is in flight and this one
        follows it, merged with any other asked for meanwhile."""
        return await self.edits.request(table, note)

    async def edit_now(self, table: Table, note: str | None = None) -> bool:
        """Edit the table message to the committed state; True when it shows it.

        The state is already committed, so a failure never undoes anything: an archived
        thread is reopened and the edit made again; a table whose message is gone is
        posted again, one whose thread is gone is closed with refunds; any other failure
        (403, 5xx, 429 after discord.py's retries, a locked thread) leaves the table dirty
        for the repair pass."""
        if table.message_id is None:  # its post failed: the repair pass posts it; or the
            # next round's is being posted, which shows the latest state
            if table.id not in self.rolling and table.is_open:
                self.dirty[table.id] = table
                return False
            return True
        try:
            try:
                await self.edit_table_message(table, note)
            except discord.HTTPException as exc:
                if exc.code != THREAD_ARCHIVED or not await self.unarchive(table):
                    raise
                await self.edit_table_message(table, note)  # in the reopened thread
                if not table.is_open:  # a finished table's thread goes back to the archive
                    await self.archive(table)
        except discord.HTTPException as exc:
            return await self.failed(table, exc)  # True: posted again
        except EmbedsDropped:  # the table would show an empty message: as a 403
            lacking = ["embed_links"]  # what the cache says, else this one for sure
            await self.retry_later(table, "embed dropped", blocked=True, error="", lacking=lacking)
            return False
        self.shown(table)
        return True

    def thread_of(self, table: Table) -> discord.Thread | None:
        """The table's thread, from the cache (None: not a thread, or not cached)."""
        thread = self.client.get_channel(table.channel_id)
        return thread if isinstance(thread, discord.Thread) else None

    async def unarchive(self, table: Table) -> bool:
        """Reopen the table's archived thread (Discord archives a thread after its
        auto-archive duration without a message; edits are no activity). False when it
        is locked: a moderator's lock stays, the table is paused meanwhile."""
        thread = self.thread_of(table)
        if thread is None:
            fetched = await self.client.fetch_channel(table.channel_id)
            thread = fetched if isinstance(fetched, discord.Thread) else None
        if thread is None:
            return False
        if thread.locked:
            self.lock(table)
            return False
        await thread.edit(archived=False)
        log.info("table %s: its thread %s was archived: reopened", table.id, thread.id)
        return True

    async def archive(self, table: Table) -> None:
        """Archive a finished table's thread (read-only history, out of the active list)
        when the bot made it for the table (not a thread a member made, where a table was
        opened with ``here``) and no other table lives there."""
        thread = self.thread_of(table)
        me = self.client.user
        if thread is None or me is None or thread.owner_id != me.id or thread.archived:
            return
        if self.tables.table_in(thread.id) is not None:
            return
        try:
            await thread.edit(archived=True)
        except discord.HTTPException as exc:
            log.warning("table %s: could not archive its thread (%s)", table.id, exc)

    def lock(self, table: Table) -> None:
        """A moderator locked the table's thread: pause its timers."""
        if table.id not in self.locked:
            self.locked.add(table.id)
            self.tables.pause(table.id)
            log.info("table %s: its thread is locked: paused", table.id)

    def note(self, table: Table, note: str | None) -> str | None:
        """The note under the table: a locked thread's, while it lasts, else ``note``."""
        if table.id in self.locked and table.is_open:
            return t("table.thread.locked", table.settings.locale)
        return note

    async def thread_changed(self, thread_id: int, *, archived: bool, locked: bool) -> None:
        """A thread was updated (THREAD_UPDATE): a table in a thread a moderator locked
        says so and pauses its timers; unlocked, it resumes (its timers start again). An
        open table's thread Discord archived is reopened at once: players cannot use
        commands in an archived thread."""
        table = self.tables.table_in(thread_id)
        if table is None or not table.is_open:
            return
        if locked and table.id not in self.locked:
            self.lock(table)
            await self.refresh(table)  # with the locked thread's note
        elif not locked and table.id in self.locked:
            self.locked.discard(table.id)
            self.tables.resume(table.id)
            log.info("table %s: its thread is unlocked: resumed", table.id)
            self.backoff.pop(table.id, None)  # try at once
            await self.refresh(table)  # reopens it if it is still archived
            self.wake()
        elif archived and not locked:
            try:
                await self.client.http.edit_channel(thread_id, archived=False)
            except discord.HTTPException as exc:  # the next edit tries again (50083)
                log.warning("table %s: could not reopen its thread (%s)", table.id, exc)
            else:
                log.info("table %s: its thread was archived: reopened", table.id)

    async def failed(self, table: Table, exc: discord.HTTPException) -> bool:
        """A table message could not be posted or edited: post it again if only the
        message is gone, close the table if its thread or channel is, else keep it dirty
        for the repair pass, with backoff, logged once. True when posted again."""
        self.dirty.pop(table.id, None)
        if is_gone(exc):
            if exc.code == UNKNOWN_MESSAGE and table.id in self.rolling:
                return False  # the old message, gone: the new one is being posted
            if exc.code == UNKNOWN_MESSAGE and table.is_open and table.message_id is not None:
                log.warning("table %s: its message is gone: posted again", table.id)
                table.message_id = None  # the repair pass posts it if this post fails
                return await self.post_table_message(table)
            log.warning("table %s: its thread is gone (%s): closing it", table.id, exc)
            self.backoff.pop(table.id, None)
            self.blocked.discard(table.id)
            if table.is_open:
                await self.close_gone(table)
            return False
        forbidden = isinstance(exc, discord.Forbidden)
        await self.retry_later(table, exc, blocked=forbidden, error=exc.text or str(exc.status))
        return False

    async def retry_later(
        self,
        table: Table,
        reason: object,
        *,
        blocked: bool,
        error: str,
        lacking: list[str] | None = None,
    ) -> None:
        """Keep a table dirty for the repair pass, with backoff, logged once; the host of
        one the bot may not reach is told once."""
        self.dirty[table.id] = table
        before = self.backoff.get(table.id)
        failures = 0 if before is None else before[0] + 1
        delay = REPAIR_BACKOFF[min(failures, len(REPAIR_BACKOFF) - 1)]
        self.backoff[table.id] = (failures, clock() + delay)
        if before is None:
            log.warning("table %s: the message edit failed (%s): retried later", table.id, reason)
        else:
            log.debug("table %s: failed again (%s): next try in %s s", table.id, reason, delay)
        if blocked and table.id not in self.blocked:
            self.blocked.add(table.id)
            await self.tell_host_blocked(table, error, lacking)

    def shown(self, table: Table) -> None:
        """The table message shows the committed state: nothing left to repair."""
        self.dirty.pop(table.id, None)
        self.backoff.pop(table.id, None)
        self.blocked.discard(table.id)
        self.seen_at[table.id] = clock()

    async def sweep(self, every: float) -> None:
        """Fetch the table messages not seen for MESSAGE_CHECK_AGE (the share due in one
        sweep run ``every`` seconds) and close the tables whose message or thread is gone."""
        current = clock()
        tables = [t for t in self.tables.open_tables() if t.message_id is not None]
        due = [
            t
            for t in tables
            if t.id not in self.dirty and current - self.seen_at.get(t.id, 0.0) >= MESSAGE_CHECK_AGE
        ]
        due.sort(key=lambda t: self.seen_at.get(t.id, 0.0))
        share = max(1, math.ceil(len(tables) * every / MESSAGE_CHECK_AGE))
        for table in due[:share]:
            assert table.message_id is not None
            try:
                await self.channel(table).fetch_message(table.message_id)
            except discord.HTTPException as exc:
                if is_gone(exc) and table.is_open:  # posted again, or closed: its thread
                    await self.failed(table, exc)
                    continue
            self.seen_at[table.id] = current  # there, or not readable now: again in an hour

    async def repair(self) -> None:
        """Re-render every table whose last render failed (a blocked one when its backoff
        is over)."""
        current = clock()
        for table in list(self.dirty.values()):
            backoff = self.backoff.get(table.id)
            if backoff is not None and backoff[1] > current:
                continue
            if table.id in self.rolling:  # its new message is being posted
                continue
            if table.message_id is None:
                await self.post_table_message(table)
            else:  # the live object: it holds the latest committed state
                await self.refresh(table)

    async def tell_host_blocked(
        self, table: Table, error: str, known: list[str] | None = None
    ) -> None:
        """Tell the table's host by DM, in their language, what the bot lacks there (from
        the cache, else ``known``; else Discord's ``error``)."""
        host = table.game.host or table.host_id
        default = (await self.bank_channel.prefs(table.guild_id)).locale
        locale = await self.prefs.reader_locale(host, default)  # a DM: the reader's
        game = GAMES[table.game_key].name(locale)
        where = f"<#{table.channel_id}>"
        lacking = self.missing_permissions(table) or known
        if lacking:
            text = t(
                "table.blocked_host",
                locale,
                game=game,
                where=where,
                perms=perms.names(lacking, locale),
            )
        else:
            text = t("table.blocked_host_unknown", locale, game=game, where=where, error=error)
        if not await self.dms.send(host, text):
            log.warning("table %s: could not tell its host %s it is blocked", table.id, host)

    def missing_permissions(self, table: Table) -> list[str] | None:
        """What the bot lacks in the table's thread or channel (None: not in the cache)."""
        channel = self.client.get_channel(table.channel_id)
        if channel is None and table.parent_id is not None:  # a thread out of the cache
            parent = self.client.get_channel(table.parent_id)
            if isinstance(parent, discord.abc.GuildChannel):
                me = parent.guild.me
                return perms.missing(parent.permissions_for(me), perms.POST_IN_THREAD)
        return perms.bot_missing_in(channel)

    async def post_placeholder(self, home: Any, game_key: str, locale: str) -> discord.Message:
        """A new table's message before the table exists ("opening..."): a table is stored
        only once its message is posted, and its first render edits this one."""
        title = GAMES[game_key].name(locale)
        embed = fit_embed(discord.Embed(title=title, description=t("table.opening", locale)))
        message: discord.Message = await home.send(embed=embed)
        return message

    async def post_table_message(self, table: Table, home: Any = None) -> bool:
        """Post the table message of a table that has none, in ``home`` (its channel by
        default); a table whose thread is gone is closed. True when posted."""
        embed, view = render(table, news=self.news.get(table.id))
        target = home if home is not None else self.channel(table)
        try:
            if view is None:
                message = await target.send(embed=embed)
            else:
                message = await target.send(embed=embed, view=view)
        except discord.HTTPException as exc:
            if home is not None:
                raise
            await self.failed(table, exc)
            return False
        await self.tables.set_message(table, message.id)
        self.shown(table)
        return True

    async def restore(self) -> None:
        """After a (re)start, once: re-render every open table with a short note."""
        if self.restored:
            return
        self.restored = True
        await self.tables.build_pending()  # in slices (open_tables would do it at once)
        for table in self.tables.open_tables():
            thread = self.thread_of(table)
            if thread is not None and thread.locked:  # locked while the bot was away
                self.lock(table)
            try:
                if table.message_id is None:  # stopped between the commit and the message
                    await self.post_table_message(table)
                else:
                    await self.refresh(table, note=t("table.back", table.settings.locale))
            except Exception:
                log.exception("could not restore table %s", table.id)

    # ================================================================ lost tables

    async def channel_deleted(self, channel_id: int) -> None:
        """A thread or channel was deleted: close at once every table living there (in
        it, or in a thread of it)."""
        for table in self.tables.open_tables():
            if table.is_open and channel_id in (table.channel_id, table.parent_id):
                log.info("table %s: its channel %s was deleted: closing it", table.id, channel_id)
                self.shown(table)  # nothing left to repair
                await self.close_gone(table)

    async def close_gone(self, table: Table) -> None:
        """Close a table whose thread or message disappeared: the unfinished round's bets
        are refunded, the stacks become claims, each player is told by DM and the bank
        channel gets an entry."""
        players = list(table.game.seated())
        self.news.pop(table.id, None)
        try:
            outcome = await self.tables.close_table(table.id, None, "gone")
        except TableError:
            return  # closed meanwhile
        except Exception:
            log.exception("could not close the lost table %s", table.id)
            return
        await self.deliver_private(outcome, None, None)
        await self.tell_players_gone(outcome, players)
        locale = table.settings.locale
        game = GAMES[table.game_key].name(locale)
        text = t("table.gone", locale, game=game, id=table.id)
        try:
            await self.bank_channel.announce(table.guild_id, text)
        except Exception:  # an announcement never breaks a table
            log.exception("bank channel entry failed")

    async def tell_players_gone(self, outcome: Outcome, players: list[int]) -> None:
        """DM each player of a lost table, in their language, what they will find at the
        bank (the claims its closing opened)."""
        table = outcome.table
        claims: dict[int, int] = dict.fromkeys(players, 0)
        for event in outcome.events:
            for m in event.money:
                if m.kind is MoneyKind.CASH_OUT and m.player is not None:
                    claims[m.player] = claims.get(m.player, 0) + m.amount
        guild = await self.bank_channel.prefs(table.guild_id)
        for player, claim in claims.items():
            locale = await self.prefs.reader_locale(player, guild.locale)  # a DM: the reader's
            game = GAMES[table.game_key].name(locale)
            key = "table.gone_dm" if claim else "table.gone_dm_nothing"
            claimed = amount(claim, locale, guild.currency)
            text = t(key, locale, game=game, id=table.id, amount=claimed)
            if not await self.dms.send(player, text):
                log.warning("table %s: could not tell %s it is closed", table.id, player)

    # ================================================================ after a commit

    async def publish(
        self,
        outcome: Outcome,
        *,
        interaction: discord.Interaction | None = None,
        locale: str | None = None,
        from_table_message: bool = False,
        move: str | None = None,
        answer: str | None = None,
    ) -> None:
        """After a commit: the table message, the interaction's answer (``answer``, else
        the move's), DMs, summaries."""
        table = outcome.table
        events = outcome.events
        if not table.is_open:  # its message shows the standings the closing events give
            self._closing[table.id] = events
        actor = interaction.user.id if interaction is not None else None
        self.note_changes(table, events, actor)
        roll = self._start_roll(table, events)  # a round's end: a new table message
        # results first, then the next deal: the private cards of a round that started
        # after the last one settled go out after its summary
        cut = max((i for i, e in enumerate(events) if e.kind == ROUND_SETTLED), default=-1) + 1
        shown = told = False  # told: the actor's private events are in their answer
        left = None  # a player who left reads what became of their stack
        if interaction is not None:
            renderer = renderer_for(table.game_key)
            ctx = Ctx(table, locale or table.settings.locale)
            left = answer or renderer.left_text(ctx, events, interaction.user.id)
        if interaction is not None and from_table_message and not interaction.response.is_done():
            if roll is not None:
                shown = roll.edited = await self._summary_in_response(interaction, roll)
            else:
                shown = await self._show_in_response(interaction, table)
        if not shown:
            if left is None and interaction is not None and not interaction.response.is_done():
                left, told = self.outcome_answer(outcome, interaction, locale)
            await self._show_by_rest(table, interaction, locale, move, left, edit=roll is None)
        elif left is not None and interaction is not None:
            await reply(interaction, left)
        self.wake()  # a render that failed waits for the repair pass: wake up sooner
        # The player has their answer: let other tables' moves answer before this one's
        # DMs and announcements (it also lets SimCord see the move settle at once).
        await asyncio.sleep(0)
        skip = actor if told else None
        await self.deliver_private(outcome, interaction, locale, events[:cut] or None, skip=skip)
        if roll is not None:
            await self._roll(table, roll)
            await self.announce(outcome, actor=actor, texts=[])  # the forum ping
        else:
            await self.announce(outcome, actor=actor)
        if cut:
            await self.deliver_private(outcome, interaction, locale, events[cut:], skip=skip)
        # own funds added and forfeits, in the bank channel
        await self.bank_channel.table_outcome(outcome)
        if not table.is_open:  # after its summary: the thread becomes read-only history
            self.locked.discard(table.id)
            await self.archive(table)

    # ================================================================ a round's end

    def _start_roll(self, table: Table, events: list[Event]) -> _Roll | None:
        """At a round's end of a table that plays on, its message becomes the round's
        summary and the next round gets a new message below it (the buttons stay at the
        bottom of the thread). From here until that one is posted, ``table.message_id``
        is None: an edit asked for meanwhile makes no call (the new message shows the
        latest state), and a 404 of an edit in flight for the old one is no loss."""
        if not table.is_open or table.message_id is None or table.id in self.rolling:
            return None
        if not any(e.kind == ROUND_SETTLED for e in events):
            return None
        ctx = Ctx(table, table.settings.locale)
        texts = [
            fit_content(text) for text in renderer_for(table.game_key).public_posts(ctx, events)
        ]
        if not texts:
            return None
        summary, rest = texts[0], texts[1:]
        while rest and len(summary) + 1 + len(rest[0]) <= CONTENT:  # one message if it fits
            summary, rest = summary + "\n" + rest[0], rest[1:]
        roll = _Roll(table.message_id, summary, rest, self.edits.pending(table.id))
        table.message_id = None
        self.rolling.add(table.id)
        return roll

    async def _summary_in_response(self, interaction: discord.Interaction, roll: _Roll) -> bool:
        """The click that ended a round: its response turns the table message into the
        round's summary, without buttons."""
        try:
            await interaction.response.edit_message(
                content=roll.summary, embed=None, view=None, allowed_mentions=NO_PINGS
            )
        except discord.HTTPException:  # committed anyway: edited by REST in the roll
            log.warning("the interaction edit to a summary failed", exc_info=True)
            return False
        return True

    async def _roll(self, table: Table, roll: _Roll) -> None:
        """The old table message becomes the summary (by REST unless the click's response
        did it, or again when a REST edit in flight beside it may have landed over it; if
        that fails, the summary is posted), what did not fit in it is posted, then the next
        round's table message, stored."""
        try:
            if roll.in_flight is not None:
                await roll.in_flight.wait()
            if not roll.edited or roll.in_flight is not None:
                partial = self.channel(table).get_partial_message(roll.old)
                try:
                    await partial.edit(
                        content=roll.summary, embed=None, view=None, allowed_mentions=NO_PINGS
                    )
                except discord.HTTPException as exc:  # its buttons are refused from now
                    log.warning("table %s: its old message kept its state (%s)", table.id, exc)
                    roll.rest.insert(0, roll.summary)  # the summary as a message of its own
            channel = self.channel(table)
            for text in roll.rest:
                try:
                    await channel.send(text, allowed_mentions=NO_PINGS)
                except discord.HTTPException:
                    log.warning("could not post a summary in table %s", table.id, exc_info=True)
            version = table.version
            await self.post_table_message(table)  # a failure: posted by the repair pass
        finally:
            self.rolling.discard(table.id)
        if table.message_id is None:  # its post failed: the repair pass, sooner
            self.wake()
        elif table.version != version:  # moved meanwhile
            await self.refresh(table)

    def note_changes(self, table: Table, events: list[Event], actor: int | None) -> None:
        """Keep the changes of a batch for the table message (the last few, since the
        round began: a new round starts them afresh)."""
        if not table.is_open:
            self.news.pop(table.id, None)
            return
        renderer = renderer_for(table.game_key)
        kinds = renderer.news_kinds  # most moves have none of them: nothing to draw
        said = False
        for e in events:
            if e.kind == ROUND_STARTED:
                self.news.pop(table.id, None)
            said = said or e.kind in kinds
        if not said:
            return
        lines = renderer.change_lines(Ctx(table, table.settings.locale), events, actor)
        if lines:
            self.news[table.id] = [*self.news.get(table.id, []), *lines][-NEWS_KEPT:]

    @staticmethod
    def outcome_answer(
        outcome: Outcome, interaction: discord.Interaction, locale: str | None
    ) -> tuple[str | None, bool]:
        """The answer to a command's move: what it did to its player, then their private
        cards (nobody else reads it: the next round's deal too, after the results), and
        True when those are in it; (None, False) when there is nothing to say but "done"."""
        table, player = outcome.table, interaction.user.id
        ctx = Ctx(table, locale or table.settings.locale)
        renderer = renderer_for(table.game_key)
        own = renderer.private_lines(ctx, outcome.events, player)
        lines = [*renderer.move_answer(ctx, outcome.events, player), *own]
        return ("\n".join(lines) if lines else None), bool(own)

    async def _show_in_response(self, interaction: discord.Interaction, table: Table) -> bool:
        """A click on the table message: its response edits the message itself."""
        closing, news = self._closing.get(table.id), self.news.get(table.id)
        embed, view = render(table, self.note(table, None), closing, news)
        try:
            await interaction.response.edit_message(embed=embed, view=view)
        except discord.HTTPException:  # committed anyway: edit by REST or repair later
            log.warning("table %s: the interaction edit failed", table.id, exc_info=True)
            return False
        self.shown(table)
        self.edits.shown_by_interaction(table)
        self._closing.pop(table.id, None)
        return True

    async def _show_by_rest(
        self,
        table: Table,
        interaction: discord.Interaction | None,
        locale: str | None,
        move: str | None,
        answer: str | None = None,
        *,
        edit: bool = True,
    ) -> None:
        """A slash command, a timer, or a click whose edit failed: a REST edit (none with
        ``edit`` False: a round's end, whose new table message is posted later)."""
        asking = None if interaction is None or interaction.response.is_done() else interaction
        if asking is not None:  # answered first: "done" never waits for the table edit,
            # which a rate limit can hold back for seconds, past the interaction's 3 s
            key = game_key_or("move.done." + (move or "ok"), table.game_key)
            await reply(asking, answer or t_or(key, locale, fallback="move.done.ok"))
        if not edit:
            return
        shown = await self.refresh(table) is not False  # None: the next edit shows it
        # (a table whose message is gone is closed by then, and the bank channel says so)
        if asking is not None and not shown and table.is_open:
            await reply(asking, t_or("move.render_later", locale, fallback="move.done.ok"))

    # ================================================================ private cards

    async def deliver_private(
        self,
        outcome: Outcome,
        interaction: discord.Interaction | None,
        locale: str | None,
        events: list[Event] | None = None,
        *,
        skip: int | None = None,
    ) -> None:
        """Send each player their private events (of ``events``, default all the outcome's):
        the actor's in the answer to their interaction, the others' one DM each; none to
        ``skip`` (the answer to their command already said them)."""
        table = outcome.table
        by_player: dict[int, list[Event]] = {}
        for event in outcome.events if events is None else events:
            if event.visibility is Visibility.PRIVATE and event.player not in (None, skip):
                by_player.setdefault(event.player, []).append(event)
        if not by_player:
            return
        renderer = renderer_for(table.game_key)
        default = (await self.bank_channel.prefs(table.guild_id)).locale
        for player, events in by_player.items():
            actor = interaction is not None and interaction.user.id == player
            # in the reader's language: the one they asked with, else the one they chose
            # or Discord last gave for them, else the guild's (never the table's)
            own = locale if actor and locale else None
            ctx = Ctx(table, own or await self.prefs.reader_locale(player, default))
            lines = renderer.private_lines(ctx, events, player)
            if not lines:
                continue
            await self.send_private(table, player, lines, interaction if actor else None)

    async def send_private(
        self,
        table: Table,
        player: int,
        lines: list[str],
        interaction: discord.Interaction | None,
    ) -> None:
        """A player's private cards: in the answer to their own click (``interaction``: an
        ephemeral follow-up, outside the global rate limit), else by DM; a public '/hand'
        hint, once per table, when neither reaches them. What changed comes first; a DM
        ends with the table's name and link, an answer under the table needs neither."""
        if interaction is not None:
            try:
                await interaction.followup.send(fit_content("\n".join(lines)), ephemeral=True)
                return
            except discord.HTTPException:
                log.warning("could not show %s their cards, table %s", player, table.id)
        tail = f"**{table_title(table)}** {table_link(table)}".strip()
        if await self.dms.send(player, fit_content("\n".join([*lines, tail]))):
            return
        if (table.id, player) in self._dm_warned:
            return
        self._dm_warned.add((table.id, player))
        hint = t_or(
            "private.dm_closed",
            table.settings.locale,
            fallback="private.dm_closed",
            player=f"<@{player}>",
        )
        mentions = discord.AllowedMentions(users=[discord.Object(player)])
        try:
            await self.channel(table).send(fit_content(hint), allowed_mentions=mentions)
        except discord.HTTPException:
            log.warning("could not post the /hand hint in table %s", table.id)

    async def tell_kicked(self, outcome: Outcome, player: int, by: int) -> None:
        """Tell a player removed by ``by`` (the host, an admin) of it and of their stack,
        by DM in their language, else in the table's thread."""
        table = outcome.table
        default = (await self.bank_channel.prefs(table.guild_id)).locale
        locale = await self.prefs.reader_locale(player, default)  # a DM: the reader's
        ctx = Ctx(table, locale)
        left = renderer_for(table.game_key).left_text(ctx, outcome.events, player)
        head = t("table.kick.dm", locale, host=f"<@{by}>", table=table_title(table))
        text = "\n".join(filter(None, [f"{head} {table_link(table)}".strip(), left]))
        if await self.dms.send(player, text, allowed_mentions=NO_PINGS):
            return
        locale = table.settings.locale
        notice = t("table.kick.thread", locale, player=f"<@{player}>", host=f"<@{by}>")
        mentions = discord.AllowedMentions(users=[discord.Object(player)])
        try:
            await self.channel(table).send(fit_content(notice), allowed_mentions=mentions)
        except discord.HTTPException:
            log.warning("table %s: could not tell %s they were removed", table.id, player)

    # ================================================================ announcements

    async def announce(
        self, outcome: Outcome, actor: int | None = None, texts: list[str] | None = None
    ) -> None:
        """Round summaries, revealed seeds and the end of the table as separate messages
        (``texts`` instead when given); a ping at forum pace for the player(s) whose turn
        it is (a new message: edits never ping)."""
        table = outcome.table
        ctx = Ctx(table, table.settings.locale)
        renderer = renderer_for(table.game_key)
        if texts is None:
            texts = renderer.public_posts(ctx, outcome.events)
            why = self.closing_line(outcome, ctx) if outcome.closed and texts else None
            if why:  # said in the closing post itself: no call of its own
                texts[0] = why + "\n" + texts[0]
        channel = self.channel(table)
        try:
            for text in texts:
                await channel.send(fit_content(text), allowed_mentions=NO_PINGS)
            notice = renderer.host_notice(ctx, outcome.events)
            if notice is not None:  # a new post: the new host must know (an edit never pings)
                mentions = discord.AllowedMentions(users=[discord.Object(notice[1])])
                await channel.send(fit_content(notice[0]), allowed_mentions=mentions)
            if table.settings.pace == FORUM and table.is_open:
                await self._ping(channel, ctx, outcome, actor)
        except discord.HTTPException:
            log.warning("could not post announcements in table %s", table.id, exc_info=True)

    @staticmethod
    def closing_line(outcome: Outcome, ctx: Ctx) -> str | None:
        """Why a table closed when a timer did it, and the unfinished round's refund."""
        refunded = any(e.kind == ROUND_REFUNDED for e in outcome.events)
        if "idle" in outcome.notes:  # the idle timer
            minutes = max(1, round(outcome.table.settings.idle_timer / 60))
            key = "news.closed_idle_refunded" if refunded else "news.closed_idle"
            return "⏱ " + ctx.t(key, minutes=minutes)
        return "↩ " + ctx.t("news.refunded") if refunded else None

    @staticmethod
    async def _ping(
        channel: discord.PartialMessageable, ctx: Ctx, outcome: Outcome, actor: int | None
    ) -> None:
        """At forum pace: mention whoever must move now (the game's own pings, else the
        player whose turn began)."""
        table = outcome.table
        pings = renderer_for(table.game_key).pings(ctx, outcome.events, actor)
        if pings is not None:
            text, users = pings
            if text and users:
                mentions = discord.AllowedMentions(users=[discord.Object(u) for u in users])
                await channel.send(fit_content(text), allowed_mentions=mentions)
            return
        to_act = table.game.to_act
        if to_act is None or to_act == actor:  # who plays on is at the table: no ping
            return
        if any(e.kind == "turn" for e in outcome.events):
            mentions = discord.AllowedMentions(users=[discord.Object(to_act)])
            text = fit_content(ctx.t("table.your_turn", player=f"<@{to_act}>"))
            await channel.send(text, allowed_mentions=mentions)
