"""The players' /bank commands: balance, claim, history, top, give."""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands

from bot.bank.errors import SelfTransfer, TransferToBot
from bot.discord.answer import answers_refusals
from bot.i18n import t
from bot.ui.render import bank as fmt
from bot.ui.translator import _

from .common import Amount, BankBase, bank_group, mention
from .embeds import receipt_embed

HISTORY_PAGE = 10
TOP_SIZE = 10


class PlayerCommands(BankBase):
    """/bank for every member: their balance and claims, the leaderboard, transfers."""

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
        embed = receipt_embed(receipt, loc, cur, title_key="bank.receipt.title")
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
            public = receipt_embed(receipt, gl, cur, title_key="bank.receipt.title")
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
