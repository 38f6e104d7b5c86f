"""Blackjack hand valuation: soft/hard totals, blackjack detection, split by value."""

from __future__ import annotations

import pytest

from bot.engine.cards import Card
from bot.engine.hands import bj_total, bj_value, is_blackjack, same_value


def cards(*codes: str) -> list[Card]:
    return [Card.parse(c) for c in codes]


@pytest.mark.parametrize(
    ("codes", "value", "soft"),
    [
        (("AS", "6H"), 17, True),
        (("AS", "6H", "TD"), 17, False),
        (("AS", "AH"), 12, True),
        (("AS", "AH", "AD", "AC"), 14, True),
        (("AS", "AH", "9D"), 21, True),
        (("AS", "AH", "9D", "KC"), 21, False),
        (("TS", "6H"), 16, False),
        (("KS", "QH", "2D"), 22, False),
        (("5S", "6H"), 11, False),
        (("AS", "KH"), 21, True),
        (("AS", "5H", "5D"), 21, True),
        (("9S", "AH", "AD"), 21, True),
        (("9S", "7H", "AD"), 17, False),
        ((), 0, False),
    ],
)
def test_totals(codes: tuple[str, ...], value: int, soft: bool) -> None:
    total = bj_total(cards(*codes))
    assert (total.value, total.soft) == (value, soft)
    assert total.bust == (value > 21)


@pytest.mark.parametrize(
    ("codes", "expected"),
    [
        (("AS", "KH"), True),
        (("TD", "AC"), True),
        (("JS", "AH"), True),
        (("AS", "5H", "5D"), False),  # 21 in three cards
        (("KS", "QH"), False),
        (("AS", "AH"), False),
    ],
)
def test_blackjack_detection(codes: tuple[str, ...], expected: bool) -> None:
    assert is_blackjack(cards(*codes)) is expected


@pytest.mark.parametrize(
    ("a", "b", "expected"),
    [
        ("KS", "TH", True),  # same value, different ranks
        ("QS", "JD", True),
        ("8S", "8H", True),
        ("AS", "AD", True),
        ("9S", "TH", False),
        ("AS", "TH", False),
    ],
)
def test_split_eligibility_by_value(a: str, b: str, expected: bool) -> None:
    assert same_value(Card.parse(a), Card.parse(b)) is expected


def test_card_values() -> None:
    assert [bj_value(Card.parse(c)) for c in ("AS", "2H", "9D", "TC", "JS", "QH", "KD")] == [
        1,
        2,
        9,
        10,
        10,
        10,
        10,
    ]
