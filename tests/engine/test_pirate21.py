"""Pirate 21: options, lobby, and golden scripted games for every showdown case and every
end condition of both variants (piles rigged with the engine's TEST HOOK)."""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import pytest

from bot.engine.base import (
    Action,
    ActionKind,
    DeadlineKind,
    Event,
    IllegalAction,
    Phase,
    Visibility,
)
from bot.engine.cards import build_pirate_deck, pirate54
from bot.engine.cards import parse_pirate_deck as parse_deck
from bot.engine.games.pirate21 import Pirate21
from bot.engine.shuffle import commitment, seeded_entropy, shuffled, verify
from bot.engine.summaries import PirateRound
from bot.engine.views import as_dict

A = ActionKind
ALL_CODES = [c.code for c in pirate54()]


# ---------------------------------------------------------------------------- helpers


def table(n: int, label: str = "t", **options: Any) -> Pirate21:
    """A lobby with players 1..n joined in order (1 is the host)."""
    game = Pirate21.create(1, options, seeded_entropy(label))
    for p in range(2, n + 1):
        game.apply(Action(A.JOIN, p))
    return game


def deal(
    order: Sequence[int], hands: Mapping[int, Sequence[str]], draws: Iterable[str] = ()
) -> list[str]:
    """One round's pile segment: first cards in seat order, second cards, then HIT cards."""
    return [hands[p][0] for p in order] + [hands[p][1] for p in order] + list(draws)


def filler(used: Iterable[str], n: int) -> list[str]:
    """n codes of the 54-card deck not in ``used`` (small ranks first to avoid 21s)."""
    taken = set(used)
    return [c for c in ALL_CODES if c not in taken][:n]


def rigged(n: int, pile: Sequence[str], **options: Any) -> tuple[Pirate21, list[Event]]:
    """A started game whose pile is exactly ``pile`` (TEST HOOK)."""
    game = table(n, **options)
    game.rig(list(pile), only=True)
    return game, game.apply(Action(A.START, 1))


def play(game: Pirate21, script: Mapping[int, int]) -> list[Event]:
    """Play one round: each player hits script[p] times (stopping on a bust), then stands."""
    events: list[Event] = []
    start = game.round
    while game.round == start and game.to_act is not None:
        p = game.to_act
        hits = 0
        while game.to_act == p and game.round == start and hits < script.get(p, 0):
            events += game.apply(Action(A.HIT, p))
            hits += 1
        if game.to_act == p and game.round == start:
            events += game.apply(Action(A.STAND, p))
    return events


def kinds(events: Iterable[Event]) -> list[str]:
    return [e.kind for e in events if e.visibility is Visibility.PUBLIC]


def only(events: Iterable[Event], kind: str) -> dict[str, Any]:
    found = [e for e in events if e.kind == kind]
    assert len(found) == 1, (kind, [e.kind for e in events])
    return dict(found[0].data)


def total_coins(game: Pirate21) -> int:
    return game.treasure + game.pot + sum(game.coins.values())


def payouts(result: Mapping[str, Any]) -> dict[int, int]:
    return {d["player"]: d["coins"] for d in result["payouts"]}


ORDER3 = [2, 3, 1]  # 3 players, the host (1) deals and plays last


# ---------------------------------------------------------------------------- options


def test_deck_option_forms() -> None:
    default = {"numbers": 36, "pirates": 14, "flags": 4}
    for value in (None, "pirate54", "", "36/14/4", "numbers=36", default):
        assert parse_deck(value) == default
    assert parse_deck("72/28/8") == {"numbers": 72, "pirates": 28, "flags": 8}
    assert parse_deck("flags=8, pirates=0") == {"numbers": 36, "pirates": 0, "flags": 8}
    assert parse_deck({"numbers": "20"}) == {"numbers": 20, "pirates": 14, "flags": 4}
    assert build_pirate_deck(default) == pirate54()
    deck = build_pirate_deck({"numbers": 40, "pirates": 15, "flags": 5})
    assert len(deck) == 60
    assert sum(c.code[0] == "A" for c in deck) == 5
    assert sum(c.code[0] in "JQKX" for c in deck) == 15
    assert sorted(
        c.code for c in build_pirate_deck({"numbers": 72, "pirates": 28, "flags": 8})
    ) == sorted(ALL_CODES * 2)


def test_custom_deck_is_used_and_published() -> None:
    game = table(2, deck="8/0/0")
    events = game.apply(Action(A.START, 1))
    shuffle = only(events, "shuffle")
    assert shuffle["spec"] == "pirate:8/0/0" and shuffle["size"] == 8
    pile = game.shoe.order
    assert all(c.code[0] in "23456789" for c in pile)
    assert game.public_view().own.pile == 4
    # the spec is what `verify` takes: it reprints this pile
    seed = only(game.apply(Action(A.CLOSE)), "seed_revealed")
    assert seed["spec"] == "pirate:8/0/0" and seed["commitment"] == shuffle["commitment"]
    assert verify(seed["seed"], seed["commitment"], seed["spec"]) == pile


