"""The casino bank on Discord: /bank for players and admins, and the bank channel.

Player commands: balance, claim, history, top, give. Admin commands (Manage Server): setup,
mint, burn, approve, audit. Discord ignores ``default_permissions`` on sub-commands (only a
top-level command carries it), so every admin command also checks Manage Server at run time
and refuses with a translated sentence.

The bank channel (the forum's "topic de banque", ``guild_settings.bank_channel_id``) gets
the claim receipts, the admins' approvals, mints and burns, and from the tables the own
funds added (TOP_UP) and the forfeits: :class:`BankChannel` is ``bot.services["bank_channel"]``
and other cogs call ``announce(guild_id, text)`` or ``table_outcome(outcome)``.
"""

from __future__ import annotations

import functools
import inspect
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any, TypeVar

import discord
from discord import app_commands
from discord.ext import commands

from bot.app import CroupierBot, send_ephemeral
from bot.bank import Bank
from bot.bank.errors import SelfTransfer, TransferToBot
from bot.bank.models import MAX_AMOUNT, ClaimReceipt, GuildInfo
from bot.engine.base import MoneyKind
from bot.engine.registry import GAMES
from bot.errors import NotAllowed
from bot.i18n import normalize, t
from bot.ui.errors import refusal_text
from bot.ui.render import bank as fmt
from bot.ui.translator import _

log = logging.getLogger(__name__)

NO_PINGS = discord.AllowedMentions.none()
HISTORY_PAGE = 10
TOP_SIZE = 10
DEFAULT_STARTING_BALANCE = 1000
Amount = app_commands.Range[int, 1, MAX_AMOUNT]
F = TypeVar("F", bound=Callable[..., Awaitable[None]])


def answers_refusals(func: F) -> F:
    """Answer a refusal (bank, user, engine error) with one ephemeral translated sentence
    inside the command, so nothing reaches the tree's error path; re-raise bugs."""

    # discord.py reads the parameters through ``__wrapped__`` but evaluates string
    # annotations in the wrapper's module: resolve them now, in the command's own module.
    func.__annotations__ = inspect.get_annotations(func, eval_str=True)

    @functools.wraps(func)
    async def wrapper(
        self: Any, interaction: discord.Interaction, *args: Any, **kwargs: Any
    ) -> None:
        try:
            await func(self, interaction, *args, **kwargs)
        except Exception as exc:
            text = refusal_text(exc, await self.bot.locale_for(interaction))
            if text is None:
                raise
            await send_ephemeral(interaction, text)

    return wrapper  # type: ignore[return-value]


@dataclass(frozen=True)
class GuildPrefs:
    """What the bank cog keeps of ``guild_settings``."""

    bank_channel_id: int | None
    locale: str
    currency: str


def is_admin(interaction: discord.Interaction) -> bool:
    """Manage Server (or Administrator) in this guild."""
    perms = getattr(interaction.user, "guild_permissions", None)
    return bool(perms and (perms.manage_guild or perms.administrator))


def require_admin(interaction: discord.Interaction) -> None:
    """Refuse (translated, ephemeral) unless the user may manage the server."""
    if not is_admin(interaction):
        raise NotAllowed("bank.error.not_admin")


def mention(user_id: int) -> str:
    """A user mention (sent with pings disabled)."""
    return f"<@{user_id}>"


