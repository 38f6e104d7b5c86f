"""Amounts people type (the "Other amount..." bet, and any typed amount): one parser.

Accepted: ASCII digits only (``250``), optionally grouped by thousands with ONE kind of
separator used throughout: a comma (``1,000``), a dot (``1.000``), a space (``1 000``), a
no-break space U+00A0 or a narrow no-break space U+202F (``1 000``: what French
typography and Discord clients on a French system write). Groups after the first have
exactly three digits, so ``1,5`` or ``1.50`` (decimals) are refused, not guessed.

Refused: any other character, including other scripts' digits (``٣٠``), superscripts
(``²``) and fractions, which ``str.isdigit`` would let through; and values outside
1..MAX_AMOUNT (``0``, ``-5``, or more than the bank can hold).
"""

from __future__ import annotations

import re

from bot.bank.models import MAX_AMOUNT
from bot.errors import UserError

SEPARATORS = (",", ".", " ", "\u00a0", "\u202f")
_PLAIN = re.compile(r"[0-9]+", re.ASCII)
_GROUPED = tuple(
    re.compile(rf"[1-9][0-9]{{0,2}}(?:{re.escape(sep)}[0-9]{{3}})+", re.ASCII) for sep in SEPARATORS
)
MAX_TYPED = 32  # characters the amount field takes (MAX_AMOUNT grouped is 21)


def _digits(text: str) -> str | None:
    if _PLAIN.fullmatch(text):
        return text
    for sep, grouped in zip(SEPARATORS, _GROUPED, strict=True):
        if grouped.fullmatch(text):
            return text.replace(sep, "")
    return None


def parse_whole(text: str) -> int:
    """The whole number typed in ``text``, zero or negative too (a bet's range is the
    game's to say, in its own terms), or a :class:`UserError` if it is not one."""
    typed = text.strip()
    negative = typed[:1] in ("-", "\u2212")  # a hyphen or a minus sign
    digits = _digits(typed[1:] if negative else typed)
    if digits is None:
        raise UserError("table.error.amount_not_number")
    return -int(digits) if negative else int(digits)


def parse_amount(text: str, *, minimum: int = 1, maximum: int = MAX_AMOUNT) -> int:
    """The whole amount typed in ``text``, or a :class:`UserError` saying what is wrong."""
    typed = text.strip()
    value = parse_whole(typed)
    if not minimum <= value <= maximum:
        raise UserError("table.error.amount_out_of_range", min=minimum, max=maximum, value=typed)
    return value