# ---------------------------------------------------------------------------- lobby


def test_lobby_rules() -> None:
    game = Pirate21.create(1, {}, seeded_entropy("lobby"))
    assert game.phase is Phase.LOBBY and game.players == [1]
    assert A.START not in game.legal_actions(1)
    with pytest.raises(IllegalAction) as err:
        game.apply(Action(A.START, 1))
    assert err.value.code == "not_enough_players"
    with pytest.raises(IllegalAction) as err:
        game.apply(Action(A.JOIN, 2, amount=50))
    assert err.value.code == "no_buy_in"
    game.apply(Action(A.JOIN, 2, amount=0))
    with pytest.raises(IllegalAction) as err:
        game.apply(Action(A.JOIN, 2))
    assert err.value.code == "already_seated"
    with pytest.raises(IllegalAction) as err:
        game.apply(Action(A.START, 2))
    assert err.value.code == "not_host"
    with pytest.raises(IllegalAction) as err:
        game.apply(Action(A.LEAVE, 1))
    assert err.value.code == "host_cannot_leave"
    for p in range(3, 9):
        game.apply(Action(A.JOIN, p))
    assert A.JOIN not in game.legal_actions(9)
    with pytest.raises(IllegalAction) as err:
        game.apply(Action(A.JOIN, 9))
    assert err.value.code == "table_full"
    game.apply(Action(A.LEAVE, 8))
    assert game.players == [1, 2, 3, 4, 5, 6, 7]
    assert game.legal_actions(2) == {A.LEAVE}
    assert game.legal_actions(1) == {A.START}
    game.apply(Action(A.START, 1))
    with pytest.raises(IllegalAction) as err:
        game.apply(Action(A.JOIN, 9))
    assert err.value.code == "wrong_phase"
    with pytest.raises(IllegalAction) as err:
        game.apply(Action(A.LEAVE, 2))
    assert err.value.code == "wrong_phase"


def test_dealer_option_and_seat_order() -> None:
    game = table(5, dealer=3)
    events = game.apply(Action(A.START, 1))
    started = only(events, "game_started")
    assert started["dealer"] == 3 and started["order"] == [4, 5, 1, 2, 3]
    assert game.to_act == 4 and game.deadline.kind is DeadlineKind.TURN
    assert game.public_view().own.dealer == 3
    default = table(3)
    default.apply(Action(A.START, 1))
    assert default.seated() == [2, 3, 1] and default.to_act == 2
    absent = table(3, dealer=99)
    assert A.START not in absent.legal_actions(1)
    with pytest.raises(IllegalAction) as err:
        absent.apply(Action(A.START, 1))
    assert err.value.code == "dealer_not_seated"


def test_start_events_and_private_deal() -> None:
    game = table(3, "start")
    events = game.apply(Action(A.START, 1))
    assert kinds(events) == ["game_started", "shuffle", "round_started", "deal", "turn"]
    private = [e for e in events if e.visibility is Visibility.PRIVATE]
    assert [e.player for e in private] == [2, 3, 1]
    assert all(e.kind == "cards" and len(e.data["cards"]) == 2 for e in private)
    shuffle = only(events, "shuffle")
    assert shuffle["spec"] == "pirate54" and shuffle["size"] == 54
    assert "next_commitment" not in shuffle  # one pile for the whole standard game
    started = only(events, "round_started")
    assert started["pot"] == 1 and started["treasure"] == 9
    view = game.public_view()
    assert [s.hidden for s in view.seats] == [2, 2, 2]
    assert view.own.pile == 48 and view.to_act == 2
    mine = game.private_view(2).you.own
    assert list(mine.cards) == private[0].data["cards"]
    assert list(game.private_view(3).you.own.cards) == private[1].data["cards"]


def test_turn_errors_and_timeout() -> None:
    game = table(3, "turns")
    game.apply(Action(A.START, 1))
    with pytest.raises(IllegalAction) as err:
        game.apply(Action(A.HIT, 3))
    assert err.value.code == "not_your_turn"
    with pytest.raises(IllegalAction) as err:
        game.apply(Action(A.TIMEOUT, 2))
    assert err.value.code == "system_only"
    with pytest.raises(IllegalAction) as err:
        game.apply(Action(A.BET, 2, amount=1))
    assert err.value.code == "unknown_action"
    assert game.legal_actions(2) == {A.HIT, A.STAND}
    assert game.legal_actions(3) == frozenset()
    assert game.legal_actions(None) == {A.TIMEOUT, A.CLOSE}
    events = game.apply(Action(A.TIMEOUT))
    assert kinds(events) == ["timeout", "stand", "turn"]
    assert game.to_act == 3


# ---------------------------------------------------------------------------- standard showdowns