class BankChannel:
    """The guild's bank channel: where the bank posts receipts and table money news."""

    def __init__(self, bot: CroupierBot) -> None:
        self.bot = bot
        self._guilds: dict[int, GuildPrefs] = {}

    async def prefs(self, guild_id: int) -> GuildPrefs:
        """The guild's bank channel, language and currency name (cached)."""
        cached = self._guilds.get(guild_id)
        if cached is not None:
            return cached
        row = await self.bot.db.fetchone(
            "SELECT bank_channel_id, locale, currency_name FROM guild_settings WHERE guild_id = ?",
            (guild_id,),
        )
        if row is None:
            prefs = GuildPrefs(None, "en", fmt.DEFAULT_CURRENCY)
        else:
            prefs = GuildPrefs(
                int(row[0]) if row[0] is not None else None,
                normalize(row[1]),
                row[2] or fmt.DEFAULT_CURRENCY,
            )
        self._guilds[guild_id] = prefs
        return prefs

    async def set_channel(self, guild_id: int, channel_id: int, locale: str) -> None:
        """Store the bank channel (and the guild's language if it has none yet)."""
        async with self.bot.db.transaction() as conn:
            await conn.execute(
                "INSERT INTO guild_settings (guild_id, bank_channel_id, locale) VALUES (?, ?, ?)"
                " ON CONFLICT (guild_id) DO UPDATE SET"
                " bank_channel_id = excluded.bank_channel_id,"
                " locale = COALESCE(guild_settings.locale, excluded.locale)",
                (guild_id, channel_id, normalize(locale)),
            )
        self._guilds.pop(guild_id, None)

    async def announce(
        self,
        guild_id: int,
        text: str | None = None,
        *,
        embed: discord.Embed | None = None,
    ) -> bool:
        """Post in the guild's bank channel (no pings); False when there is none or the
        post failed (logged, never raised)."""
        prefs = await self.prefs(guild_id)
        if prefs.bank_channel_id is None:
            return False
        channel = self.bot.get_partial_messageable(prefs.bank_channel_id, guild_id=guild_id)
        try:
            kwargs: dict[str, Any] = {"allowed_mentions": NO_PINGS}
            if text:
                kwargs["content"] = text[:2000]
            if embed is not None:
                kwargs["embed"] = embed
            await channel.send(**kwargs)
        except discord.HTTPException:
            log.warning("could not post in the bank channel of guild %s", guild_id, exc_info=True)
            return False
        return True

    async def table_outcome(self, outcome: Any) -> None:
        """Announce a table's own funds added (TOP_UP) and forfeits in the bank channel."""
        try:
            table = outcome.table
            prefs = await self.prefs(table.guild_id)
            if prefs.bank_channel_id is None:
                return
            loc, cur = prefs.locale, prefs.currency
            lines: list[str] = []
            for event in outcome.events:
                for money in event.money:
                    if money.kind not in (MoneyKind.TOP_UP, MoneyKind.FORFEIT) or not money.amount:
                        continue
                    player = money.player
                    if player is None:
                        seat = money.dst if money.kind is MoneyKind.TOP_UP else money.src
                        player = int(seat.split(":", 1)[1]) if seat.startswith("seat:") else 0
                    key = (
                        "bank.channel.top_up"
                        if money.kind is MoneyKind.TOP_UP
                        else "bank.channel.forfeit"
                    )
                    lines.append(
                        t(
                            key,
                            loc,
                            user=mention(player),
                            amount=fmt.amount(money.amount, loc, cur),
                            table=f"<#{table.channel_id}>",
                            game=GAMES[table.game_key].name(loc),
                        )
                    )
            if lines:
                await self.announce(table.guild_id, "\n".join(lines))
        except Exception:  # an announcement must never break a table
            log.exception("bank channel announcement failed")


