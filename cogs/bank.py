"""The casino bank on Discord: /bank for players and admins, and the bank channel.

Player commands: balance, claim, history, top, give. Admin commands (Manage Server): setup,
mint, burn, approve, reject, audit. Discord ignores ``default_permissions`` on sub-commands
(only a top-level command carries it), so every admin command also checks Manage Server at
run time and refuses with a translated sentence.

The bank channel (the forum's "topic de banque", ``guild_settings.bank_channel_id``) gets
the claim receipts, the admins' approvals, mints and burns: ``bot.bank_channel``
(bot/bank_channel.py), which also posts the tables' own funds added and forfeits.
"""

from __future__ import annotations

import functools
import inspect
import logging
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar, cast

import discord
from discord import app_commands
from discord.ext import commands

from bot.app import CroupierBot, send_ephemeral
from bot.bank.daily import MAX_HOURS
from bot.bank.errors import SelfTransfer, TransferToBot
from bot.bank.models import MAX_AMOUNT, ClaimLine, ClaimReceipt, GuildInfo
from bot.errors import NotAllowed
from bot.i18n import t
from bot.ui.errors import refusal_text
from bot.ui.limits import fit_content, fit_embed
from bot.ui.render import bank as fmt
from bot.ui.render.daily import daily_setup_line
from bot.ui.translator import _

log = logging.getLogger(__name__)

NO_PINGS = discord.AllowedMentions.none()
HISTORY_PAGE = 10
TOP_SIZE = 10
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


def supply_command(group: app_commands.Group, kind: str, description: str) -> Any:
    """``/bank mint`` or ``/bank burn``: one declaration for both sides of the money
    supply (``Bank.change_supply``), Manage Server only."""

    async def command(
        self: Any,
        interaction: discord.Interaction,
        amount: Amount,
        user: discord.Member | None = None,
    ) -> None:
        await self.mint_or_burn(interaction, kind, amount, user)

    command.__name__ = kind
    command.__qualname__ = f"BankCog.{kind}"  # a method of the cog: discord.py binds self
    command.__doc__ = description
    decorated = answers_refusals(command)
    decorated = app_commands.rename(
        amount=_("amount", "param.amount"), user=_("user", "param.user")
    )(decorated)
    decorated = app_commands.default_permissions(manage_guild=True)(decorated)
    decorated = app_commands.describe(
        amount=_("How much", f"cmd.bank_{kind}.amount"),
        user=_("The member (default: the treasury)", f"cmd.bank_{kind}.user"),
    )(decorated)
    return group.command(
        name=_(kind, f"name.{kind}"), description=_(description, f"cmd.bank_{kind}.description")
    )(cast(Any, decorated))