def test_single_winner_takes_the_pot() -> None:
    hands = {2: ["TS", "9H"], 3: ["8C", "7D"], 1: ["5S", "5H"]}
    r1 = deal(ORDER3, hands, ["2C", "KD"])
    game, _ = rigged(3, r1 + filler(r1, 20))
    events = play(game, {2: 0, 3: 1, 1: 1})
    show = only(events, "showdown")
    assert [(h["player"], h["total"], h["bust"]) for h in show["hands"]] == [
        (2, 19, False),
        (3, 17, False),
        (1, 20, False),
    ]
    result = only(events, "round_settled")
    assert result["outcome"] == "win" and result["winners"] == [1]
    assert payouts(result) == {1: 1}
    assert game.coins == {1: 1, 2: 0, 3: 0}
    assert game.round == 2 and game.pot == 1 and game.treasure == 8
    assert total_coins(game) == 10
    last = game.public_view().last_round
    assert isinstance(last, PirateRound) and last.winners == (1,) and last.round == 1
    assert [(h.player, h.total) for h in last.hands] == [(2, 19), (3, 17), (1, 20)]


def test_tie_below_21_is_void_and_the_pot_grows() -> None:
    r1 = deal(ORDER3, {2: ["TS", "9H"], 3: ["TC", "9D"], 1: ["5S", "5H"]})
    r2 = deal(ORDER3, {2: ["2S", "3S"], 3: ["KC", "8D"], 1: ["4S", "6S"]})
    game, _ = rigged(3, r1 + r2 + filler(r1 + r2, 20))
    events = play(game, {})
    result = only(events, "round_settled")
    assert result["outcome"] == "tie" and result["void"] and result["winners"] == [2, 3]
    assert payouts(result) == {}
    started = only(events, "round_started")
    assert started["pot"] == 2 and started["treasure"] == 8
    events = play(game, {})
    result = only(events, "round_settled")
    assert result["outcome"] == "win" and payouts(result) == {3: 2}
    assert game.void_rounds == 1 and total_coins(game) == 10


def test_everyone_bust_is_void() -> None:
    hands = {2: ["TS", "9H"], 3: ["TC", "8D"], 1: ["KS", "QH"]}
    r1 = deal(ORDER3, hands, ["5S", "6S", "7S"])
    game, _ = rigged(3, r1 + filler(r1, 20))
    events = play(game, {2: 1, 3: 1, 1: 1})
    show = only(events, "showdown")
    assert all(h["bust"] for h in show["hands"])
    result = only(events, "round_settled")
    assert result["outcome"] == "all_bust" and result["void"]
    assert game.pot == 2 and game.treasure == 8 and sum(game.coins.values()) == 0


def test_ties_at_21_pay_one_each_and_two_for_a_blackjack() -> None:
    hands = {2: ["AS", "KH"], 3: ["7C", "7D"], 1: ["9S", "9H"]}
    r1 = deal(ORDER3, hands, ["7H"])
    game, _ = rigged(3, r1 + filler(r1, 20))
    events = play(game, {3: 1})
    show = only(events, "showdown")
    assert [h["blackjack"] for h in show["hands"]] == [True, False, False]
    result = only(events, "round_settled")
    assert result["outcome"] == "tie21" and payouts(result) == {2: 2, 3: 1}
    # pot 1 paid first, then 2 coins from the treasure (9 -> 7); the next round adds one
    assert result["pot"] == 0 and result["treasure"] == 7
    assert game.treasure == 6 and game.pot == 1 and total_coins(game) == 10


def test_ties_at_21_return_the_rest_of_the_pot_to_the_treasure() -> None:
    r1 = deal(ORDER3, {2: ["TS", "9H"], 3: ["TC", "9D"], 1: ["5S", "5H"]})
    r2 = deal(ORDER3, {2: ["TD", "8H"], 3: ["KC", "8D"], 1: ["4S", "6S"]})
    r3 = deal(ORDER3, {2: ["7C", "7D"], 3: ["8C", "6H"], 1: ["2S", "3S"]}, ["7H", "7S"])
    game, _ = rigged(3, r1 + r2 + r3 + filler(r1 + r2 + r3, 20))
    play(game, {})
    play(game, {})
    assert game.pot == 3 and game.treasure == 7
    events = play(game, {2: 1, 3: 1})
    result = only(events, "round_settled")
    assert result["outcome"] == "tie21" and payouts(result) == {2: 1, 3: 1}
    assert result["pot"] == 0 and result["treasure"] == 8
    assert total_coins(game) == 10


def test_single_blackjack_takes_two_coins() -> None:
    hands = {2: ["AS", "KH"], 3: ["TC", "9D"], 1: ["5S", "5H"]}
    r1 = deal(ORDER3, hands)
    game, _ = rigged(3, r1 + filler(r1, 20))
    events = play(game, {})
    result = only(events, "round_settled")
    assert result["outcome"] == "win" and payouts(result) == {2: 2}
    assert result["treasure"] == 8 and game.coins[2] == 2


