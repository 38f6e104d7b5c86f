"""Seed reveals with client seeds fit Discord messages (2,000 characters): each reveal of a
shoe with eight 64-character client seeds, and several at once split into messages."""

from __future__ import annotations

from bot.i18n import SUPPORTED, t
from bot.ui.render.common import MESSAGE_LIMIT, reveal_blocks


def longest_reveal(locale: str) -> str:
    seeds = " ".join(str(n) * 64 for n in range(1, 9))  # eight seated players
    line = t("fairness.seed_revealed", locale, seed="a" * 64, commitment="b" * 64, deck="std52*8")
    return line + "\n" + t("fairness.seed_revealed.clients", locale, shoe=999_999, seeds=seeds)


def test_one_reveal_fits_twice_in_a_message() -> None:
    for locale in SUPPORTED:
        assert 2 * len(longest_reveal(locale)) + 1 <= MESSAGE_LIMIT


def test_several_reveals_are_split_whole_into_messages() -> None:
    reveals = [longest_reveal("fr").replace("a" * 64, f"{n:064x}") for n in range(5)]
    blocks = reveal_blocks(reveals)
    assert len(blocks) == 3 and all(len(b) <= MESSAGE_LIMIT for b in blocks)
    assert "\n".join(blocks) == "\n".join(reveals)  # every reveal, whole, in order
    assert reveal_blocks(["short"]) == ["short"]
