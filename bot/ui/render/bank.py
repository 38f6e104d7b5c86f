"""Text of the bank's replies: amounts, receipts, history lines (no discord objects here)."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime

from bot.bank.models import ClaimLine, ClaimReceipt, HistoryItem
from bot.i18n import has, normalize, t

DEFAULT_CURRENCY = "flouz"
NBSP = "\u00a0"


def amount(value: int, locale: str | None, currency: str | None = DEFAULT_CURRENCY) -> str:
    """``1,234 flouz`` in English, ``1 234 flouz`` in French (non-breaking spaces)."""
    sign = "-" if value < 0 else ""
    digits = f"{abs(value):,}"
    if normalize(locale) == "fr":
        digits = digits.replace(",", NBSP)
    text = f"{sign}{digits}"
    return f"{text}{NBSP}{currency}" if currency else text


def signed(value: int, locale: str | None, currency: str | None = DEFAULT_CURRENCY) -> str:
    """An amount with its sign: ``+100 flouz`` / ``-10 flouz``."""
    return ("+" if value > 0 else "") + amount(value, locale, currency)


def kind_label(kind: str, locale: str | None) -> str:
    """The translated name of a ledger entry kind."""
    key = f"bank.kind.{kind}"
    return t(key, locale) if has(key) else kind


def table_label(table_id: int | None, locale: str | None) -> str:
    """``table #12`` (empty without a table)."""
    return "" if table_id is None else t("bank.table_ref", locale, table=table_id)


def claim_line(line: ClaimLine, locale: str | None, currency: str | None) -> str:
    """One paid claim of a receipt."""
    where = table_label(line.table_id, locale)
    return t(
        "bank.claim.paid_line",
        locale,
        id=line.claim_id,
        amount=amount(line.amount, locale, currency),
        where=f" ({where})" if where else "",
    )


def held_line(line: ClaimLine, locale: str | None, currency: str | None) -> str:
    """One claim waiting for an admin's approval."""
    return t(
        "bank.claim.held_line",
        locale,
        id=line.claim_id,
        amount=amount(line.amount, locale, currency),
    )


def receipt_lines(receipt: ClaimReceipt, locale: str | None, currency: str | None) -> list[str]:
    """The body of a claim receipt: paid claims, the total and new balance, held claims."""
    lines = [claim_line(line, locale, currency) for line in receipt.paid]
    if receipt.paid:
        lines.append(
            t(
                "bank.claim.total",
                locale,
                amount=amount(receipt.total, locale, currency),
                balance=amount(receipt.balance, locale, currency),
            )
        )
    else:
        lines.append(t("bank.claim.nothing_paid", locale))
    if receipt.held:
        lines.append(t("bank.claim.held_title", locale, n=len(receipt.held)))
        lines += [held_line(line, locale, currency) for line in receipt.held]
    return lines


# the mints a player's history shows, by their reason: not an admin's doing
MINT_REASONS = {"starting balance": "starting_balance", "initial treasury": "initial_treasury"}


def history_line(item: HistoryItem, locale: str | None, currency: str | None) -> str:
    """One movement: ``<date> — Buy-in at table #3: **-100 flouz** (entry #12)``; the
    date is a Discord timestamp, shown in each reader's own time zone and language."""
    kind = item.kind
    if kind == "mint":
        kind = MINT_REASONS.get(item.reason or "", kind)
    elif kind == "transfer" and item.reason == "daily pay":  # bot.bank.daily's entries
        kind = "daily_pay"
    where = ""
    if item.table_id is not None:
        where = " " + t("bank.history.at_table", locale, table=item.table_id)
    return t(
        "bank.history.line",
        locale,
        id=item.entry_id,
        when=when_text(item.created_at),
        kind=kind_label(kind, locale),
        amount=signed(item.amount, locale, currency),
        where=where,
    )


def when_text(created_at: str) -> str:
    """A stored UTC time as a Discord timestamp (``<t:…:f>``), else as written."""
    try:
        moment = datetime.fromisoformat(created_at.replace("Z", "+00:00"))
    except ValueError:
        return created_at[:16].replace("T", " ")
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    return f"<t:{int(moment.timestamp())}:f>"


def ids_text(lines: Sequence[ClaimLine]) -> str:
    """``#3, #5``."""
    return ", ".join(f"#{line.claim_id}" for line in lines)


def count(what: str, n: int, locale: str | None) -> str:
    """``one claim`` / ``3 claims`` (keys ``count.<what>.one|other``)."""
    return t(f"count.{what}.{'one' if n == 1 else 'other'}", locale, n=n)


def claims_ref(lines: Sequence[ClaimLine], locale: str | None) -> str:
    """``claim #3`` / ``claims #3, #5``."""
    form = "one" if len(lines) == 1 else "other"
    return t(f"count.claim_ids.{form}", locale, ids=ids_text(lines))