def test_single_blackjack_with_a_big_pot_takes_the_pot() -> None:
    r1 = deal(ORDER3, {2: ["TS", "9H"], 3: ["TC", "9D"], 1: ["5S", "5H"]})
    r2 = deal(ORDER3, {2: ["AS", "KH"], 3: ["TD", "9C"], 1: ["4S", "6S"]})
    game, _ = rigged(3, r1 + r2 + filler(r1 + r2, 20))
    play(game, {})
    events = play(game, {})
    assert payouts(only(events, "round_settled")) == {2: 2}  # pot 2, nothing added
    assert game.treasure == 7


def test_single_plain_21_takes_just_the_pot() -> None:
    r1 = deal(ORDER3, {2: ["7C", "7D"], 3: ["TC", "9D"], 1: ["5S", "5H"]}, ["7H"])
    game, _ = rigged(3, r1 + filler(r1, 20))
    events = play(game, {2: 1})
    result = only(events, "round_settled")
    assert result["outcome"] == "win" and payouts(result) == {2: 1}


def test_short_treasure_pays_in_seat_order_from_the_dealers_left() -> None:
    hands = {2: ["AS", "KH"], 3: ["7C", "7D"], 1: ["AH", "QH"]}
    r1 = deal(ORDER3, hands, ["7H"])
    game, _ = rigged(3, r1 + filler(r1, 20), treasure=3)
    events = play(game, {3: 1})
    result = only(events, "round_settled")
    # dues 2 (p2, BlackJack), 1 (p3), 2 (p1, BlackJack); only 3 coins exist
    assert payouts(result) == {2: 2, 3: 1, 1: 0}
    assert result["pot"] == 0 and result["treasure"] == 0
    over = only(events, "game_over")
    assert over["reason"] == "treasure_empty"
    assert over["ranking"] == [
        {"player": 2, "coins": 2, "rank": 1},
        {"player": 3, "coins": 1, "rank": 2},
        {"player": 1, "coins": 0, "rank": 3},
    ]
    assert over["winners"] == [2]
    assert game.phase is Phase.FINISHED and game.to_act is None and game.deadline is None


def test_short_treasure_single_blackjack_takes_what_there_is() -> None:
    hands = {2: ["AS", "KH"], 3: ["TC", "9D"], 1: ["5S", "5H"]}
    r1 = deal(ORDER3, hands)
    game, _ = rigged(3, r1 + filler(r1, 20), treasure=1)
    events = play(game, {})
    assert payouts(only(events, "round_settled")) == {2: 1}
    assert only(events, "game_over")["reason"] == "treasure_empty"


# ---------------------------------------------------------------------------- standard endings


def test_end_when_treasure_and_pot_are_empty_with_shared_ranks() -> None:
    r1 = deal(ORDER3, {2: ["TS", "9H"], 3: ["TC", "8D"], 1: ["5S", "5H"]})
    r2 = deal(ORDER3, {2: ["2S", "3S"], 3: ["TD", "9C"], 1: ["4S", "6S"]})
    game, _ = rigged(3, r1 + r2 + filler(r1 + r2, 20), treasure=2)
    play(game, {})
    events = play(game, {})
    over = only(events, "game_over")
    assert over["reason"] == "treasure_empty"
    assert over["ranking"] == [
        {"player": 2, "coins": 1, "rank": 1},
        {"player": 3, "coins": 1, "rank": 1},
        {"player": 1, "coins": 0, "rank": 3},
    ]
    assert over["winners"] == [2, 3]
    ranking = game.public_view().own.ranking
    assert ranking is not None and [as_dict(r) for r in ranking] == over["ranking"]
    revealed = only(events, "seed_revealed")
    assert commitment(bytes.fromhex(revealed["seed"])) == revealed["commitment"]
    assert game.legal_actions(1) == frozenset()
    with pytest.raises(IllegalAction) as err:  # closing a finished game changes nothing
        game.apply(Action(A.CLOSE))
    assert err.value.code == "game_over"
    with pytest.raises(IllegalAction) as err:
        game.apply(Action(A.STAND, 2))
    assert err.value.code == "game_over"


def test_end_when_the_pile_cannot_deal_two_cards_each() -> None:
    r1 = deal(ORDER3, {2: ["TS", "9H"], 3: ["TC", "8D"], 1: ["5S", "5H"]})
    game, _ = rigged(3, [*r1, "2C", "3C", "4C", "5C", "6C"])  # 5 < 6 cards left
    events = play(game, {})
    assert kinds(events)[-7:] == [
        "round_settled",
        "seed_revealed",
        "game_over",
        *["left"] * 3,
        "closed",
    ]
    assert only(events, "game_over")["reason"] == "pile_short"
    assert game.round == 1 and game.pot == 0 and game.coins[2] == 1


def test_pile_running_out_mid_round_allows_only_standing_then_ends() -> None:
    hands = {2: ["2S", "3S"], 3: ["TC", "8D"], 1: ["5S", "5H"]}
    game, _ = rigged(3, deal(ORDER3, hands, ["4S"]))
    game.apply(Action(A.HIT, 2))
    game.apply(Action(A.STAND, 2))
    assert game.public_view().own.pile == 0
    assert game.to_act == 3 and game.legal_actions(3) == {A.STAND}
    before = game.to_dict()
    with pytest.raises(IllegalAction) as err:
        game.apply(Action(A.HIT, 3))
    assert err.value.code == "pile_empty"
    assert game.to_dict() == before
    events = play(game, {})
    assert payouts(only(events, "round_settled")) == {3: 1}
    assert only(events, "game_over")["reason"] == "pile_empty"


