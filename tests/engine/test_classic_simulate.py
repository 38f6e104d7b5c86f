"""The classic simulator: fast path == real game on the same cards, CLI, strategies."""

from __future__ import annotations

import json
from dataclasses import replace
from typing import Any

import pytest

from bot.engine.base import Action, ActionKind, Phase
from bot.engine.cards import Card
from bot.engine.classic import ClassicGame, ClassicOptions
from bot.engine.shuffle import seeded_entropy
from bot.engine.simulate import (
    SIMULATORS,
    InfiniteSource,
    Recorder,
    ShoeSource,
    main,
    play_classic_round,
    simulate_classic,
)
from bot.engine.strategy import (
    DOUBLE,
    HIT,
    SPLIT,
    STAND,
    STRATEGIES,
    SURRENDER,
    Strategy,
    basic_strategy,
    mimic,
)

K = ActionKind
MOVES = {HIT: K.HIT, STAND: K.STAND, DOUBLE: K.DOUBLE, SPLIT: K.SPLIT, SURRENDER: K.SURRENDER}
BET = 10


def game_round(g: ClassicGame, cards: list[Card], strategy: Strategy) -> dict[str, Any]:
    """Play one round of the real game on exactly ``cards`` with ``strategy``."""
    g.rig([c.code for c in cards])
    g.apply(Action(K.START, 1))
    events = g.apply(Action(K.BET, 1, amount=BET))
    guard = 0
    while g.phase is not Phase.BETWEEN_ROUNDS:
        guard += 1
        assert guard < 50
        if g.phase is Phase.INSURANCE:
            events = g.apply(Action(K.NO_INSURANCE, 1))
            continue
        legal = g.legal_actions(1)
        allowed = {HIT, STAND} | {m for m, k in MOVES.items() if k in legal}
        hand = g.hands[g.current]
        move = strategy(hand.cards, g.dealer[0], frozenset(allowed))
        events = g.apply(Action(MOVES[move], 1))
    settled = [e for e in events if e.kind == "round_settled"]
    assert settled and g._rigged == [], "the game dealt other cards than the fast path"
    return dict(settled[0].data)


CONFIGS = [
    ("mimic", ClassicOptions(), None),
    ("basic", ClassicOptions(), None),
    ("basic", ClassicOptions(dealer_hits_soft_17=True, surrender=True), 1),
    ("basic", ClassicOptions(blackjack_pays="6:5", max_hands=2, double=False), 6),
    ("basic", ClassicOptions(split_aces_one_card=False, blackjack_pays="1:1", max_hands=3), 2),
    ("basic", ClassicOptions(dealer_peeks=False, surrender=True), None),
]


@pytest.mark.parametrize(("strategy", "opts", "decks"), CONFIGS)
def test_fast_path_matches_game(strategy: str, opts: ClassicOptions, decks: int | None) -> None:
    rounds = 1500
    source = InfiniteSource("match") if decks is None else ShoeSource(decks, 0.75, "match")
    rec = Recorder(source)
    strat = STRATEGIES[strategy](h17=opts.dealer_hits_soft_17, das=opts.double)
    g = ClassicGame(opts, entropy=seeded_entropy("match"))
    g.apply(Action(K.JOIN, 1, amount=10**9))
    stack = 10**9
    seen: set[str] = set()
    for _ in range(rounds):
        rec.start_round()
        fast = play_classic_round(rec, opts, strat, BET)
        summary = game_round(g, rec.dealt, strat)
        assert [(h["result"], h["net"]) for h in summary["hands"]] == fast.hands
        assert sum(h["net"] for h in summary["hands"]) == fast.net
        stack += fast.net
        assert g.stacks[1] == stack
        assert fast.cards == len(rec.dealt)
        seen.update(r for r, _ in fast.hands)
        if len(fast.hands) > 1:
            seen.add("split")
    assert {"win", "loss", "push", "blackjack"} <= seen
    if strategy == "basic" and opts.max_hands > 1:
        assert "split" in seen


def test_dealer_outcome_plays_out_without_dealing() -> None:
    """When everyone busted the dealer does not draw, but the statistic still counts."""
    opts = ClassicOptions()
    src = InfiniteSource("x")
    totals: dict[str, int] = {}
    for _ in range(3000):
        src.start_round()
        r = play_classic_round(src, opts, mimic, BET)
        totals[r.dealer] = totals.get(r.dealer, 0) + 1
    assert set(totals) <= {"17", "18", "19", "20", "21", "blackjack", "bust"}
    assert 0.22 < totals["bust"] / 3000 < 0.34


def test_simulate_is_deterministic() -> None:
    a = simulate_classic(rounds=2000, seed="s", decks=2, strategy="basic", opts=ClassicOptions())
    b = simulate_classic(rounds=2000, seed="s", decks=2, strategy="basic", opts=ClassicOptions())
    for key in ("player_ev", "natural_rate", "dealer_outcomes", "cards_per_round"):
        assert a[key] == b[key]


