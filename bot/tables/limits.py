"""The server's limits on the table options that commit the casino's money.

The admins set them with ``/bank setup`` (stored per guild by the bank, migration 0006);
a table is checked once, when it opens, against the limits of that moment:

- Casino 21 ``welcome_stake`` (house -> each new player's seat) <= ``max_welcome_stake``;
- Casino 21 fixed ``bank_bust_bonus`` (house -> seat on every hand still in when the bank
  busts, whatever the bet: 1-unit bets would farm a large bonus) <= ``max_bank_bust_bonus``;
  "half" pays half the bet like a normal win and needs no limit;
- Casino 21 ``wager_requirement`` >= ``welcome_stake``: below it a player could take the
  welcome stake away after betting less than it (0: at once), a free stake per table;
- Sept et demi ``guarantee_fund`` (house -> the table's fund, which pays winners the
  banker cannot pay: colluding players could empty it) <= ``max_guarantee_fund``.

Every other option moves only the players' own money (buy-ins, bets, ``blackjack_pays``
within its three ratios) or game points (Pirate 21).
"""

from __future__ import annotations

from typing import Any

from bot.bank.models import GuildInfo

from .errors import TableError

#: game -> (option, the GuildInfo field that bounds it)
CAPPED: dict[str, tuple[tuple[str, str], ...]] = {
    "casino21": (
        ("welcome_stake", "max_welcome_stake"),
        ("bank_bust_bonus", "max_bank_bust_bonus"),
    ),
    "sept_et_demi": (("guarantee_fund", "max_guarantee_fund"),),
}


def check_limits(game_key: str, options: Any, info: GuildInfo) -> None:
    """Raise a TableError naming the first option the guild's limits do not allow."""
    for option, field in CAPPED.get(game_key, ()):
        value = getattr(options, option, None)
        limit = int(getattr(info, field))
        if isinstance(value, int) and not isinstance(value, bool) and value > limit:
            raise TableError("option_above_limit", option=option, value=value, limit=limit)
    if game_key == "casino21":
        stake, requirement = int(options.welcome_stake), int(options.wager_requirement)
        if requirement < stake:
            raise TableError("wager_below_stake", value=requirement, stake=stake)
