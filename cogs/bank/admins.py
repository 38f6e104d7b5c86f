"""The admins' /bank commands (Manage Server): setup, mint, burn, approve, reject, audit.

Discord ignores ``default_permissions`` on sub-commands (only a top-level command carries
it), so each also checks Manage Server at run time and refuses with a translated
sentence."""

from __future__ import annotations

from typing import Any, cast

import discord
from discord import app_commands

from bot.bank.daily import MAX_HOURS
from bot.bank.errors import TransferToBot
from bot.bank.models import MAX_AMOUNT, ClaimLine
from bot.discord.answer import answers_refusals
from bot.i18n import t
from bot.ui.limits import fit_content
from bot.ui.render import bank as fmt
from bot.ui.render.daily import daily_setup_line
from bot.ui.translator import _

from .common import NO_PINGS, Amount, BankBase, bank_group, mention, require_admin
from .embeds import receipt_embed, setup_text


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
    command.__qualname__ = f"AdminCommands.{kind}"  # a method: discord.py binds self
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


class AdminCommands(BankBase):
    """/bank for the server's admins: the bank's settings, the money supply, the claims
    waiting for approval, the audit."""

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
        text = setup_text(info, channel.mention, loc, cur)
        await self.reply(interaction, text + "\n" + daily_setup_line(daily, loc, cur))

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
        public = receipt_embed(receipt, gl, cur, title_key="bank.receipt.title")
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
