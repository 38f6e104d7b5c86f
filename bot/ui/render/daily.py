"""The daily pay's lines (``/bank setup``, ``/bank daily``)."""

from __future__ import annotations

from bot.bank.models import DailySettings
from bot.i18n import t
from bot.ui.render import bank as fmt


def daily_setup_line(daily: DailySettings, locale: str, currency: str) -> str:
    """What /bank setup says of the daily pay: off, or the amount and its period."""
    if daily.amount == 0:
        return t("bank.setup.daily_off", locale)
    amount = fmt.amount(daily.amount, locale, currency)
    return t("bank.setup.daily", locale, amount=amount, hours=daily.hours)