def test_close_mid_round_ends_with_a_ranking() -> None:
    game = table(3, "close")
    game.apply(Action(A.START, 1))
    with pytest.raises(IllegalAction) as err:
        game.apply(Action(A.CLOSE, 2))  # the host's /table close is the service's CLOSE
    assert err.value.code == "system_only"
    events = game.apply(Action(A.CLOSE))
    assert kinds(events) == ["seed_revealed", "game_over", *["left"] * 3, "closed"]
    over = only(events, "game_over")
    assert over["reason"] == "closed" and [r["rank"] for r in over["ranking"]] == [1, 1, 1]
    assert game.phase is Phase.FINISHED and game.legal_actions(2) == frozenset()


def test_close_in_lobby() -> None:
    game = table(2)
    events = game.apply(Action(A.CLOSE))
    assert kinds(events) == ["game_over", "left", "left", "closed"]
    assert game.phase is Phase.FINISHED


def twin_rounds(hidden: list[str]) -> tuple[Pirate21, list[Event]]:
    """Player 2 holds ``hidden`` and hits 5C, then 2D; the others' cards never change."""
    hands = {2: hidden, 3: ["TC", "8D"], 1: ["5S", "5H"]}
    r1 = deal(ORDER3, hands, ["5C", "2D"])
    return rigged(3, r1 + filler([*r1, "TS", "9H", "2S", "3S"], 20))


def test_a_bust_keeps_the_turn_and_shows_nothing_a_safe_hit_does_not() -> None:
    bust, _ = twin_rounds(["TS", "9H"])  # 19 + 5 = 24
    safe, _ = twin_rounds(["2S", "3S"])  # 5 + 5 = 10
    seen = []
    for game in (bust, safe):
        events = game.apply(Action(A.HIT, 2))
        public = [e.to_dict() for e in events if e.visibility is Visibility.PUBLIC]
        private = [
            (e.kind, e.player, e.data["total"], e.data["bust"])
            for e in events
            if e.visibility is Visibility.PRIVATE
        ]
        others = [game.private_view(p) for p in (3, 1)]
        legal = [game.legal_actions(p) for p in (None, 1, 2, 3)]
        seen.append((public, game.public_view(), others, legal, private))
    assert seen[0][:4] == seen[1][:4]  # what anyone but player 2 sees
    assert seen[0][0] == [
        {"kind": "hit", "visibility": "public", "player": 2, "data": {"player": 2, "card": "5C"}}
    ]
    assert seen[0][4] == [("hand", 2, 24, True)] and seen[1][4] == [("hand", 2, 10, False)]
    assert bust.to_act == 2 and bust.legal_actions(2) == {A.HIT, A.STAND}
    assert bust.private_view(2).you.own.bust is True
    assert "bust" not in json.dumps(as_dict(bust.public_view()))
    assert as_dict(bust.public_view().seats[0]) == {
        "player": 2,
        "stack": 0,
        "bet": 0,
        "out": False,
        "dealer": False,
        "in_round": True,
        "hidden": 2,
        "extra": ("5C",),
        "done": False,
    }
    # a busted player may ask again (nobody can tell), then stands like anyone else
    for game in (bust, safe):
        events = game.apply(Action(A.HIT, 2))
        assert kinds(events) == ["hit"] and game.to_act == 2
        events = game.apply(Action(A.STAND, 2))
        assert kinds(events) == ["stand", "turn"] and game.to_act == 3
    assert bust.public_view() == safe.public_view()
    # the showdown reveals it: 26, bust, out of the running
    events = play(bust, {})
    hand = only(events, "showdown")["hands"][0]
    assert hand == {
        "player": 2,
        "hidden": ["TS", "9H"],
        "extra": ["5C", "2D"],
        "total": 26,
        "bust": True,
        "blackjack": False,
    }
    result = only(events, "round_settled")
    assert result["outcome"] == "win" and payouts(result) == {3: 1}


def test_the_turn_timer_stands_for_a_busted_player() -> None:
    game, _ = twin_rounds(["TS", "9H"])
    game.apply(Action(A.HIT, 2))
    events = game.apply(Action(A.TIMEOUT))
    assert kinds(events) == ["timeout", "stand", "turn"] and game.to_act == 3
    events = play(game, {})
    assert only(events, "showdown")["hands"][0]["bust"] is True


# ---------------------------------------------------------------------------- shared variant


