"""What the /bank commands show: the claim receipt (an embed, in the answer and in the bank
channel) and the texts longer than a line (``/bank setup``'s and ``/bank audit``'s)."""

from __future__ import annotations

import discord

from bot.bank.models import ClaimReceipt, GuildInfo
from bot.i18n import t
from bot.ui.render import bank as fmt

from .common import mention


def receipt_embed(
    receipt: ClaimReceipt, locale: str, currency: str, *, title_key: str
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
