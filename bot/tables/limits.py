"""The server's limits on the table options that commit the casino's money.

The admins set them with ``/bank setup`` (stored per guild by the bank, migration 0006);
a table is checked once, when it opens, against the limits of that moment. Which options
they bound is declared with the options themselves (``OptionSpec.cap`` names the limit,
``OptionSpec.floor`` a limit it may not be below, ``OptionSpec.open_at_least`` an option
it may not be below): Casino 21's welcome stake and fixed bank-bust bonus, its minimum bet
(the fixed bonus is a faucet on small bets), its wagering requirement (at least the
welcome stake, or the stake could be taken away without a bet), Sept et demi's guarantee
fund. Every other option moves only the players' own money or game points.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeGuard

from bot.bank.models import GuildInfo
from bot.engine.options import OptionSpec

from .errors import TableError


def _is_int(value: object) -> TypeGuard[int]:
    return isinstance(value, int) and not isinstance(value, bool)


def check_limits(specs: tuple[OptionSpec, ...], values: Mapping[str, Any], info: GuildInfo) -> None:
    """Raise a TableError naming the first option the guild's limits do not allow."""
    for spec in specs:
        value = values.get(spec.name)
        if spec.cap is not None and _is_int(value):
            limit = int(getattr(info, spec.cap))
            if value > limit:
                raise TableError("option_above_limit", option=spec.name, value=value, limit=limit)
        if spec.floor is not None and _is_int(value):
            limit = int(getattr(info, spec.floor))
            if value < limit:
                raise TableError("option_below_limit", option=spec.name, value=value, limit=limit)
    for spec in specs:
        if spec.open_at_least is None:
            continue
        other, code = spec.open_at_least
        value, floor = values.get(spec.name), values.get(other)
        if _is_int(value) and _is_int(floor) and value < floor:
            raise TableError(code, value=value, other=other, other_value=floor)