class BankCog(commands.Cog, name="Bank"):
    """/bank: balances, claims, transfers, and the admins' tools."""

    def __init__(self, bot: CroupierBot) -> None:
        self.bot = bot
        self.bank = bot.bank
        self.channel = bot.bank_channel
        # held claims already shown to the admins in the bank channel (a player asking
        # again does not post them again; after a restart they are posted once more)
        self._held_posted: set[int] = set()

    # ================================================================ helpers

    async def context(self, interaction: discord.Interaction) -> tuple[int, str, str]:
        """(guild id, the user's language, the guild's currency name), guild set up with
        the same defaults the tables use."""
        assert interaction.guild_id is not None
        guild_id = interaction.guild_id
        await self.bot.tables.ensure_guild(guild_id)
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
            kwargs["content"] = fit_content(text)
        if embed is not None:
            kwargs["embed"] = fit_embed(embed)
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
        elif await self.bank.has_account(guild_id, target):
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
                    claims=fmt.count("claims", len(pending), loc),
                    amount=fmt.amount(sum(c.amount for c in pending), loc, cur),
                )
            )
        if held:
            lines.append(
                t(
                    "bank.balance.held",
                    loc,
                    amount=fmt.amount(sum(c.amount for c in held), loc, cur),
                    claims=fmt.claims_ref(held, loc),
                )
            )
        if target == me and cur:  # the currency's name, explained where a player reads it
            lines.append("-# " + t("bank.currency", loc, currency=cur))
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
                claims=fmt.claims_ref(receipt.paid, gl),
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
                claims=fmt.claims_ref(fresh, gl),
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
        # balances only: a stack on a table holds the casino's welcome stakes and moves
        # with every hand; said, so nobody reads a seated player as poorer than they are
        embed.set_footer(text=t("bank.top.balances_only", loc))
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
        min_casino21_bet=_(
            "Lowest minimum bet a Casino 21 table may set", "cmd.bank_setup.min_casino21_bet"
        ),
        daily_amount=_("The /bank daily pay (0 = off)", "cmd.bank_setup.daily_amount"),
        daily_hours=_("Hours between two daily pays", "cmd.bank_setup.daily_hours"),
    )
    @app_commands.default_permissions(manage_guild=True)
    @app_commands.rename(
        channel=_("channel", "param.channel"),
        claim_approval_limit=_("claim_approval_limit", "param.claim_approval_limit"),
        starting_balance=_("starting_balance", "param.starting_balance"),
        max_welcome_stake=_("max_welcome_stake", "param.max_welcome_stake"),
        max_guarantee_fund=_("max_guarantee_fund", "param.max_guarantee_fund"),
        max_bank_bust_bonus=_("max_bank_bust_bonus", "param.max_bank_bust_bonus"),
        min_casino21_bet=_("min_casino21_bet", "param.min_casino21_bet"),
        daily_amount=_("daily_amount", "param.daily_amount"),
        daily_hours=_("daily_hours", "param.daily_hours"),
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
        min_casino21_bet: app_commands.Range[int, 1, MAX_AMOUNT] | None = None,
        daily_amount: app_commands.Range[int, 0, MAX_AMOUNT] | None = None,
        daily_hours: app_commands.Range[int, 1, MAX_HOURS] | None = None,
    ) -> None:
        """Set the bank channel and, optionally, the money settings and the limits on the
        table options that commit the casino's money."""
        require_admin(interaction)
        guild_id, loc, cur = await self.context(interaction)
        await interaction.response.defer(ephemeral=True, thinking=True)
        hello = t("bank.channel.hello", loc, admin=mention(interaction.user.id))
        try:
            await self.bot.get_partial_messageable(channel.id, guild_id=guild_id).send(
                fit_content(hello), allowed_mentions=NO_PINGS
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
                ("min_casino21_bet", min_casino21_bet),
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
        daily = await self.bot.daily.configure(guild_id, amount=daily_amount, hours=daily_hours)
        await self.channel.set_channel(guild_id, channel.id, loc)
        text = self.setup_text(info, channel.mention, loc, cur)
        await self.reply(interaction, text + "\n" + daily_setup_line(daily, loc, cur))

    @staticmethod
    def setup_text(info: GuildInfo, channel: str, loc: str, cur: str) -> str:
        """What /bank setup answers: the bank's settings and the table limits."""
        approval = (
            t("bank.setup.no_approval", loc)
            if info.claim_approval_limit is None
            else t(
                "bank.setup.approval",
                loc,
                limit=fmt.amount(info.claim_approval_limit, loc, cur),
            )
        )
        done = t(
            "bank.setup.done",
            loc,
            channel=channel,
            start=fmt.amount(info.starting_balance, loc, cur),
            treasury=fmt.amount(info.treasury, loc, cur),
        )
        limits = t(
            "bank.setup.limits",
            loc,
            welcome=fmt.amount(info.max_welcome_stake, loc, cur),
            fund=fmt.amount(info.max_guarantee_fund, loc, cur),
            bonus=fmt.amount(info.max_bank_bust_bonus, loc, cur),
            min_bet=fmt.amount(info.min_casino21_bet, loc, cur),
        )
        return f"{done}\n{approval}\n{limits}"

    async def mint_or_burn(
        self, interaction: discord.Interaction, kind: str, amount: int, user: discord.Member | None
    ) -> None:
        """Mint or burn for a member (the treasury when ``user`` is None), then tell the
        bank channel."""
        require_admin(interaction)
        guild_id, loc, cur = await self.context(interaction)
        if user is not None and user.bot:
            raise TransferToBot("bots hold no money", user_id=user.id)
        target_id = None if user is None else user.id
        if target_id is not None:
            await self.bank.open_account(guild_id, target_id)
        receipt = await self.bank.change_supply(
            kind,
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

    # ================================================================ /bank daily (39.6)

    @bank_group.command(
        name=_("daily", "name.daily"),
        description=_("Collect the server's daily pay", "cmd.bank_daily.description"),
    )
    @answers_refusals
    async def daily(self, interaction: discord.Interaction) -> None:
        """Pay the member the daily pay from the treasury; tell the bank channel."""
        guild_id, loc, cur = await self.context(interaction)
        paid = await self.bot.daily.pay(guild_id, interaction.user.id)
        amount = fmt.amount(paid.amount, loc, cur)
        balance = fmt.amount(paid.balance, loc, cur)
        nxt = f"<t:{int(paid.next_at)}:R>"
        await self.reply(
            interaction, t("bank.daily.done", loc, amount=amount, balance=balance, next=nxt)
        )
        gl = (await self.channel.prefs(guild_id)).locale
        await self.channel.announce(
            guild_id,
            t(
                "bank.channel.daily",
                gl,
                user=mention(interaction.user.id),
                amount=fmt.amount(paid.amount, gl, cur),
                entry=paid.entry_id,
            ),
        )

    mint = supply_command(bank_group, "mint", "Admin: create money for a member (or the treasury)")
    burn = supply_command(bank_group, "burn", "Admin: destroy money of a member (or the treasury)")

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
        name=_("reject", "name.reject"),
        description=_(
            "Admin: reject a claim waiting for approval, with a reason",
            "cmd.bank_reject.description",
        ),
    )
    @app_commands.describe(
        claim_id=_("The claim's number", "cmd.bank_reject.claim_id"),
        reason=_("Why: the player reads it", "cmd.bank_reject.reason"),
    )
    @app_commands.default_permissions(manage_guild=True)
    @app_commands.rename(
        claim_id=_("claim_id", "param.claim_id"), reason=_("reason", "param.reason")
    )
    @answers_refusals
    async def reject(
        self,
        interaction: discord.Interaction,
        claim_id: app_commands.Range[int, 1, MAX_AMOUNT],
        reason: app_commands.Range[str, 1, 300],
    ) -> None:
        """Reject a held claim: its money goes back to the treasury; the player is told."""
        require_admin(interaction)
        guild_id, loc, cur = await self.context(interaction)
        # answered before any other request: the DM below may take a while (issue 36)
        await interaction.response.defer(ephemeral=True, thinking=True)
        line = await self.bank.reject_claim(guild_id, claim_id, interaction.user.id, reason)
        told = await self.tell_rejected(guild_id, line, reason, cur)
        done = t(
            "bank.reject.done",
            loc,
            id=claim_id,
            user=mention(line.user_id),
            amount=fmt.amount(line.amount, loc, cur),
            reason=reason,
        )
        await self.reply(interaction, done if told else f"{done}\n{t('bank.reject.no_dm', loc)}")
        gl = (await self.channel.prefs(guild_id)).locale
        text = t(
            "bank.channel.rejected",
            gl,
            admin=mention(interaction.user.id),
            id=claim_id,
            user=mention(line.user_id),
            amount=fmt.amount(line.amount, gl, cur),
            reason=reason,
        )
        await self.channel.announce(guild_id, text)

    async def tell_rejected(self, guild_id: int, line: ClaimLine, reason: str, cur: str) -> bool:
        """DM the player, in their language, that their claim was rejected; False if the DM
        could not be sent."""
        default = (await self.channel.prefs(guild_id)).locale
        loc = await self.bot.prefs.reader_locale(line.user_id, default)
        text = t(
            "bank.reject.dm",
            loc,
            id=line.claim_id,
            amount=fmt.amount(line.amount, loc, cur),
            reason=reason,
        )
        return await self.bot.publisher.dms.send(
            line.user_id, text, allowed_mentions=discord.AllowedMentions.none()
        )

    @bank_group.command(
        name=_("audit", "name.audit"),
        description=_("Admin: check the books", "cmd.bank_audit.description"),
    )
    @app_commands.describe(
        full=_(
            "Prove every entry from the first (slow on a long history), not only the new ones",
            "cmd.bank_audit.full",
        )
    )
    @app_commands.rename(full=_("full", "param.full"))
    @app_commands.default_permissions(manage_guild=True)
    @answers_refusals
    async def audit(self, interaction: discord.Interaction, full: bool = False) -> None:
        """Prove the ledger since the last audit (``full``: from the first entry), show it."""
        require_admin(interaction)
        guild_id, loc, cur = await self.context(interaction)
        await interaction.response.defer(ephemeral=True, thinking=True)
        report = await self.bank.audit(guild_id, full=full)
        treasury = await self.bank.balance(guild_id, None)
        claims = await self.bank.claims(guild_id)
        lines = [
            t(
                "bank.audit.ok" if report.ok else "bank.audit.failed",
                loc,
                problems=fmt.count("problems", len(report.problems), loc),
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
                floats=fmt.amount(report.floats, loc, cur),
                claims=len(claims),
                held=sum(1 for c in claims if c.status == "held"),
            ),
            t("bank.audit.full", loc)
            if report.full
            else t(
                "bank.audit.incremental",
                loc,
                entries=fmt.count("entries", report.proved, loc),
                after=report.after,
            ),
        ]
        lines += [f"- `{problem}`" for problem in report.problems[:20]]
        await self.reply(interaction, "\n".join(lines))


async def setup(bot: CroupierBot) -> None:
    """Extension entry point."""
    await bot.add_cog(BankCog(bot))