@pytest.mark.parametrize(
    ("n", "treasure", "cpp", "each", "first_pot"),
    [
        (2, 10, None, 5, 0),  # RULES.md: 10 coins for 2 players is 5 each
        (3, 10, None, 3, 1),  # ... for 3 it is 3 each and 1 in the first pot
        (4, 10, None, 2, 2),
        (8, 10, None, 1, 2),
        (3, 3, None, 1, 0),
        (7, 50, None, 7, 1),
        (3, 10, 5, 5, 0),  # coins_per_player gives each that many instead
        (2, 1, 4, 4, 0),  # ... whatever the treasure
    ],
)
def test_shared_treasure_is_divided_among_the_players(
    n: int, treasure: int, cpp: int | None, each: int, first_pot: int
) -> None:
    game = table(n, variant="shared", treasure=treasure, coins_per_player=cpp)
    events = game.apply(Action(A.START, 1))
    started = only(events, "game_started")
    assert started["coins"] == {str(p): each for p in game.seated()}
    assert started["treasure"] == 0 and started["pot"] == first_pot
    # round 1: everyone antes one coin on top of the undivided rest
    assert only(events, "round_started")["pot"] == first_pot + n
    assert game.coins == {p: each - 1 for p in game.players} and game.treasure == 0
    assert total_coins(game) == (treasure if cpp is None else cpp * n)
    view = game.public_view()
    assert view.pot == first_pot + n and view.own.treasure == 0


def test_shared_treasure_too_small_to_divide_cannot_start() -> None:
    game = table(3, variant="shared", treasure=2)
    assert A.START not in game.legal_actions(1)
    before = game.to_dict()
    with pytest.raises(IllegalAction) as err:
        game.apply(Action(A.START, 1))
    assert err.value.code == "treasure_too_small"
    assert err.value.params == {"treasure": 2, "players": 3}
    assert game.to_dict() == before
    game.apply(Action(A.LEAVE, 3))  # two players: one coin each
    assert A.START in game.legal_actions(1)
    game.apply(Action(A.START, 1))
    assert game.pot == 2 and game.coins == {1: 0, 2: 0}
    # coins_per_player needs no treasure to divide
    assert A.START in table(3, variant="shared", treasure=2, coins_per_player=1).legal_actions(1)


# A lobby stored by the code before the treasure was divided (coins_per_player was always
# written, 5 by default): it keeps its meaning, 5 coins each.
OLD_SHARED_LOBBY = {
    "game": "pirate21",
    "version": 1,
    "options": {
        "variant": "shared",
        "treasure": 10,
        "coins_per_player": 5,
        "dealer": None,
        "deck": {"numbers": 36, "pirates": 14, "flags": 4},
    },
    "host": 1,
    "players": [1, 2, 3],
    "phase": "lobby",
    "dealer": None,
    "order": [],
    "coins": [[1, 0], [2, 0], [3, 0]],
    "out": [],
    "treasure": 0,
    "pot": 0,
    "round": 0,
    "in_round": [],
    "hidden": [],
    "extra": [],
    "turn": 0,
    "pile": [],
    "pile_pos": 0,
    "pile_seed": None,
    "pile_source": [],
    "discard": [],
    "pending_reveals": [],
    "shuffles": 0,
    "void_rounds": 0,
    "last_result": None,
    "end_reason": None,
    "ranking": None,
    "rigged": None,
}


def test_a_stored_table_keeps_its_coins_per_player() -> None:
    game = Pirate21.from_dict(OLD_SHARED_LOBBY, entropy=seeded_entropy("old"))
    assert game.options.coins_per_player == 5
    events = game.apply(Action(A.START, 1))
    assert only(events, "game_started")["coins"] == {"2": 5, "3": 5, "1": 5}
    assert game.pot == 3 and total_coins(game) == 15
    # a table stored now round-trips its unset option
    fresh = table(3, variant="shared")
    data = json.loads(json.dumps(fresh.to_dict()))
    assert data["options"]["coins_per_player"] is None
    assert Pirate21.from_dict(data).options == fresh.options


def test_shared_winner_takes_the_pot() -> None:
    r1 = deal(ORDER3, {2: ["TS", "9H"], 3: ["TC", "8D"], 1: ["5S", "5H"]})
    game, events = rigged(3, r1 + filler(r1, 20), variant="shared")
    assert only(events, "round_started")["pot"] == 4 and game.coins == {1: 2, 2: 2, 3: 2}
    assert game.treasure == 0
    events = play(game, {})
    assert payouts(only(events, "round_settled")) == {2: 4}
    assert game.coins == {1: 1, 2: 5, 3: 1} and game.pot == 3 and total_coins(game) == 10


