"""The Black Jack simulator: figures enumerated exactly, the CLI, the strategies."""

from __future__ import annotations

import json
import math
from fractions import Fraction
from functools import cache

import pytest

from bot.engine.base import Action, ActionKind
from bot.engine.cards import Card
from bot.engine.games.blackjack import BlackjackGame, BlackjackOptions
from bot.engine.shuffle import seeded_entropy
from bot.engine.sim import SIMULATORS, find, main
from bot.engine.sim.basic_strategy import (
    DOUBLE,
    HIT,
    SPLIT,
    STAND,
    SURRENDER,
    basic_strategy,
    mimic,
)
from bot.engine.sim.blackjack import _Shoe, play_round, simulate

# --------------------------------------------------------------------------- exact figures

#: An infinite deck: each value's chance on every card (ace = 1, ten-value cards = 10).
CHANCE = {v: Fraction(4 if v == 10 else 1, 13) for v in range(1, 11)}
BUST = 22


@cache
def draw_out(hard: int, ace: bool) -> tuple[dict[int, Fraction], Fraction]:
    """Drawing while the best total is below 17 (mimic, and a dealer standing on soft 17)
    from a hand worth ``hard`` with aces as 1: the final totals (22 = bust) and the
    expected number of cards drawn."""
    best = hard + 10 if ace and hard + 10 <= 21 else hard
    if best >= 17:
        return {min(best, BUST): Fraction(1)}, Fraction(0)
    dist: dict[int, Fraction] = {}
    drawn = Fraction(1)
    for v, p in CHANCE.items():
        sub, more = draw_out(hard + v, ace or v == 1)
        drawn += p * more
        for total, q in sub.items():
            dist[total] = dist.get(total, Fraction(0)) + p * q
    return dist, drawn


def starts() -> list[tuple[Fraction, dict[int, Fraction], Fraction, bool]]:
    """Every two-card start: its chance, final totals, cards drawn, and blackjack or not."""
    out = []
    for a, pa in CHANCE.items():
        for b, pb in CHANCE.items():
            dist, drawn = draw_out(a + b, 1 in (a, b))
            out.append((pa * pb, dist, drawn, {a, b} == {1, 10}))
    return out


@cache
def mimic_exact() -> dict[str, object]:
    """Mimic the dealer on an infinite deck, dealer stands on soft 17, peeks, 3:2: the
    player's EV, the natural rate, the dealer's outcomes and the cards per round."""
    natural = sum(w for w, _, _, bj in starts() if bj)
    final: dict[int, Fraction] = {}  # the final totals of the hands that are not naturals
    draws = Fraction(0)  # cards a non-natural hand draws, on average (times its chance)
    for w, dist, drawn, bj in starts():
        if not bj:
            draws += w * drawn
            for total, q in dist.items():
                final[total] = final.get(total, Fraction(0)) + w * q
    # the dealer's cards are the same process, independent of the player's on this deck
    dealer = {t: q / (1 - natural) for t, q in final.items()}
    dealer_draws = draws / (1 - natural)
    vs: Fraction = sum(
        (
            pq * dq * (1 if dt == BUST or pt > dt else 0 if pt == dt else -1)
            for pt, pq in final.items()
            if pt != BUST
            for dt, dq in dealer.items()
        ),
        Fraction(0),
    )
    ev = natural * (natural * 0 - (1 - natural)) + (1 - natural) * (
        natural * Fraction(3, 2) - final[BUST] + vs
    )
    standing = 1 - natural - final[BUST]  # the player's hand still in: the dealer draws
    cards = 4 + (1 - natural) * (draws + standing * dealer_draws)
    outcomes = {str(t): (1 - natural) * q for t, q in dealer.items() if t != BUST}
    outcomes |= {"blackjack": natural, "bust": (1 - natural) * dealer[BUST]}
    return {"ev": ev, "natural": natural, "cards": cards, "dealer": outcomes}


def close(estimate: float, exact: Fraction | float, stderr: float, k: float = 4) -> bool:
    """Within ``k`` standard errors."""
    return abs(estimate - float(exact)) <= k * stderr


def binomial_se(p: Fraction | float, n: int) -> float:
    return math.sqrt(float(p) * (1 - float(p)) / n)


def test_the_enumeration_gives_the_textbook_figures() -> None:
    exact = mimic_exact()
    assert exact["natural"] == Fraction(8, 169)
    assert sum(exact["dealer"].values()) == 1  # type: ignore[attr-defined]
    assert -0.0570 < float(exact["ev"]) < -0.0565  # type: ignore[arg-type]  # mimic: -5.67 %


def test_infinite_deck_matches_the_enumeration() -> None:
    n = 6000
    out = simulate(rounds=n, seed="exact", decks=None, strategy="mimic", opts=BlackjackOptions())
    exact = mimic_exact()
    assert close(out["natural_rate"], exact["natural"], binomial_se(exact["natural"], n))  # type: ignore[arg-type]
    for key, p in exact["dealer"].items():  # type: ignore[attr-defined]
        assert close(out["dealer_outcomes"][key], p, binomial_se(p, n)), key
    assert close(out["player_ev"], exact["ev"], out["player_ev_stderr"])  # type: ignore[arg-type]
    # a round deals 4 to about 15 cards: a standard deviation below 2
    assert close(out["cards_per_round"], exact["cards"], 2 / math.sqrt(n))  # type: ignore[arg-type]


