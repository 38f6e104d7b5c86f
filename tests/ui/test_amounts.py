"""The one parser of typed amounts: ASCII digits, optional thousands separators."""

from __future__ import annotations

import pytest

from bot.bank.models import MAX_AMOUNT
from bot.errors import UserError
from bot.i18n import t
from bot.ui.amounts import parse_amount
from bot.ui.errors import refusal_text

NBSP, NNBSP = "\u00a0", "\u202f"


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("1", 1),
        ("250", 250),
        (" 30 ", 30),
        ("007", 7),
        ("1,000", 1000),
        ("1.000", 1000),
        ("1 000", 1000),
        (f"1{NBSP}000", 1000),
        (f"12{NNBSP}345{NNBSP}678", 12_345_678),
        ("9,007,199,254,740,991", MAX_AMOUNT),
        (str(MAX_AMOUNT), MAX_AMOUNT),
    ],
)
def test_accepted(text: str, value: int) -> None:
    assert parse_amount(text) == value


@pytest.mark.parametrize(
    "text",
    [
        "",
        "   ",
        "lots",
        "²",  # str.isdigit() says yes, int() says no: it crashed the interaction
        "2²",
        "٣٠",  # Arabic-Indic digits: int() reads 30
        "３０",  # fullwidth digits
        "½",
        "1,5",  # a decimal, not a thousands group
        "1.50",
        "1,0000",
        "1,000.000",  # two kinds of separator
        "1, 000",
        "1 000 00",
        ",100",
        "0,100",
        "1_000",
        "+5",
        "1e3",
        "10 flouz",
        "--5",
    ],
)
def test_refused_as_not_a_number(text: str) -> None:
    with pytest.raises(UserError) as err:
        parse_amount(text)
    assert err.value.key == "table.error.amount_not_number"


@pytest.mark.parametrize("text", ["0", "000", "-5", "−5", "-1,000", str(MAX_AMOUNT + 1), "9" * 30])
def test_refused_as_out_of_range(text: str) -> None:
    with pytest.raises(UserError) as err:
        parse_amount(text)
    assert err.value.key == "table.error.amount_out_of_range"
    assert err.value.params == {"min": 1, "max": MAX_AMOUNT, "value": text}


@pytest.mark.parametrize(
    ("text", "en", "fr"),
    [
        (
            "²",
            "Type a whole number with the digits 0 to 9, e.g. 250 or 1,000.",
            "Tapez un nombre entier avec les chiffres 0 à 9, par ex. 250 ou 1\u00a0000.",
        ),
        (
            "0",
            f"The amount must be from 1 to {MAX_AMOUNT} (got 0).",
            f"Le montant doit aller de 1 à {MAX_AMOUNT} (valeur donnée\u00a0: 0).",
        ),
    ],
)
def test_refusals_read_in_both_languages(text: str, en: str, fr: str) -> None:
    with pytest.raises(UserError) as err:
        parse_amount(text)
    assert refusal_text(err.value, "en") == en
    assert refusal_text(err.value, "fr") == fr
    assert t(err.value.key, "fr") != t(err.value.key, "en")