def test_shared_ties_and_busts_leave_the_pot_in_play() -> None:
    r1 = deal(ORDER3, {2: ["TS", "9H"], 3: ["TC", "9D"], 1: ["5S", "5H"]})
    r2 = deal(ORDER3, {2: ["TD", "8H"], 3: ["KC", "8D"], 1: ["KS", "QH"]}, ["5C", "6C", "7C"])
    r3 = deal(ORDER3, {2: ["7S", "7D"], 3: ["8C", "6H"], 1: ["AH", "KD"]}, ["7H", "7C"])
    game, _ = rigged(
        3, r1 + r2 + r3 + filler(r1 + r2 + r3, 20), variant="shared", coins_per_player=4
    )
    events = play(game, {})
    assert only(events, "round_settled")["outcome"] == "tie" and game.pot == 6
    events = play(game, {2: 1, 3: 1, 1: 1})
    assert only(events, "round_settled")["outcome"] == "all_bust" and game.pot == 9
    assert game.coins == {1: 1, 2: 1, 3: 1}
    # three players at 21 (one BlackJack, no bonus in this variant) split 9 evenly
    events = play(game, {2: 1, 3: 1})
    result = only(events, "round_settled")
    assert result["outcome"] == "tie21" and payouts(result) == {2: 3, 3: 3, 1: 3}
    assert total_coins(game) == 12


def test_shared_tie_at_21_keeps_the_remainder_in_play_and_eliminates() -> None:
    r1 = deal(ORDER3, {2: ["AS", "KH"], 3: ["AD", "QC"], 1: ["5S", "5H"]})
    r2 = deal([2, 3], {2: ["TS", "9H"], 3: ["TC", "8D"]})
    game, _ = rigged(3, r1 + r2 + filler(r1 + r2, 20), variant="shared", coins_per_player=1)
    events = play(game, {})
    result = only(events, "round_settled")
    assert result["outcome"] == "tie21" and payouts(result) == {2: 1, 3: 1}
    assert result["pot"] == 1
    assert only(events, "eliminated") == {"player": 1}
    started = only(events, "round_started")
    assert started["players"] == [2, 3] and started["pot"] == 3
    assert game.dealt == [2, 3] and game.out == {1}
    view = game.public_view()
    assert [(s.player, s.out, s.hidden) for s in view.seats] == [
        (2, False, 2),
        (3, False, 2),
        (1, True, 0),
    ]
    events = play(game, {})
    assert payouts(only(events, "round_settled")) == {2: 3}
    over = only(events, "game_over")
    assert over["reason"] == "one_player_left"
    assert over["ranking"] == [
        {"player": 2, "coins": 3, "rank": 1},
        {"player": 1, "coins": 0, "rank": 2},
        {"player": 3, "coins": 0, "rank": 2},
    ]


def test_shared_last_holder_collects_the_pot() -> None:
    # 2 players, 2 coins each: a void round then p2 wins; p1 still has a coin...
    order = [2, 1]
    r1 = deal(order, {2: ["TS", "9H"], 1: ["TC", "9D"]})
    r2 = deal(order, {2: ["TD", "9S"], 1: ["5S", "5H"]})
    game, _ = rigged(2, r1 + r2 + filler(r1 + r2, 20), variant="shared", coins_per_player=2)
    play(game, {})
    assert game.pot == 4 and game.coins == {1: 0, 2: 0}
    # ...nobody holds a coin: the same players replay for the pot without ante
    assert game.round == 2 and game.pot == 4
    events = play(game, {})
    assert payouts(only(events, "round_settled")) == {2: 4}
    assert only(events, "game_over")["reason"] == "one_player_left"
    assert game.coins == {1: 0, 2: 4}


def test_shared_replay_round_has_no_ante() -> None:
    order = [2, 1]
    r1 = deal(order, {2: ["TS", "9H"], 1: ["TC", "9D"]})
    game, _ = rigged(2, r1 + filler(r1, 20), variant="shared", coins_per_player=1)
    events = play(game, {})
    started = only(events, "round_started")
    assert started["ante"] == 0 and started["pot"] == 2 and started["players"] == [2, 1]


def test_shared_sole_holder_collects_a_void_pot() -> None:
    order = [2, 1]
    r1 = deal(order, {2: ["TS", "9H"], 1: ["TC", "8D"]})  # p2 wins: 3 coins to 1
    r2 = deal(order, {2: ["TD", "9S"], 1: ["KC", "9D"]})  # void: pot 2, coins 2 and 0
    game, _ = rigged(2, r1 + r2 + filler(r1 + r2, 20), variant="shared", coins_per_player=2)
    play(game, {})
    assert game.coins == {1: 0, 2: 2} and game.pot == 2  # round 2 antes
    events = play(game, {})
    assert only(events, "round_settled")["outcome"] == "tie"
    assert only(events, "pot_collected") == {"player": 2, "coins": 2}
    assert only(events, "game_over")["reason"] == "one_player_left"
    assert game.coins == {1: 0, 2: 4} and game.pot == 0


