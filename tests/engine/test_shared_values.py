"""Values the engine shares instead of rebuilding on every move: they must behave exactly
as fresh ones would."""

from __future__ import annotations

import pickle

from bot.engine.base import ActionKind, Phase
from bot.engine.cards import Card, Rank, Suit
from bot.engine.hands import BJTotal, bj_total


def _cards(*ranks: Rank) -> list[Card]:
    return [Card(rank, Suit.SPADES) for rank in ranks]


def test_equal_totals_are_one_shared_immutable_value() -> None:
    soft = bj_total(_cards(Rank.ACE, Rank.SIX))
    assert soft == BJTotal(17, True) and not soft.bust
    assert bj_total(_cards(Rank.SIX, Rank.ACE)) is soft
    hard = bj_total(_cards(Rank.KING, Rank.SIX, Rank.ACE))
    assert hard == BJTotal(17, False) and hard is not soft
    assert bj_total(_cards(Rank.KING, Rank.QUEEN, Rank.FIVE)).bust


def test_enum_members_hash_by_identity_and_still_round_trip() -> None:
    assert Phase("betting") is Phase.BETTING
    kinds = {ActionKind.HIT: "hit", ActionKind.STAND: "stand"}
    assert kinds[ActionKind("hit")] == "hit"
    assert frozenset({ActionKind.HIT, ActionKind.STAND}) == {ActionKind("stand"), ActionKind.HIT}
    assert pickle.loads(pickle.dumps(Phase.PLAYING)) is Phase.PLAYING
