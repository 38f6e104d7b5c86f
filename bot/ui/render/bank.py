"""Text of the bank's replies: amounts, receipts, history lines (no discord objects here)."""

from __future__ import annotations

from collections.abc import Sequence

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


def history_line(item: HistoryItem, locale: str | None, currency: str | None) -> str:
    """One movement: ``#12 · 2024-05-01 20:31 · Claim paid · +100 flouz (table #3)``."""
    when = item.created_at[:16].replace("T", " ")
    where = table_label(item.table_id, locale)
    return t(
        "bank.history.line",
        locale,
        id=item.entry_id,
        when=when,
        kind=kind_label(item.kind, locale),
        amount=signed(item.amount, locale, currency),
        where=f" ({where})" if where else "",
    )


def ids_text(lines: Sequence[ClaimLine]) -> str:
    """``#3, #5``."""
    return ", ".join(f"#{line.claim_id}" for line in lines)