def test_cli_json(capsys: pytest.CaptureFixture[str]) -> None:
    argv = [
        "classic",
        "--rounds",
        "3000",
        "--seed",
        "7",
        "--decks",
        "inf",
        "--strategy",
        "mimic",
        "--json",
    ]
    assert main(argv) == 0
    out = json.loads(capsys.readouterr().out)
    for key in (
        "rounds",
        "player_ev",
        "player_ev_stderr",
        "natural_rate",
        "dealer_outcomes",
        "cards_per_round",
        "rounds_per_second",
    ):
        assert key in out
    assert out["rounds"] == 3000 and out["decks"] == "inf"
    assert set(out["dealer_outcomes"]) == {"17", "18", "19", "20", "21", "blackjack", "bust"}
    assert abs(sum(out["dealer_outcomes"].values()) - 1) < 1e-9
    assert 4 < out["cards_per_round"] < 7


def test_cli_options_and_text(capsys: pytest.CaptureFixture[str]) -> None:
    argv = [
        "classic",
        "--rounds",
        "500",
        "--decks",
        "1",
        "--strategy",
        "basic",
        "--h17",
        "--blackjack-pays",
        "6:5",
        "--no-double",
        "--no-split",
    ]
    assert main(argv) == 0
    assert "player EV" in capsys.readouterr().out
    with pytest.raises(SystemExit):
        main(["classic", "--decks", "9"])
    assert main([]) == 2 and main(["nope"]) == 2 and main(["--help"]) == 0
    assert "classic" in SIMULATORS


def test_no_split_never_splits() -> None:
    opts = replace(ClassicOptions(), max_hands=1)
    src = InfiniteSource("ns")
    strat = basic_strategy()
    for _ in range(2000):
        src.start_round()
        assert len(play_classic_round(src, opts, strat, BET).hands) == 1


def c(*codes: str) -> list[Card]:
    return [Card.parse(x) for x in codes]


ALL = frozenset({HIT, STAND, DOUBLE, SPLIT, SURRENDER})
NO_EXTRA = frozenset({HIT, STAND})


@pytest.mark.parametrize(
    ("h17", "cards", "up", "allowed", "move"),
    [
        (False, ("TS", "6H"), "TD", NO_EXTRA, HIT),
        (False, ("TS", "6H"), "6D", NO_EXTRA, STAND),
        (False, ("TS", "2H"), "3D", NO_EXTRA, HIT),
        (False, ("TS", "2H"), "4D", NO_EXTRA, STAND),
        (False, ("6S", "5H"), "AD", ALL, HIT),
        (True, ("6S", "5H"), "AD", ALL, DOUBLE),
        (False, ("6S", "5H"), "TD", ALL, DOUBLE),
        (False, ("AS", "7H"), "2D", ALL, STAND),
        (True, ("AS", "7H"), "2D", ALL, DOUBLE),
        (False, ("AS", "7H"), "5D", NO_EXTRA, STAND),  # Ds without double: stand
        (False, ("AS", "7H"), "9D", ALL, HIT),
        (False, ("AS", "6H"), "3D", NO_EXTRA, HIT),  # D without double: hit
        (False, ("8S", "8H"), "TD", ALL - {SURRENDER}, SPLIT),
        (False, ("TS", "KH"), "6D", ALL, STAND),
        (False, ("AS", "AH"), "AD", ALL - {SURRENDER}, SPLIT),
        (False, ("9S", "9H"), "7D", ALL, STAND),
        (False, ("TS", "6H"), "TD", ALL, SURRENDER),
        (False, ("TS", "5H"), "AD", ALL, HIT),
        (True, ("TS", "5H"), "AD", ALL, SURRENDER),
        (False, ("5S", "5H"), "9D", ALL, DOUBLE),
        (False, ("4S", "4H"), "5D", ALL, SPLIT),
    ],
)
def test_basic_strategy_cells(
    h17: bool, cards: tuple[str, ...], up: str, allowed: frozenset[str], move: str
) -> None:
    assert basic_strategy(h17=h17, das=True)(c(*cards), Card.parse(up), allowed) == move


def test_basic_without_das_splits_less() -> None:
    strat = basic_strategy(das=False)
    assert strat(c("4S", "4H"), Card.parse("5D"), ALL) == HIT  # hard 8: no split, no double
    assert strat(c("2S", "2H"), Card.parse("2D"), ALL) == HIT


def test_mimic() -> None:
    assert mimic(c("TS", "6H"), Card.parse("6D"), ALL) == HIT
    assert mimic(c("TS", "7H"), Card.parse("AD"), ALL) == STAND
    assert mimic(c("AS", "6H"), Card.parse("AD"), ALL) == STAND


@pytest.mark.slow
@pytest.mark.parametrize(
    ("strategy", "decks", "lo", "hi"),
    [("mimic", None, -0.065, -0.050), ("basic", 6, -0.0095, 0.0005)],
)
def test_ev_in_range(strategy: str, decks: int | None, lo: float, hi: float) -> None:
    out = simulate_classic(
        rounds=400_000, seed="ev", decks=decks, strategy=strategy, opts=ClassicOptions()
    )
    assert lo < out["player_ev"] < hi, out