@pytest.mark.slow
def test_infinite_deck_ev_to_a_tenth_of_a_percent() -> None:
    out = simulate(rounds=400_000, seed="ev", decks=None, strategy="mimic", opts=BlackjackOptions())
    exact = mimic_exact()
    assert out["player_ev_stderr"] < 0.002
    assert close(out["player_ev"], exact["ev"], out["player_ev_stderr"])  # type: ignore[arg-type]
    assert close(out["natural_rate"], exact["natural"], binomial_se(exact["natural"], 400_000))  # type: ignore[arg-type]


@pytest.mark.slow
def test_basic_strategy_on_six_decks_is_near_even() -> None:
    out = simulate(rounds=400_000, seed="ev", decks=6, strategy="basic", opts=BlackjackOptions())
    assert -0.0095 < out["player_ev"] < 0.0005, out


# --------------------------------------------------------------------------- the engine path


def test_no_split_never_splits() -> None:
    bet = Action(ActionKind.BET, 1, amount=10)
    seen: dict[bool, set[str]] = {}
    for split in (False, True):
        game = BlackjackGame(BlackjackOptions(), host=1, entropy=seeded_entropy("ns"))
        game.apply(Action(ActionKind.JOIN, 1, amount=10**9))
        seen[split] = set()
        for _ in range(400):
            seen[split] |= {e.kind for e in play_round(game, _Shoe(), basic_strategy(), bet, split)}
    assert "split" not in seen[False] and "double" in seen[False]
    assert "split" in seen[True]


def test_simulate_is_deterministic_and_the_seed_matters() -> None:
    a = simulate(rounds=500, seed="s", decks=2, strategy="basic", opts=BlackjackOptions())
    b = simulate(rounds=500, seed="s", decks=2, strategy="basic", opts=BlackjackOptions())
    c = simulate(rounds=500, seed="t", decks=2, strategy="basic", opts=BlackjackOptions())
    for key in ("player_ev", "natural_rate", "dealer_outcomes", "cards_per_round"):
        assert a[key] == b[key]
    assert a["player_ev"] != c["player_ev"]


# --------------------------------------------------------------------------- command line


@pytest.mark.parametrize("key", ["classic", "blackjack"])
def test_cli_json(key: str, capsys: pytest.CaptureFixture[str]) -> None:
    argv = [key, "--rounds", "800", "--seed", "7", "--decks", "inf", "--strategy", "mimic"]
    assert main([*argv, "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    for field in (
        "rounds",
        "player_ev",
        "player_ev_stderr",
        "natural_rate",
        "dealer_outcomes",
        "cards_per_round",
        "rounds_per_second",
    ):
        assert field in out
    assert out["rounds"] == 800 and out["decks"] == "inf" and out["game"] == "blackjack"
    assert set(out["dealer_outcomes"]) == {"17", "18", "19", "20", "21", "blackjack", "bust"}
    assert abs(sum(out["dealer_outcomes"].values()) - 1) < 1e-9
    assert 4 < out["cards_per_round"] < 7


def test_cli_options_and_text(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["classic", "--rounds", "300", "--decks", "1", "--strategy", "basic", "--h17"]
    argv += ["--blackjack-pays", "6:5", "--no-double", "--no-split", "--surrender"]
    assert main([*argv, "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["rules"] == {
        "dealer_hits_soft_17": True,
        "blackjack_pays": "6:5",
        "double": False,
        "split": False,
        "max_hands": 1,
        "surrender": True,
        "penetration": 0.75,
        "dealer_peeks": True,
        "split_aces_one_card": True,
    }
    argv2 = ["blackjack", "--rounds", "300", "--max-hands", "2", "--no-dealer-peeks"]
    assert main([*argv2, "--no-split-aces-one-card", "--json"]) == 0
    rules = json.loads(capsys.readouterr().out)["rules"]
    assert rules["max_hands"] == 2 and rules["split"] is True
    assert rules["dealer_peeks"] is False and rules["split_aces_one_card"] is False
    assert main(argv) == 0
    text = capsys.readouterr().out
    assert "player EV" in text and "rounds/s" in text
    for bad in (["--decks", "9"], ["--max-hands", "5"], ["--strategy", "threshold:17"]):
        with pytest.raises(SystemExit):
            main(["classic", *bad])
    with pytest.raises(SystemExit):
        main(["classic", "--rounds", "0"])
    assert main([]) == 2 and main(["nope"]) == 2 and main(["--help"]) == 0
    assert find("classic") is find("blackjack") is SIMULATORS["blackjack"]


# --------------------------------------------------------------------------- strategies


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
        (True, ("8S", "8H"), "AD", ALL, SURRENDER),
        (False, ("8S", "8H"), "AD", ALL, SPLIT),
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