def test_shared_reshuffles_played_cards_and_reveals_after_the_showdown() -> None:
    order = [2, 1]
    r1 = deal(order, {2: ["TS", "9H"], 1: ["8C", "7D"]}, ["2C"])
    game, start = rigged(2, r1, variant="shared")
    first = only(start, "shuffle")
    events = play(game, {1: 1})  # the last card of the pile goes to p1
    seq = kinds(events)
    assert seq.index("showdown") < seq.index("round_settled") < seq.index("shuffle")
    assert seq.index("shuffle") < seq.index("deal")
    shuffle = only(events, "shuffle")
    assert shuffle["size"] == 5 and shuffle["spec"] == "pirate54"
    assert "seed_revealed" not in seq  # the retired seed waits for the next showdown
    assert game.cards_left == 1 and game.round == 2
    new_seed = game.entropy(1)
    # the new pile's seed is the spare committed with the first pile
    assert shuffle["commitment"] == commitment(new_seed) == first["next_commitment"]
    assert game.public_view().next_commitment == shuffle["next_commitment"]
    # the played cards, in the order they take in the whole deck shuffled by that seed
    played = {"TS", "9H", "8C", "7D", "2C"}
    order = [c.code for c in verify(new_seed.hex(), shuffle["commitment"], "pirate54")]
    assert [c.code for c in game.shoe.order] == [c for c in order if c in played]
    events = play(game, {})
    assert [e.data["commitment"] for e in events if e.kind == "seed_revealed"] == [
        first["commitment"]
    ]


def test_shared_pile_emptied_by_a_deal_is_replaced_before_anyone_draws() -> None:
    order = [2, 1]
    r1 = deal(order, {2: ["2S", "3S"], 1: ["8C", "7D"]}, ["9C"])
    r2 = deal(order, {2: ["4S", "5S"], 1: ["6C", "6D"]})
    game, start = rigged(2, r1 + r2, variant="shared", coins_per_player=3)
    first = only(start, "shuffle")
    events = play(game, {1: 1})
    # the deal of round 2 takes the last card: the played cards are shuffled at once,
    # in the same outcome, before player 2 can decide to ask for a card
    seq = kinds(events)
    assert seq[seq.index("round_settled") :] == [
        "round_settled",
        "round_started",
        "deal",
        "shuffle",
        "turn",
    ]
    second = only(events, "shuffle")
    assert second["size"] == 5 and second["number"] == 2
    # committed before the round's hidden cards were dealt, as the first pile's spare
    assert second["commitment"] == first["next_commitment"]
    assert game.round == 2 and game.cards_left == 5 and game.discard == []
    assert game.unrevealed  # round 2's cards came from the first pile: still hidden
    assert game.legal_actions(2) == {A.HIT, A.STAND}
    events = game.apply(Action(A.HIT, 2))
    assert kinds(events) == ["hit"]  # drawn from the pile committed earlier
    # closing reveals every seed shown: the retired pile's, the one in use (it reprints
    # the new pile: the played cards in the order the seed gives the whole deck), the spare
    pile = game.shoe.order
    over = [e.data for e in game.apply(Action(A.CLOSE)) if e.kind == "seed_revealed"]
    assert [r["commitment"] for r in over] == [
        first["commitment"],
        second["commitment"],
        second["next_commitment"],
    ]
    played = {"2S", "3S", "8C", "7D", "9C"}
    order = verify(over[1]["seed"], over[1]["commitment"], over[1]["spec"])
    assert [c for c in order if c.code in played] == pile
    assert only(events, "hit")["card"] == pile[0].code


def test_shared_pile_emptied_by_a_hit_is_replaced_in_the_same_move() -> None:
    order = [2, 1]
    r1 = deal(order, {2: ["TS", "9H"], 1: ["8C", "7D"]})
    r2 = deal(order, {2: ["2S", "3S"], 1: ["6C", "6D"]}, ["4C"])
    game, start = rigged(2, r1 + r2, variant="shared", coins_per_player=3)
    first = only(start, "shuffle")
    play(game, {})
    assert game.round == 2 and game.cards_left == 1 and len(game.discard) == 4
    events = game.apply(Action(A.HIT, 2))  # the pile's last card
    assert kinds(events) == ["hit", "shuffle"]
    assert only(events, "hit")["card"] == "4C"
    second = only(events, "shuffle")
    assert second["size"] == 4 and game.cards_left == 4
    assert second["commitment"] == first["next_commitment"] == commitment(game.entropy(1))
    assert game.to_act == 2 and "seed_revealed" not in kinds(events)
    played = {"TS", "9H", "8C", "7D"}
    whole = shuffled(build_pirate_deck(game.options.deck_counts), game.entropy(1))
    events = game.apply(Action(A.HIT, 2))
    assert only(events, "hit")["card"] == next(c.code for c in whole if c.code in played)
    events = play(game, {})
    revealed = [e.data["commitment"] for e in events if e.kind == "seed_revealed"]
    assert revealed == [first["commitment"]]


def test_shared_no_played_cards_means_only_stand() -> None:
    order = [2, 1]
    game, _ = rigged(2, deal(order, {2: ["2S", "3S"], 1: ["8C", "7D"]}), variant="shared")
    assert game.legal_actions(2) == {A.STAND}
    with pytest.raises(IllegalAction) as err:
        game.apply(Action(A.HIT, 2))
    assert err.value.code == "pile_empty"
    events = play(game, {})
    assert payouts(only(events, "round_settled")) == {1: 2}
    assert game.round == 2 and only(events, "shuffle")["size"] == 4
