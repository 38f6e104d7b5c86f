"""The casino bank on Discord: /bank for players and admins, and the bank channel.

Player commands (``players.py``): balance, claim, history, top, give. Admin commands
(``admins.py``, Manage Server): setup, mint, burn, approve, reject, audit. What they show
beyond a line: ``embeds.py``. One ``/bank`` group (``common.py``) holds them all: the cog is
the two audiences' classes together.

The bank channel (the forum's "topic de banque", ``guild_settings.bank_channel_id``) gets
the claim receipts, the admins' approvals, mints and burns: ``bot.bank_channel``
(bot/bank_channel.py), which also posts the tables' own funds added and forfeits.
"""

from __future__ import annotations

from bot.app import CroupierBot

# the players' sub-commands first: /bank lists them (and /help) in the order they are made
from .players import PlayerCommands

# isort: split
from .admins import AdminCommands


class BankCog(PlayerCommands, AdminCommands, name="Bank"):
    """/bank: balances, claims, transfers, and the admins' tools."""


async def setup(bot: CroupierBot) -> None:
    """Extension entry point."""
    await bot.add_cog(BankCog(bot))
