"""Black Jack (classic): scripted rounds with stacked decks, one per rule of RULES.md §1.

Deal order with players A, B: A1, B1, dealer up, A2, B2, hole; then hits in play order.
"""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from bot.engine.base import (
    Action,
    ActionKind,
    DeadlineKind,
    IllegalAction,
    InvalidOptions,
    Phase,
    Visibility,
)
from bot.engine.games.blackjack import MAX_SEATS, BlackjackGame, BlackjackOptions
from bot.engine.registry import GAMES
from bot.engine.shuffle import verify
from bot.engine.views import as_dict
from tests.engine.classic_table import K, act, flows, kinds, play_round, public, summary, table
from tests.engine.refusals import refused


def hand_results(s: dict[str, object]) -> list[tuple[str, int]]:
    return [(h["result"], h["net"]) for h in s["hands"]]  # type: ignore[index,attr-defined]


# --------------------------------------------------------------------------- basics


def test_the_registry_finds_black_jack_by_its_old_key_too() -> None:
    assert GAMES["classic"] is GAMES["blackjack"]
    assert GAMES["blackjack"].game is BlackjackGame
    assert GAMES["blackjack"].options is BlackjackOptions.SPECS


def test_engine_does_not_import_discord_asyncio_aiosqlite() -> None:
    code = (
        "import sys, bot.engine.games.blackjack, bot.engine.sim, "
        "bot.engine.registry\n"
        "bad = [m for m in ('discord', 'asyncio', 'aiosqlite') if m in sys.modules]\n"
        "assert not bad, bad\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True)


def test_reshuffle_at_penetration_reveals_seed() -> None:
    g = table(decks=1, penetration=0.5)
    first = act(g, K.START, 1)[0].data
    revealed = None
    for _ in range(40):
        if g.phase is Phase.BETWEEN_ROUNDS or g.phase is Phase.LOBBY:
            assert g.shoe is not None
            dealt = g.shoe.pos
            events = act(g, K.START, 1)
            if "seed_revealed" in kinds(events):
                assert kinds(events)[:2] == ["seed_revealed", "shuffle"]
                revealed = events[0].data
                break
        if g.phase is Phase.BETTING:
            act(g, K.BET, 1, amount=10)
        while g.phase is Phase.INSURANCE:
            act(g, K.NO_INSURANCE, 1)
        while g.phase is Phase.PLAYING:
            act(g, K.STAND, g.to_act)
    assert revealed is not None
    assert revealed["commitment"] == first["commitment"]
    assert set(revealed) == {"seed", "commitment", "spec"} and revealed["spec"] == "std52*1"
    assert dealt >= 26
    order = verify(revealed["seed"], first["commitment"], "std52*1")
    assert len(order) == 52
    # the new shoe is the spare committed with the first one; a new spare is committed
    second = next(e.data for e in events if e.kind == "shuffle")
    assert second["commitment"] == first["next_commitment"]
    assert g.public_view().next_commitment == second["next_commitment"] != first["commitment"]


def test_shoe_running_out_mid_round_reveals_old_seed_after_the_round() -> None:
    g = table(decks=1)
    first = act(g, K.START, 1)[0].data
    assert g.shoe is not None
    g.shoe.pos = 50  # two cards left: the deal runs out after the up card
    events = act(g, K.BET, 1, amount=10)
    ks = kinds(events)
    assert ks.index("shuffle") < ks.index("hole_card")
    assert "seed_revealed" not in ks[: ks.index("hole_card") + 1]
    while g.phase is Phase.PLAYING:
        events += act(g, K.STAND, 1)
    ks = kinds(events)
    assert ks.index("seed_revealed") > ks.index("hole_revealed")
    old = next(e for e in events if e.kind == "seed_revealed").data
    assert old["commitment"] == first["commitment"]
    # the shoe that went in mid-round was committed before the round (the spare)
    fresh = next(e.data for e in events if e.kind == "shuffle")
    assert fresh["commitment"] == first["next_commitment"]
    assert "unrevealed" in g.to_dict() and g.to_dict()["unrevealed"] == []


def test_close_reveals_seed_and_cashes_out() -> None:
    g = table(players=(1, 2))
    shuffle = act(g, K.START, 1)[0].data
    shown = [shuffle["commitment"], shuffle["next_commitment"]]
    act(g, K.BET, 1, amount=50)
    events = act(g, K.CLOSE)
    # the shoe in use and the committed spare: every commitment shown is revealed
    revealed = [e.data["commitment"] for e in events if e.kind == "seed_revealed"]
    assert revealed == [shown[0], shown[1]]
    assert g.phase is Phase.FINISHED
    f = flows(events)
    assert f["pot"] == -50 and f["claim:1"] == 1000 and f["claim:2"] == 1000
    with pytest.raises(IllegalAction) as err:
        act(g, K.JOIN, 3, amount=10)
    assert err.value.code == "game_over"


def test_close_mid_round_refunds_unsettled_stakes_only() -> None:
    g = table(players=(1, 2), decks=6)
    # A: TS 6H then busts with KC; B: 9S 9H stands; dealer 7D hole 5C
    play_round(g, ["TS", "9S", "7D", "6H", "9H", "5C", "KC"], {1: 20, 2: 30})
    bust = act(g, K.HIT, 1)
    assert flows(bust) == {"pot": -20, "house": 20}
    events = act(g, K.CLOSE)
    f = flows(events)
    assert f["pot"] == -30
    assert f["claim:1"] == 980 and f["claim:2"] == 1000


# --------------------------------------------------------------------------- insurance


# bet, the player's two cards, insured?, the hand's (result, net), the insurance's net
# (None: not insured), the player's net. The dealer shows A♠ and holds K♦ (a blackjack).
DEALER_BLACKJACK_CASES = [
    (10, ["TS", "9H"], True, ("insured", 0), 0, 0),
    (11, ["TS", "9H"], True, ("insured", 0), 0, 0),  # odd bet: a stake of 5, still 0
    (10, ["TS", "9H"], False, ("loss", -10), None, -10),
    (11, ["TS", "9H"], False, ("loss", -11), None, -11),
]


@pytest.mark.parametrize(
    ("bet", "cards", "insure", "hand", "insurance", "net"), DEALER_BLACKJACK_CASES
)
def test_insurance_against_a_dealer_blackjack(
    bet: int,
    cards: list[str],
    insure: bool,
    hand: tuple[str, int],
    insurance: int | None,
    net: int,
) -> None:
    g = table()
    events = play_round(g, [cards[0], "AS", cards[1], "KD"], {1: bet})
    assert g.phase is Phase.INSURANCE and g.legal_actions(1) >= {K.INSURANCE, K.NO_INSURANCE}
    events += act(g, K.INSURANCE if insure else K.NO_INSURANCE, 1)
    s = summary(events)
    assert s["dealer_blackjack"] is True and g.phase is Phase.BETWEEN_ROUNDS
    assert hand_results(s) == [hand]
    assert s["insurance"] == ([] if insurance is None else [{"player": 1, "net": insurance}])
    assert s["net"] == [{"player": 1, "net": net}]
    # the money: the stack moved by the net, through the pot (back to 0) and the house
    assert g.stacks[1] == 1000 + net and g.pot == 0
    f = flows(events)
    assert f["seat:1"] == net and f.get("house", 0) == -net and f["pot"] == 0
    settled = [e for e in events if e.kind == "insurance_settled"]
    if insure:
        (e,) = settled
        assert e.data == {"won": True, "stake": bet // 2, "net": 0}
        assert [(m.kind.value, m.src, m.dst, m.amount) for m in e.money] == [
            ("refund", "pot", "seat:1", bet // 2)
        ]
    else:
        assert settled == []


@pytest.mark.parametrize(("move", "net"), [(K.STAND, 0), (K.DOUBLE, -11)])
def test_insurance_without_a_peek_keeps_the_original_bet(move: ActionKind, net: int) -> None:
    """dealer_peeks=off: the blackjack shows at the dealer's turn; the insured hand gets
    its original bet back, a doubled part is lost like any bet against a blackjack."""
    g = table(dealer_peeks=False)
    events = play_round(g, ["TS", "AS", "7H", "KD", "2C"], {1: 11})
    events += act(g, K.INSURANCE, 1)
    assert g.phase is Phase.PLAYING  # no peek: play goes on
    events += act(g, move, 1)
    s = summary(events)
    assert s["dealer_blackjack"] is True
    assert hand_results(s) == [("insured", net)]
    assert s["insurance"] == [{"player": 1, "net": 0}] and s["net"] == [{"player": 1, "net": net}]
    assert g.stacks[1] == 1000 + net and g.pot == 0
    assert flows(events).get("house", 0) == -net


def test_insurance_without_dealer_blackjack() -> None:
    g = table(players=(1, 2))
    play_round(g, ["TS", "7H", "AS", "9S", "8H", "7D"], {1: 10, 2: 21})
    act(g, K.INSURANCE, 2)  # half of 21 rounded down = 10
    assert g.pot == 10 + 21 + 10
    events = act(g, K.NO_INSURANCE, 1)
    lost = [e for e in events if e.kind == "insurance_settled"]
    assert [(e.player, e.data["net"]) for e in lost] == [(2, -10)]
    assert g.phase is Phase.PLAYING and g.to_act == 1
    act(g, K.STAND, 1)
    events = act(g, K.STAND, 2)
    s = summary(events)
    assert s["dealer_total"] == 18  # soft 18 stands
    assert hand_results(s) == [("win", 10), ("loss", -21)]
    assert g.stacks == {1: 1010, 2: 1000 - 21 - 10}


@pytest.mark.parametrize(
    ("hole", "dealer_blackjack", "result"),
    [("KD", True, ("push", 0)), ("7D", False, ("blackjack", 15))],
)
def test_a_blackjack_is_not_offered_insurance(
    hole: str, dealer_blackjack: bool, result: tuple[str, int]
) -> None:
    """A player blackjack against a dealer ace: no insurance (it could only cost the
    player: insured it nets 0 against a dealer blackjack, as it pushes uninsured); the
    other player is asked, the blackjack's insurance is refused, and the round settles."""
    g = table(players=(1, 2))
    events = play_round(g, ["AH", "TS", "AS", "KS", "9H", hole, "5C"], {1: 10, 2: 10})
    (offer,) = [e for e in events if e.kind == "insurance_offered"]
    assert offer.data == {"players": [2]} and g.waiting == [2]
    assert not g.legal_actions(1) & {K.INSURANCE, K.NO_INSURANCE}
    before = g.to_dict()
    with pytest.raises(IllegalAction) as err:
        act(g, K.INSURANCE, 1)
    assert err.value.code == "no_insurance_offered" and g.to_dict() == before
    events = act(g, K.NO_INSURANCE, 2)
    if not dealer_blackjack:
        events += act(g, K.STAND, 2)
    s = summary(events)
    assert s["dealer_blackjack"] is dealer_blackjack and s["insurance"] == []
    assert hand_results(s)[0] == result
    assert g.stacks[1] == 1000 + result[1]


def test_a_lone_blackjack_skips_the_insurance_phase() -> None:
    g = table()
    events = play_round(g, ["AH", "AS", "KS", "9D"], {1: 10})
    assert "insurance_offered" not in kinds(events)
    assert hand_results(summary(events)) == [("blackjack", 15)]  # peeked, no blackjack, paid
    assert g.phase is Phase.BETWEEN_ROUNDS and g.stacks[1] == 1015


def test_bet_of_one_cannot_insure() -> None:
    g = table(min_bet=1)
    events = play_round(g, ["TS", "AS", "9S", "7D"], {1: 1})
    assert "insurance_offered" not in kinds(events)
    assert g.phase is Phase.PLAYING
    with pytest.raises(IllegalAction) as err:
        act(g, K.INSURANCE, 1)
    assert err.value.code == "no_insurance_offered"


def test_insurance_timeout_declines() -> None:
    g = table(players=(1, 2))
    play_round(g, ["TS", "7H", "AS", "9S", "8H", "7D"], {1: 10, 2: 20})
    act(g, K.INSURANCE, 1)
    events = act(g, K.TIMEOUT)
    assert [e.player for e in events if e.kind == "no_insurance"] == [2]
    assert g.phase is Phase.PLAYING


# --------------------------------------------------------------------------- splits


def test_split_tens_by_value() -> None:
    g = table()
    play_round(g, ["KS", "6D", "TH", "TD"], {1: 10})
    assert K.SPLIT in g.legal_actions(1)
    g.rig(["9C", "8C", "TS"])  # hand 0 gets 9C, hand 1 gets 8C, dealer draws TS
    events = act(g, K.SPLIT, 1)
    assert flows(events) == {"seat:1": -10, "pot": 10}
    assert [h.cards for h in g.public_view().own.hands] == [("KS", "9C"), ("TH",)]
    events = act(g, K.STAND, 1)  # hand 1 receives its second card now
    assert g.public_view().own.hands[1].cards == ("TH", "8C")
    events = act(g, K.STAND, 1)
    s = summary(events)
    assert s["dealer_bust"] is True
    assert hand_results(s) == [("win", 10), ("win", 10)]
    assert g.stacks[1] == 1020


def test_split_aces_one_card_each_and_21_pays_even() -> None:
    g = table()
    play_round(g, ["AS", "9D", "AH", "7C"], {1: 15})
    g.rig(["KD", "5H", "TC"])
    events = act(g, K.SPLIT, 1)
    s = summary(events)  # both aces stood at once; dealer 16 draws TC and busts
    assert [h["cards"] for h in s["hands"]] == [["AS", "KD"], ["AH", "5H"]]
    assert hand_results(s) == [("win", 15), ("win", 15)]  # A+K after a split: 1:1
    assert g.stacks[1] == 1030


def test_split_aces_may_draw_when_option_off() -> None:
    g = table(split_aces_one_card=False)
    play_round(g, ["AS", "9D", "AH", "7C"], {1: 10})
    g.rig(["5D"])
    act(g, K.SPLIT, 1)
    assert g.phase is Phase.PLAYING and g.to_act == 1
    assert K.HIT in g.legal_actions(1)


def test_split_21_vs_dealer_21_pushes() -> None:
    g = table()
    play_round(g, ["AS", "9D", "AH", "7C"], {1: 10})
    g.rig(["KD", "KH", "5S"])  # dealer 16 + 5 = 21
    s = summary(act(g, K.SPLIT, 1))
    assert hand_results(s) == [("push", 0), ("push", 0)]


@pytest.mark.parametrize("max_hands", [2, 3, 4])
def test_resplit_limit(max_hands: int) -> None:
    g = table(max_hands=max_hands)
    play_round(g, ["8S", "6D", "8H", "TD"], {1: 10})
    splits = ["8D", "8C", "8S"][: max_hands - 1]  # hand 0 is a pair again every time
    g.rig([*splits, *["3C", "3D", "3H"][: max_hands - 1], "TS"])
    for _ in range(max_hands - 1):
        act(g, K.SPLIT, 1)
    assert len(g.hands) == max_hands
    with pytest.raises(IllegalAction) as err:
        act(g, K.SPLIT, 1)
    assert err.value.code == "cannot_split" and err.value.params["reason"] == "max_hands"
    assert K.SPLIT not in g.legal_actions(1)
    events: list = []
    while g.phase is Phase.PLAYING:
        events = act(g, K.STAND, 1)
    s = summary(events)
    assert all(h["result"] == "win" for h in s["hands"])
    assert g.stacks[1] == 1000 + 10 * max_hands


def test_double_after_split_allowed() -> None:
    g = table()
    play_round(g, ["8S", "6D", "8H", "TD"], {1: 10})
    g.rig(["3D", "9H", "2C", "TS"])
    act(g, K.SPLIT, 1)  # hand 0: 8S 3D = 11
    assert K.DOUBLE in g.legal_actions(1)
    act(g, K.DOUBLE, 1)  # hand 0: 8S 3D 9H = 20, hand 1 gets 2C = 10
    assert g.hands[0].bet == 20 and g.hands[0].status == "stood"
    events = act(g, K.STAND, 1)
    s = summary(events)
    assert hand_results(s) == [("win", 20), ("win", 10)]


# --------------------------------------------------------------------------- double, hit


def test_double() -> None:
    g = table()
    play_round(g, ["5S", "6D", "6H", "TD"], {1: 25})
    g.rig(["9C", "8C"])
    events = act(g, K.DOUBLE, 1)
    s = summary(events)
    assert s["hands"][0]["doubled"] is True and s["hands"][0]["bet"] == 50
    assert hand_results(s) == [("win", 50)]
    assert g.stacks[1] == 1050


def test_double_needs_stack() -> None:
    g = table(stack=30)
    play_round(g, ["5S", "6D", "6H", "TD"], {1: 20})
    with pytest.raises(IllegalAction) as err:
        act(g, K.DOUBLE, 1)
    assert err.value.code == "insufficient_stack"
    assert K.DOUBLE not in g.legal_actions(1)


def test_double_disabled() -> None:
    g = table(double=False)
    play_round(g, ["5S", "6D", "6H", "TD"], {1: 20})
    with pytest.raises(IllegalAction) as err:
        act(g, K.DOUBLE, 1)
    assert err.value.code == "cannot_double"


def test_hit_to_21_stands_and_bust_loses_at_once() -> None:
    g = table(players=(1, 2))
    play_round(g, ["5S", "TS", "9D", "6H", "6C", "8D", "TH", "5C"], {1: 10, 2: 10})
    events = act(g, K.HIT, 1, hand=0)  # 5+6+TH = 21: stands by itself
    assert g.to_act == 2
    events = act(g, K.HIT, 2)  # 16 + 5 = 21
    assert "round_settled" in kinds(events)
    s = summary(events)
    assert s["dealer"] == ["9D", "8D"]  # dealer 17 stands
    assert [r for r, _ in hand_results(s)] == ["win", "win"]


def test_all_busted_table_dealer_does_not_draw() -> None:
    g = table(players=(1, 2))
    play_round(g, ["TS", "TC", "5D", "6H", "5C", "7D"], {1: 10, 2: 20})
    g.rig(["KH", "QH", "9S"])
    bust1 = act(g, K.HIT, 1)
    assert "bust" in kinds(bust1)
    assert flows(bust1) == {"pot": -10, "house": 10}  # lost at once
    events = act(g, K.HIT, 2)
    assert flows([e for e in events if e.kind == "bust"]) == {"pot": -20, "house": 20}
    assert "hole_revealed" in kinds(events)
    assert "dealer_card" not in kinds(events)  # dealer at 12 does not draw
    s = summary(events)
    assert s["dealer"] == ["5D", "7D"]
    assert hand_results(s) == [("bust", -10), ("bust", -20)]
    assert g.pot == 0 and g.stacks == {1: 990, 2: 980}


# --------------------------------------------------------------------------- surrender


def test_surrender_half_back_rounded_down() -> None:
    g = table(surrender=True)
    play_round(g, ["TS", "TD", "6H", "7C"], {1: 15})
    assert K.SURRENDER in g.legal_actions(1)
    events = act(g, K.SURRENDER, 1)
    sur = next(e for e in events if e.kind == "surrender")
    assert [(m.kind.value, m.amount, m.exact) for m in sur.money] == [
        ("refund", 7, "7.5"),
        ("loss", 8, None),
    ]
    assert "dealer_card" not in kinds(events)  # no live hand: the dealer does not draw
    assert hand_results(summary(events)) == [("surrender", -8)]
    assert summary(events)["hands"][0]["exact_net"] == "-7.5"
    assert g.stacks[1] == 992


def test_surrender_off_by_default_and_not_after_hit() -> None:
    g = table()
    play_round(g, ["TS", "TD", "6H", "7C"], {1: 10})
    with pytest.raises(IllegalAction) as err:
        act(g, K.SURRENDER, 1)
    assert err.value.code == "cannot_surrender"
    g2 = table(surrender=True)
    play_round(g2, ["TS", "TD", "2H", "7C", "2D"], {1: 10})
    act(g2, K.HIT, 1)
    with pytest.raises(IllegalAction) as err:
        act(g2, K.SURRENDER, 1)
    assert err.value.code == "cannot_surrender"


# --------------------------------------------------------------------------- dealer rules


@pytest.mark.parametrize(
    ("h17", "expected_dealer", "result"),
    [(False, ["6D", "AC"], ("push", 0)), (True, ["6D", "AC", "4S"], ("loss", -10))],
)
def test_dealer_soft_17(h17: bool, expected_dealer: list[str], result: tuple[str, int]) -> None:
    g = table(dealer_hits_soft_17=h17)
    play_round(g, ["TS", "6D", "7H", "AC", "4S"], {1: 10})
    s = summary(act(g, K.STAND, 1))
    assert s["dealer"] == expected_dealer
    assert hand_results(s) == [result]


def test_dealer_draws_to_hard_17() -> None:
    g = table(dealer_hits_soft_17=True)
    play_round(g, ["TS", "6D", "7H", "AC", "TH"], {1: 10})
    s = summary(act(g, K.STAND, 1))
    assert s["dealer"] == ["6D", "AC", "TH"] and s["dealer_total"] == 17


# --------------------------------------------------------------------------- blackjack


@pytest.mark.parametrize(
    ("pays", "bet", "win", "exact"),
    [
        ("3:2", 15, 22, "22.5"),
        ("3:2", 10, 15, None),
        ("6:5", 15, 18, None),
        ("6:5", 7, 8, "8.4"),
        ("1:1", 15, 15, None),
    ],
)
def test_blackjack_payouts(pays: str, bet: int, win: int, exact: str | None) -> None:
    g = table(blackjack_pays=pays, min_bet=1)
    events = play_round(g, ["AS", "9D", "KH", "7C"], {1: bet})
    assert "blackjack" in kinds(events)  # stands automatically: no turn
    assert "turn" not in kinds(events)
    s = summary(events)
    assert hand_results(s) == [("blackjack", win)]
    assert s["hands"][0].get("exact_net") == exact
    settled = next(e for e in events if e.kind == "round_settled")
    payout = [m for m in settled.money if m.kind.value == "payout"]
    assert [(m.amount, m.exact) for m in payout] == [(win, exact)]
    assert g.stacks[1] == 1000 + win


def test_player_blackjack_pushes_against_dealer_blackjack() -> None:
    g = table(players=(1, 2))
    events = play_round(g, ["AS", "9C", "TD", "KH", "9H", "AD"], {1: 10, 2: 10})
    assert "insurance_offered" not in kinds(events)  # ten up: peek, no insurance
    s = summary(events)
    assert hand_results(s) == [("push", 0), ("loss", -10)]


def test_peek_off_dealer_blackjack_found_at_dealer_turn() -> None:
    g = table(players=(1, 2), dealer_peeks=False)
    events = play_round(g, ["5S", "AC", "TD", "6H", "KH", "AD"], {1: 10, 2: 10})
    assert g.phase is Phase.PLAYING and g.to_act == 1  # no peek: play goes on
    assert "hole_revealed" not in kinds(events)
    g.rig(["9C"])
    events = act(g, K.DOUBLE, 1)  # 5+6+9 = 20, doubled
    s = summary(events)
    assert s["dealer_blackjack"] is True and s["dealer"] == ["TD", "AD"]
    assert hand_results(s) == [("loss", -20), ("push", 0)]


def test_peek_on_dealer_blackjack_only_loses_the_bet() -> None:
    g = table(dealer_peeks=True)
    events = play_round(g, ["5S", "TD", "6H", "AD"], {1: 10})
    assert hand_results(summary(events)) == [("loss", -10)]


def test_dealer_skips_drawing_when_only_blackjacks_remain() -> None:
    g = table()
    events = play_round(g, ["AS", "5D", "KH", "7C"], {1: 10})
    assert "dealer_card" not in kinds(events[kinds(events).index("hole_revealed") :])


# --------------------------------------------------------------------------- hole card


def test_hole_card_hidden_until_dealer_turn() -> None:
    g = table(decks=1)
    events = play_round(g, ["TS", "6D", "7H", "QC", "KH"], {1: 10})
    hole = [e for e in events if e.kind == "hole_card"]
    assert len(hole) == 1 and hole[0].visibility is Visibility.HIDDEN
    assert not hole[0].visible_to(1) and not hole[0].visible_to(None)
    view = g.public_view()
    assert view.own.dealer.cards == ("6D", None) and view.own.dealer.hole_hidden
    assert view.own.dealer.total == 6
    assert "QC" not in json.dumps(as_dict(view))
    assert "QC" not in json.dumps(as_dict(g.private_view(1)))
    assert all("QC" not in json.dumps(e.to_dict()) for e in public(events))
    events = act(g, K.STAND, 1)
    assert g.public_view().own.dealer.cards == ("6D", "QC", "KH")


# --------------------------------------------------------------------------- seats, timers


def test_join_leave_top_up_money() -> None:
    g = BlackjackGame()
    events = act(g, K.JOIN, 7, amount=300)
    assert flows(events) == {"wallet:7": -300, "seat:7": 300}
    assert g.host == 7
    events = act(g, K.TOP_UP, 7, amount=50)
    assert flows(events) == {"wallet:7": -50, "seat:7": 50}
    events = act(g, K.LEAVE, 7)
    assert flows(events) == {"seat:7": -350, "claim:7": 350}
    assert g.seats == [] and g.host is None


def test_table_full_and_already_seated() -> None:
    g = table(players=range(1, MAX_SEATS + 1))
    with pytest.raises(IllegalAction) as err:
        act(g, K.JOIN, 99, amount=10)
    assert err.value.code == "table_full"
    with pytest.raises(IllegalAction) as err:
        act(g, K.JOIN, 1, amount=10)
    assert err.value.code == "already_seated"


def test_join_only_between_rounds() -> None:
    g = table()
    act(g, K.START, 1)
    with pytest.raises(IllegalAction) as err:
        act(g, K.JOIN, 2, amount=10)
    assert err.value.code == "wrong_phase"


def test_leave_allowed_when_not_in_round() -> None:
    g = table(players=(1, 2, 3))
    play_round(g, ["TS", "6D", "7H", "QC", "KH"], {1: 10})
    with pytest.raises(IllegalAction):
        act(g, K.LEAVE, 1)  # hasn't decided yet, but players 2,3 still to bet: in BETTING
    act(g, K.LEAVE, 3)  # not bet yet: leaves (and is removed from the betting)
    act(g, K.SIT_OUT, 2)  # everybody decided: the deal happens
    assert g.phase is Phase.PLAYING
    events = act(g, K.LEAVE, 2)  # sat out: may leave during play
    assert flows(events) == {"seat:2": -1000, "claim:2": 1000}
    with pytest.raises(IllegalAction) as err:
        act(g, K.LEAVE, 1)
    assert err.value.code == "in_round"


def test_host_leaves_next_player_is_host() -> None:
    g = table(players=(1, 2))
    act(g, K.LEAVE, 1)
    assert g.host == 2
    act(g, K.START, 2)


def test_start_rules() -> None:
    g = table(players=(1, 2))
    with pytest.raises(IllegalAction) as err:
        act(g, K.START, 2)
    assert err.value.code == "not_host"
    with pytest.raises(IllegalAction) as err:
        act(g, K.START, 3)
    assert err.value.code == "not_seated"
    g2 = table(stack=5)
    with pytest.raises(IllegalAction) as err:
        act(g2, K.START, 1)
    assert err.value.code == "nobody_can_bet"
    act(g, K.START)  # the system may start too
    assert g.phase is Phase.BETTING and g.deadline.kind is DeadlineKind.BET


def test_betting_timeout_sits_out_and_nobody_bet_goes_back() -> None:
    g = table(players=(1, 2))
    act(g, K.START, 1)
    events = act(g, K.TIMEOUT)
    assert [e.player for e in events if e.kind == "sat_out"] == [1, 2]
    assert g.phase is Phase.BETWEEN_ROUNDS and g.deadline is None
    g.rig(["TS", "6D", "7H", "QC", "KH"])
    act(g, K.START, 1)
    act(g, K.BET, 2, amount=10)
    act(g, K.TIMEOUT)
    assert g.phase is Phase.PLAYING and g.to_act == 2
    assert [h.player for h in g.hands] == [2]


def test_turn_timeout_stands() -> None:
    g = table()
    play_round(g, ["TS", "6D", "7H", "QC", "KH"], {1: 10})
    events = act(g, K.TIMEOUT)
    stand = next(e for e in events if e.kind == "stand")
    assert stand.data["timeout"] is True
    assert "round_settled" in kinds(events)


def test_broke_player_stays_seated_and_must_top_up() -> None:
    g = table(stack=10, players=(1, 2))
    play_round(g, ["TS", "9S", "6D", "6H", "9H", "QC", "AH"], {1: 10, 2: 10})
    act(g, K.STAND, 1)
    act(g, K.STAND, 2)
    assert g.stacks[1] == 0 and 1 in g.seated()
    events = act(g, K.START, 1)
    assert next(e for e in events if e.kind == "round_started").data["players"] == [2]
    with pytest.raises(IllegalAction) as err:
        act(g, K.BET, 1, amount=10)
    assert err.value.code == "not_betting"


def test_bet_limits_and_views() -> None:
    g = table(stack=200, max_bet=500)
    assert g.bet_limits(1) == (10, 200)
    act(g, K.START, 1)
    view = g.private_view(1)
    assert view.you.own.bet_limits == (10, 200)
    assert "bet" in view.you.legal
    json.dumps(as_dict(view))


# --------------------------------------------------------------------------- illegal moves


def test_illegal_moves_change_nothing() -> None:
    g = table(players=(1, 2), stack=100)
    refused(g, Action(K.HIT, 1), "wrong_phase")
    refused(g, Action(K.BET, 1, amount=10), "wrong_phase")
    refused(g, Action(K.TIMEOUT), "wrong_phase")
    refused(g, Action(K.TIMEOUT, 1), "system_only")
    refused(g, Action(K.TOP_UP, 1, amount=0), "bad_amount")
    refused(g, Action(K.START, 9), "not_seated")
    g.rig(["TS", "8S", "6D", "7H", "9D", "QC", "5D", "5S"])
    act(g, K.START, 1)
    refused(g, Action(K.BET, 1, amount=9), "bet_out_of_range")
    refused(g, Action(K.BET, 1, amount=None), "bet_out_of_range")
    refused(g, Action(K.BET, 1, amount=101), "insufficient_stack")
    refused(g, Action(K.BET, 3, amount=10), "not_seated")
    refused(g, Action(K.HIT, 1), "wrong_phase")
    refused(g, Action(K.TOP_UP, 1, amount=10), "wrong_phase")
    act(g, K.BET, 1, amount=10)
    refused(g, Action(K.BET, 1, amount=10), "already_bet")  # a second bet this round
    act(g, K.BET, 2, amount=20)
    assert g.phase is Phase.PLAYING and g.to_act == 1
    refused(g, Action(K.BET, 1, amount=10), "already_bet")  # still this round
    refused(g, Action(K.HIT, 2), "not_your_turn")
    refused(g, Action(K.HIT, 1, hand=1), "wrong_hand")
    refused(g, Action(K.SPLIT, 1), "cannot_split")  # TS 7H
    refused(g, Action(K.INSURANCE, 1), "no_insurance_offered")  # dealer shows a 6
    refused(g, Action(K.LEAVE, 1), "in_round")
    act(g, K.HIT, 1)  # TS 7H 5D = 22? no: 10+7+5 = 22 -> bust
    assert g.to_act == 2
    refused(g, Action(K.SPLIT, 2), "cannot_split")
    act(g, K.HIT, 2)  # 8S 9D 5S = 22 bust
    assert g.phase is Phase.BETWEEN_ROUNDS


def test_double_after_hit_is_illegal() -> None:
    g = table()
    play_round(g, ["2S", "6D", "3H", "QC", "4D"], {1: 10})
    act(g, K.HIT, 1)
    refused(g, Action(K.DOUBLE, 1), "cannot_double")


# --------------------------------------------------------------------------- options


def test_options_of_an_older_snapshot_still_load() -> None:
    # the timers moved to the table settings: snapshots written before still hold them
    stored = {**BlackjackOptions(decks=2).to_dict(), "bet_seconds": 60, "turn_seconds": 60}
    assert BlackjackOptions.from_dict(stored) == BlackjackOptions(decks=2)


def test_typed_options_are_checked_too() -> None:
    with pytest.raises(InvalidOptions):
        BlackjackGame(BlackjackOptions(decks=0))


def test_a_new_round_keeps_each_seat_s_last_bet_through_a_snapshot() -> None:
    g = table((1, 2))
    g.rig(["TH", "TC", "TD", "9S", "8H"])
    act(g, K.START, 1)
    act(g, K.BET, 1, amount=30)
    act(g, K.SIT_OUT, 2)
    act(g, K.STAND, 1)
    act(g, K.START, 1)
    assert [(s.bet, s.last_bet) for s in g.seats] == [(0, 30), (0, 0)]
    stored = json.loads(json.dumps(g.to_dict()))
    assert [s.get("last_bet") for s in stored["seats"]] == [30, None]  # 0 is not written
    back = BlackjackGame.from_dict(stored)
    assert [s.last_bet for s in back.seats] == [30, 0]
    del stored["seats"][0]["last_bet"]  # a snapshot from before: no last bet
    assert BlackjackGame.from_dict(stored).seats[0].last_bet == 0