class BankCog(commands.Cog, name="Bank"):
    """/bank: balances, claims, transfers, and the admins' tools."""

    def __init__(self, bot: CroupierBot) -> None:
        self.bot = bot
        self.bank = Bank(bot.db)
        self.channel = BankChannel(bot)
        bot.services["bank_channel"] = self.channel
        # held claims already shown to the admins in the bank channel (a player asking
        # again does not post them again; after a restart they are posted once more)
        self._held_posted: set[int] = set()

    async def cog_unload(self) -> None:
        """Forget the service."""
        if self.bot.services.get("bank_channel") is self.channel:
            del self.bot.services["bank_channel"]

    # ================================================================ helpers

    async def announce(self, guild_id: int, text: str) -> bool:
        """Post ``text`` in the guild's bank channel (see :class:`BankChannel`)."""
        return await self.channel.announce(guild_id, text)

    async def ensure_guild(self, guild_id: int) -> None:
        """Set the guild's bank up with the same defaults the tables use."""
        tables = self.bot.services.get("tables")
        if tables is not None:
            await tables.ensure_guild(guild_id)
        else:
            await self.bank.ensure_guild(guild_id, starting_balance=DEFAULT_STARTING_BALANCE)

    async def context(self, interaction: discord.Interaction) -> tuple[int, str, str]:
        """(guild id, the user's language, the guild's currency name), guild set up."""
        assert interaction.guild_id is not None
        guild_id = interaction.guild_id
        await self.ensure_guild(guild_id)
        locale = await self.bot.locale_for(interaction)
        prefs = await self.channel.prefs(guild_id)
        return guild_id, locale, prefs.currency

    @staticmethod
    async def reply(
        interaction: discord.Interaction,
        text: str | None = None,
        *,
        embed: discord.Embed | None = None,
        ephemeral: bool = True,
    ) -> None:
        """Answer (or follow up) without pinging anybody."""
        kwargs: dict[str, Any] = {"ephemeral": ephemeral, "allowed_mentions": NO_PINGS}
        if text is not None:
            kwargs["content"] = text
        if embed is not None:
            kwargs["embed"] = embed
        if interaction.response.is_done():
            await interaction.followup.send(**kwargs)
        else:
            await interaction.response.send_message(**kwargs)

    def receipt_embed(
        self, receipt: ClaimReceipt, locale: str, currency: str, *, title_key: str
    ) -> discord.Embed:
        """A claim receipt as an embed."""
        embed = discord.Embed(
            title=t(title_key, locale),
            description="\n".join(fmt.receipt_lines(receipt, locale, currency)),
            colour=discord.Colour.gold(),
        )
        embed.add_field(name=t("bank.receipt.player", locale), value=mention(receipt.user_id))
        if receipt.entry_id is not None:
            embed.set_footer(text=t("bank.receipt.footer", locale, entry=receipt.entry_id))
        return embed

    async def has_account(self, guild_id: int, user_id: int) -> bool:
        """True when the member has a player account in this guild."""
        row = await self.bot.db.fetchone(
            "SELECT 1 FROM bank_accounts WHERE guild_id = ? AND kind = 'player' AND user_id = ?",
            (guild_id, user_id),
        )
        return row is not None

    # ================================================================ /bank

    bank_group = app_commands.Group(
        name=_("bank", "name.bank"),
        description=_("The casino bank", "cmd.bank.description"),
        guild_only=True,
    )

    @bank_group.command(
        name=_("balance", "name.balance"),
        description=_("Your balance, or a member's", "cmd.bank_balance.description"),
    )
    @app_commands.describe(user=_("The member to look at", "cmd.bank_balance.user"))
    @app_commands.rename(user=_("user", "param.user"))
    @answers_refusals
    async def balance(
        self, interaction: discord.Interaction, user: discord.Member | None = None
    ) -> None:
        """A balance, with the claims waiting at the bank."""
        guild_id, loc, cur = await self.context(interaction)
        me = interaction.user.id
        target = me if user is None else user.id
        if user is not None and user.bot:
            raise TransferToBot("bots hold no money", user_id=user.id)
        if target == me:
            value = await self.bank.open_account(guild_id, me)
            lines = [t("bank.balance.self", loc, amount=fmt.amount(value, loc, cur))]
        elif await self.has_account(guild_id, target):
            value = await self.bank.balance(guild_id, target)
            lines = [
                t(
                    "bank.balance.other",
                    loc,
                    user=mention(target),
                    amount=fmt.amount(value, loc, cur),
                )
            ]
        else:
            await self.reply(interaction, t("bank.balance.no_account", loc, user=mention(target)))
            return
        open_claims = await self.bank.claims(guild_id, target)
        pending = [c for c in open_claims if c.status == "pending"]
        held = [c for c in open_claims if c.status == "held"]
        if pending:
            lines.append(
                t(
                    "bank.balance.pending",
                    loc,
                    n=len(pending),
                    amount=fmt.amount(sum(c.amount for c in pending), loc, cur),
                )
            )
        if held:
            lines.append(
                t(
                    "bank.balance.held",
                    loc,
                    n=len(held),
                    amount=fmt.amount(sum(c.amount for c in held), loc, cur),
                    ids=fmt.ids_text(held),
                )
            )
        await self.reply(interaction, "\n".join(lines))

    @bank_group.command(
        name=_("claim", "name.claim"),
        description=_("Collect your winnings waiting at the bank", "cmd.bank_claim.description"),
    )
    @answers_refusals
    async def claim(self, interaction: discord.Interaction) -> None:
        """Pay every pending claim; list the held ones; post the receipt in the bank channel,
        and the held claims the admins have not been shown yet."""
        guild_id, loc, cur = await self.context(interaction)
        receipt = await self.bank.claim(guild_id, interaction.user.id)
        if not receipt.paid and not receipt.held:
            await self.reply(interaction, t("bank.claim.nothing", loc))
            return
        embed = self.receipt_embed(receipt, loc, cur, title_key="bank.receipt.title")
        await self.reply(interaction, embed=embed)
        gl = (await self.channel.prefs(guild_id)).locale  # the bank channel's language
        if receipt.paid:
            text = t(
                "bank.channel.claim",
                gl,
                user=mention(receipt.user_id),
                amount=fmt.amount(receipt.total, gl, cur),
                ids=fmt.ids_text(receipt.paid),
            )
            public = self.receipt_embed(receipt, gl, cur, title_key="bank.receipt.title")
            await self.channel.announce(guild_id, text, embed=public)
        fresh = [c for c in receipt.held if c.claim_id not in self._held_posted]
        if fresh:  # the admins learn that a player waits for them
            text = t(
                "bank.channel.held",
                gl,
                user=mention(receipt.user_id),
                amount=fmt.amount(sum(c.amount for c in fresh), gl, cur),
                ids=fmt.ids_text(fresh),
            )
            if await self.channel.announce(guild_id, text):
                self._held_posted.update(c.claim_id for c in fresh)

    @bank_group.command(
        name=_("history", "name.history"),
        description=_("Your latest bank movements", "cmd.bank_history.description"),
    )
    @app_commands.describe(page=_("Page number (1 = the newest)", "cmd.bank_history.page"))
    @app_commands.rename(page=_("page", "param.page"))
    @answers_refusals
    async def history(
        self, interaction: discord.Interaction, page: app_commands.Range[int, 1, 10_000] = 1
    ) -> None:
        """Movements of the user's balance, newest first, ten per page."""
        guild_id, loc, cur = await self.context(interaction)
        me = interaction.user.id
        before: int | None = None
        items: tuple[Any, ...] = ()
        more = False
        for number in range(1, page + 1):
            result = await self.bank.history(guild_id, me, limit=HISTORY_PAGE, before=before)
            items, before = result.items, result.next_before
            more = before is not None
            if number < page and not more:
                items = ()
                break
        if not items:
            key = "bank.history.empty" if page == 1 else "bank.history.no_page"
            await self.reply(interaction, t(key, loc, page=page))
            return
        lines = [fmt.history_line(item, loc, cur) for item in items]
        embed = discord.Embed(
            title=t("bank.history.title", loc, page=page),
            description="\n".join(lines)[:4000],
            colour=discord.Colour.dark_gold(),
        )
        balance = await self.bank.balance(guild_id, me)
        embed.add_field(name=t("bank.history.balance", loc), value=fmt.amount(balance, loc, cur))
        if more:
            embed.set_footer(text=t("bank.history.more", loc, next=page + 1))
        await self.reply(interaction, embed=embed)

    @bank_group.command(
        name=_("top", "name.top"), description=_("The richest players", "cmd.bank_top.description")
    )
    @answers_refusals
    async def top(self, interaction: discord.Interaction) -> None:
        """The leaderboard, public, without pings."""
        guild_id, loc, cur = await self.context(interaction)
        rows = await self.bank.leaderboard(guild_id, limit=TOP_SIZE)
        if not rows:
            await self.reply(interaction, t("bank.top.empty", loc))
            return
        lines = [
            t("bank.top.line", loc, rank=i, user=mention(uid), amount=fmt.amount(bal, loc, cur))
            for i, (uid, bal) in enumerate(rows, start=1)
        ]
        embed = discord.Embed(
            title=t("bank.top.title", loc),
            description="\n".join(lines),
            colour=discord.Colour.gold(),
        )
        await self.reply(interaction, embed=embed, ephemeral=False)

    @bank_group.command(
        name=_("give", "name.give"),
        description=_("Give money to another member", "cmd.bank_give.description"),
    )
    @app_commands.describe(
        user=_("Who receives it", "cmd.bank_give.user"),
        amount=_("How much", "cmd.bank_give.amount"),
    )
    @app_commands.rename(user=_("user", "param.user"), amount=_("amount", "param.amount"))
    @answers_refusals
    async def give(
        self, interaction: discord.Interaction, user: discord.Member, amount: Amount
    ) -> None:
        """A transfer between members (never to a bot or to oneself)."""
        guild_id, loc, cur = await self.context(interaction)
        me = interaction.user.id
        if user.bot:
            raise TransferToBot("cannot transfer to a bot", user_id=user.id)
        if user.id == me:
            raise SelfTransfer("cannot transfer to yourself", user_id=me)
        await self.bank.open_account(guild_id, me)
        receipt = await self.bank.transfer(
            guild_id, me, user.id, amount, recipient_is_bot=user.bot, reason="/bank give"
        )
        await self.reply(
            interaction,
            t(
                "bank.give.done",
                loc,
                user=mention(user.id),
                amount=fmt.amount(amount, loc, cur),
                balance=fmt.amount(receipt.balance, loc, cur),
            ),
        )
        prefs = await self.channel.prefs(guild_id)
        await self.channel.announce(
            guild_id,
            t(
                "bank.channel.give",
                prefs.locale,
                user=mention(me),
                target=mention(user.id),
                amount=fmt.amount(amount, prefs.locale, cur),
            ),
        )

    # ================================================================ admin

    @bank_group.command(
        name=_("setup", "name.setup"),
        description=_(
            "Admin: bank channel, claim approval limit, starting balance, table limits",
            "cmd.bank_setup.description",
        ),
    )
    @app_commands.describe(
        channel=_("The bank channel or thread (the bank topic)", "cmd.bank_setup.channel"),
        claim_approval_limit=_(
            "Claims above this wait for an admin (-1 = no limit)",
            "cmd.bank_setup.claim_approval_limit",
        ),
        starting_balance=_(
            "What a new player's account starts with", "cmd.bank_setup.starting_balance"
        ),
        max_welcome_stake=_(
            "Highest Casino 21 welcome stake a table may offer",
            "cmd.bank_setup.max_welcome_stake",
        ),
        max_guarantee_fund=_(
            "Highest Sept et demi guarantee fund a table may take",
            "cmd.bank_setup.max_guarantee_fund",
        ),
        max_bank_bust_bonus=_(
            "Highest fixed Casino 21 bank bust bonus", "cmd.bank_setup.max_bank_bust_bonus"
        ),
    )
    @app_commands.default_permissions(manage_guild=True)
    @app_commands.rename(
        channel=_("channel", "param.channel"),
        claim_approval_limit=_("claim_approval_limit", "param.claim_approval_limit"),
        starting_balance=_("starting_balance", "param.starting_balance"),
        max_welcome_stake=_("max_welcome_stake", "param.max_welcome_stake"),
        max_guarantee_fund=_("max_guarantee_fund", "param.max_guarantee_fund"),
        max_bank_bust_bonus=_("max_bank_bust_bonus", "param.max_bank_bust_bonus"),
    )
    @answers_refusals
    async def setup(
        self,
        interaction: discord.Interaction,
        channel: discord.TextChannel | discord.Thread,
        claim_approval_limit: app_commands.Range[int, -1, MAX_AMOUNT] | None = None,
        starting_balance: app_commands.Range[int, 0, MAX_AMOUNT] | None = None,
        max_welcome_stake: app_commands.Range[int, 0, MAX_AMOUNT] | None = None,
        max_guarantee_fund: app_commands.Range[int, 0, MAX_AMOUNT] | None = None,
        max_bank_bust_bonus: app_commands.Range[int, 0, MAX_AMOUNT] | None = None,
    ) -> None:
        """Set the bank channel and, optionally, the money settings and the limits on the
        table options that commit the casino's money."""
        require_admin(interaction)
        guild_id, loc, cur = await self.context(interaction)
        await interaction.response.defer(ephemeral=True, thinking=True)
        hello = t("bank.channel.hello", loc, admin=mention(interaction.user.id))
        try:
            await self.bot.get_partial_messageable(channel.id, guild_id=guild_id).send(
                hello, allowed_mentions=NO_PINGS
            )
        except discord.HTTPException:
            await self.reply(
                interaction, t("bank.error.channel_unusable", loc, channel=channel.mention)
            )
            return
        changes: dict[str, Any] = {
            name: value
            for name, value in (
                ("starting_balance", starting_balance),
                ("max_welcome_stake", max_welcome_stake),
                ("max_guarantee_fund", max_guarantee_fund),
                ("max_bank_bust_bonus", max_bank_bust_bonus),
            )
            if value is not None
        }
        if claim_approval_limit is not None:
            changes["claim_approval_limit"] = (
                None if claim_approval_limit < 0 else claim_approval_limit
            )
        info = (
            await self.bank.configure_guild(guild_id, **changes)
            if changes
            else await self.bank.guild(guild_id)
        )
        await self.channel.set_channel(guild_id, channel.id, loc)
        await self.reply(interaction, self.setup_text(info, channel.mention, loc, cur))

    @staticmethod
    def setup_text(info: GuildInfo, channel: str, loc: str, cur: str) -> str:
        """What /bank setup answers: the bank's settings and the table limits."""
        limit = (
            t("bank.setup.no_limit", loc)
            if info.claim_approval_limit is None
            else fmt.amount(info.claim_approval_limit, loc, cur)
        )
        done = t(
            "bank.setup.done",
            loc,
            channel=channel,
            limit=limit,
            start=fmt.amount(info.starting_balance, loc, cur),
            treasury=fmt.amount(info.treasury, loc, cur),
        )
        limits = t(
            "bank.setup.limits",
            loc,
            welcome=fmt.amount(info.max_welcome_stake, loc, cur),
            fund=fmt.amount(info.max_guarantee_fund, loc, cur),
            bonus=fmt.amount(info.max_bank_bust_bonus, loc, cur),
        )
        return f"{done}\n{limits}"

    async def _mint_or_burn(
        self, interaction: discord.Interaction, kind: str, amount: int, user: discord.Member | None
    ) -> None:
        require_admin(interaction)
        guild_id, loc, cur = await self.context(interaction)
        if user is not None and user.bot:
            raise TransferToBot("bots hold no money", user_id=user.id)
        target_id = None if user is None else user.id
        if target_id is not None:
            await self.bank.open_account(guild_id, target_id)
        op = self.bank.mint if kind == "mint" else self.bank.burn
        receipt = await op(
            guild_id,
            amount,
            user_id=target_id,
            actor=interaction.user.id,
            reason=f"/bank {kind}",
        )

        def target(locale: str) -> str:
            return t("bank.treasury", locale) if target_id is None else mention(target_id)

        await self.reply(
            interaction,
            t(
                f"bank.{kind}.done",
                loc,
                amount=fmt.amount(amount, loc, cur),
                target=target(loc),
                balance=fmt.amount(receipt.balance, loc, cur),
            ),
        )
        gl = (await self.channel.prefs(guild_id)).locale
        await self.channel.announce(
            guild_id,
            t(
                f"bank.channel.{kind}",
                gl,
                admin=mention(interaction.user.id),
                amount=fmt.amount(amount, gl, cur),
                target=target(gl),
            ),
        )

    @bank_group.command(
        name=_("mint", "name.mint"),
        description=_(
            "Admin: create money for a member (or the treasury)", "cmd.bank_mint.description"
        ),
    )
    @app_commands.describe(
        amount=_("How much", "cmd.bank_mint.amount"),
        user=_("The member (default: the treasury)", "cmd.bank_mint.user"),
    )
    @app_commands.default_permissions(manage_guild=True)
    @app_commands.rename(amount=_("amount", "param.amount"), user=_("user", "param.user"))
    @answers_refusals
    async def mint(
        self, interaction: discord.Interaction, amount: Amount, user: discord.Member | None = None
    ) -> None:
        """Create money."""
        await self._mint_or_burn(interaction, "mint", amount, user)

    @bank_group.command(
        name=_("burn", "name.burn"),
        description=_(
            "Admin: destroy money of a member (or the treasury)", "cmd.bank_burn.description"
        ),
    )
    @app_commands.describe(
        amount=_("How much", "cmd.bank_burn.amount"),
        user=_("The member (default: the treasury)", "cmd.bank_burn.user"),
    )
    @app_commands.default_permissions(manage_guild=True)
    @app_commands.rename(amount=_("amount", "param.amount"), user=_("user", "param.user"))
    @answers_refusals
    async def burn(
        self, interaction: discord.Interaction, amount: Amount, user: discord.Member | None = None
    ) -> None:
        """Destroy money."""
        await self._mint_or_burn(interaction, "burn", amount, user)

    @bank_group.command(
        name=_("approve", "name.approve"),
        description=_(
            "Admin: approve a claim waiting for approval", "cmd.bank_approve.description"
        ),
    )
    @app_commands.describe(claim_id=_("The claim's number", "cmd.bank_approve.claim_id"))
    @app_commands.default_permissions(manage_guild=True)
    @app_commands.rename(claim_id=_("claim_id", "param.claim_id"))
    @answers_refusals
    async def approve(
        self, interaction: discord.Interaction, claim_id: app_commands.Range[int, 1, MAX_AMOUNT]
    ) -> None:
        """Pay a held claim (never one's own)."""
        require_admin(interaction)
        guild_id, loc, cur = await self.context(interaction)
        receipt = await self.bank.approve_claim(guild_id, claim_id, interaction.user.id)
        await self.reply(
            interaction,
            t(
                "bank.approve.done",
                loc,
                id=claim_id,
                user=mention(receipt.user_id),
                amount=fmt.amount(receipt.total, loc, cur),
                balance=fmt.amount(receipt.balance, loc, cur),
            ),
        )
        gl = (await self.channel.prefs(guild_id)).locale
        text = t(
            "bank.channel.approved",
            gl,
            admin=mention(interaction.user.id),
            id=claim_id,
            user=mention(receipt.user_id),
            amount=fmt.amount(receipt.total, gl, cur),
        )
        public = self.receipt_embed(receipt, gl, cur, title_key="bank.receipt.title")
        await self.channel.announce(guild_id, text, embed=public)

    @bank_group.command(
        name=_("audit", "name.audit"),
        description=_("Admin: check the books", "cmd.bank_audit.description"),
    )
    @app_commands.default_permissions(manage_guild=True)
    @answers_refusals
    async def audit(self, interaction: discord.Interaction) -> None:
        """Recompute every balance from the ledger and show the result."""
        require_admin(interaction)
        guild_id, loc, cur = await self.context(interaction)
        await interaction.response.defer(ephemeral=True, thinking=True)
        report = await self.bank.audit(guild_id)
        treasury = await self.bank.balance(guild_id, None)
        claims = await self.bank.claims(guild_id)
        lines = [
            t(
                "bank.audit.ok" if report.ok else "bank.audit.failed",
                loc,
                n=len(report.problems),
            ),
            t(
                "bank.audit.figures",
                loc,
                accounts=report.accounts,
                entries=report.entries,
                postings=report.postings,
                minted=fmt.amount(report.minted, loc, cur),
                burned=fmt.amount(report.burned, loc, cur),
                circulating=fmt.amount(report.circulating, loc, cur),
                treasury=fmt.amount(treasury, loc, cur),
                claims=len(claims),
                held=sum(1 for c in claims if c.status == "held"),
            ),
        ]
        lines += [f"- `{problem}`" for problem in report.problems[:20]]
        await self.reply(interaction, "\n".join(lines)[:2000])


async def setup(bot: CroupierBot) -> None:
    """Extension entry point."""
    await bot.add_cog(BankCog(bot))
