"""The table history's bookkeeping (bot/tables/history.py): which round a deck deals first
and last whatever order a game emits its events in, what a hidden event leaves out, and
one row per deck a move touches."""

from __future__ import annotations

from typing import Any

from bot.engine.base import ROUND_SETTLED, Event, Visibility
from bot.engine.events import ROUND_STARTED, SEED_REVEALED, SHUFFLE
from bot.tables.history import Deck, chronicle, statements


def shuffle(commitment: str) -> Event:
    return Event(SHUFFLE, data={"commitment": commitment, "spec": "std52", "number": 1})


def reveal(commitment: str) -> Event:
    return Event(SEED_REVEALED, data={"commitment": commitment, "spec": "std52", "seed": "ab"})


def started(n: int) -> Event:
    return Event(ROUND_STARTED, data={"round": n})


def settled(n: int) -> Event:
    return Event(ROUND_SETTLED, data={"round": n})


def summarize(_table: Any, _events: list[Event], event: Event) -> dict[str, str]:
    return {"en": f"round {event.data['round']}"}


def test_a_deck_shuffled_before_or_after_its_rounds_start_deals_from_that_round() -> None:
    # Black Jack: the shoe before the round's start; Casino 21: after it
    blackjack = chronicle(None, [settled(1), reveal("a"), shuffle("b"), started(2)], 1, 0.0, None)
    casino = chronicle(None, [settled(1), reveal("a"), started(2), shuffle("b")], 1, 0.0, None)
    for done in (blackjack, casino):
        assert done.revealed == [Deck("a", "std52", None, 1, "ab")]  # its last round: 1
        assert done.shuffled == [Deck("b", "std52", 2)]
        assert [r.number for r in done.rounds] == [1]
    # a refill mid-round deals from the round being played
    refill = chronicle(None, [shuffle("c")], 4, 0.0, None)
    assert refill.shuffled == [Deck("c", "std52", 4)]


def test_private_events_are_left_out_and_the_summary_is_kept() -> None:
    hidden = Event(SHUFFLE, Visibility.PRIVATE, 7, {"commitment": "x", "spec": "std52"})
    done = chronicle(None, [hidden, settled(3)], 3, 12.5, summarize)
    assert not done.shuffled
    assert [(r.number, r.summary, r.at) for r in done.rounds] == [(3, {"en": "round 3"}, 12.5)]
    assert not chronicle(None, [started(4)], 3, 0.0, None)


def test_a_deck_committed_and_revealed_by_one_move_is_one_row() -> None:
    done = chronicle(None, [started(2), shuffle("d"), settled(2), reveal("d")], 1, 0.0, None)
    rows = statements(9, done)
    decks = [params for sql, params in rows if "table_decks" in sql]
    assert decks == [(9, "d", "std52", 2, 2, "ab")]
    assert [params[:2] for sql, params in rows if "table_rounds" in sql] == [(9, 2)]


def test_a_deck_deals_in_the_rounds_between_its_first_and_last() -> None:
    deck = Deck("e", "std52", 2, 4, "ab")
    assert [deck.dealt(n) for n in range(1, 6)] == [False, True, True, True, False]
    assert Deck("f", "std52", 3).dealt(9)  # still in play
    assert not Deck("g", "std52", None, 5, "ab").dealt(5)  # a spare: dealt in no round
