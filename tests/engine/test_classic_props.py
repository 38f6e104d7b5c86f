"""Black Jack (classic) properties: random legal play from random seeds.

- every round terminates; CLOSE always ends the table;
- money is conserved: each seat's Money net equals the engine stack, the pot's equals
  ``game.pot`` and is 0 between rounds, and everything is back out after CLOSE;
- the hole card is never in a public event, public_view() or another player's view before
  the dealer's turn;
- snapshots round-trip at every step (to_dict -> JSON -> from_dict, same entropy) and the
  restored game produces the same events;
- an illegal action raises IllegalAction and changes nothing.
"""

from __future__ import annotations

import json
from dataclasses import replace
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.engine.base import Action, ActionKind, Event, IllegalAction, Phase, Visibility
from bot.engine.games.blackjack import ILLEGAL_CODES, BlackjackGame, BlackjackOptions
from bot.engine.shuffle import seeded_entropy
from bot.engine.views import as_dict
from tests.engine.ledger import Ledger

K = ActionKind
PLAYERS = [11, 22, 33, 44]
RIG_POOL = ["AS", "AH", "8S", "8D", "TS", "KH", "QD", "5C", "6D", "9H", "2C"]

options_st = st.builds(
    BlackjackOptions,
    decks=st.sampled_from([1, 1, 2]),
    penetration=st.sampled_from([0.5, 0.75, 0.9]),
    min_bet=st.sampled_from([1, 2, 10]),
    max_bet=st.sampled_from([10, 50]),
    max_hands=st.integers(2, 4),
    split_aces_one_card=st.booleans(),
    double=st.booleans(),
    surrender=st.booleans(),
    dealer_peeks=st.booleans(),
    dealer_hits_soft_17=st.booleans(),
    blackjack_pays=st.sampled_from(["3:2", "6:5", "1:1"]),
)


def candidates(g: BlackjackGame, draw: Any) -> list[Action]:
    out: list[Action] = []
    for p in [*PLAYERS, None]:
        for kind in sorted(g.legal_actions(p), key=lambda k: k.value):
            if kind is K.CLOSE:
                continue  # closing is tested at the end
            if kind is K.BET:
                assert p is not None
                lo, hi = g.bet_limits(p)
                out.append(Action(kind, p, amount=draw(st.integers(lo, hi))))
            elif kind in (K.JOIN, K.TOP_UP):
                out.append(
                    Action(
                        kind,
                        p,
                        amount=draw(st.sampled_from([0, 5, 30, 200]))
                        if kind is K.JOIN
                        else draw(st.sampled_from([1, 25, 100])),
                    )
                )
            else:
                out.append(Action(kind, p))
    return out


def random_action(draw: Any) -> Action:
    return Action(
        draw(st.sampled_from(list(K))),
        draw(st.sampled_from([*PLAYERS, None, 99])),
        amount=draw(st.sampled_from([None, -1, 0, 1, 10, 10_000])),
        hand=draw(st.sampled_from([None, 0, 1, 5])),
    )


def hole_guard(g: BlackjackGame, events: list[Event], state: dict[str, Any]) -> None:
    """Track the hole card and check it is not visible before the dealer's turn."""
    for e in events:
        if e.kind == "hole_card":
            assert e.visibility is Visibility.HIDDEN
            state["hole"], state["unique"] = e.data["card"], not state.get("rigged")
        elif e.kind == "hole_revealed":
            state["hole"] = None
        elif e.kind == "seed_revealed":
            assert not state.get("hole"), "a revealed seed would give the hole card away"
        elif e.kind == "shuffle" and state.get("hole"):
            state["unique"] = False  # a fresh shoe mid-round may repeat the code
        elif state.get("hole") and e.visibility is Visibility.PUBLIC:
            assert e.kind != "hole_revealed"
            if state["unique"] and g.options.decks == 1:
                assert state["hole"] not in json.dumps(e.to_dict()), e
    hole = state.get("hole")
    if hole:
        view = g.public_view()
        assert view.own.dealer.cards[1:] == (None,)
        assert view.own.dealer.hole_hidden is True
        if state["unique"] and g.options.decks == 1:
            # the previous round's summary may show the same card from the previous shoe
            current = replace(view, last_round=None)
            assert hole not in json.dumps(as_dict(current))
            for p in g.seated():
                mine = g.private_view(p)
                mine = replace(mine, table=replace(mine.table, last_round=None))
                assert hole not in json.dumps(as_dict(mine))


@settings(max_examples=70, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.binary(min_size=1, max_size=8), opts=options_st, data=st.data())
def test_random_play(seed: bytes, opts: BlackjackOptions, data: st.DataObject) -> None:
    entropy = seeded_entropy(seed)
    g = BlackjackGame(opts, entropy=entropy)
    ledger = Ledger()
    hole: dict[str, Any] = {}
    steps_in_round = 0
    rounds = 0
    for p in PLAYERS[: data.draw(st.integers(1, 3))]:
        events = g.apply(Action(K.JOIN, p, amount=data.draw(st.sampled_from([15, 60, 300]))))
        ledger.feed(events)
    for _ in range(data.draw(st.integers(5, 70))):
        # an illegal (or legal) random move: when refused, nothing changed
        probe = random_action(data.draw)
        before = json.dumps(g.to_dict(), sort_keys=True)
        try:
            BlackjackGame.from_dict(json.loads(before), entropy=entropy).apply(probe)
        except IllegalAction as err:
            assert err.code in ILLEGAL_CODES, err.code
            try:
                g.apply(probe)
            except IllegalAction as err2:
                assert err2.code == err.code
            else:
                raise AssertionError("game and its restored copy disagree")
            assert json.dumps(g.to_dict(), sort_keys=True) == before

        options = candidates(g, data.draw)
        if not options:
            break
        play = [a for a in options if a.kind not in (K.JOIN, K.LEAVE, K.TOP_UP)]
        if play and data.draw(st.integers(0, 9)) > 0:
            options = play  # mostly play; seat changes now and then
        action = data.draw(st.sampled_from(options))
        if action.kind is K.START and data.draw(st.booleans()):
            # stack the next cards from a small pool: pairs, aces, tens (splits, insurance)
            g.rig(data.draw(st.lists(st.sampled_from(RIG_POOL), min_size=4, max_size=14)))
            hole["rigged"] = True
        elif action.kind is K.START:
            g.rig([])  # drop rigged cards a previous round left over
            hole["rigged"] = False
        snapshot = json.loads(json.dumps(g.to_dict()))
        twin = BlackjackGame.from_dict(snapshot, entropy=entropy)
        assert twin.to_dict() == g.to_dict()
        assert twin.public_view() == g.public_view()
        events = g.apply(action)
        twin_events = twin.apply(action)
        assert [e.to_dict() for e in events] == [e.to_dict() for e in twin_events]
        assert twin.to_dict() == g.to_dict()
        for e in events:
            json.dumps(e.to_dict())
        ledger.feed(events)
        ledger.check(g)
        hole_guard(g, events, hole)
        if g.phase in (Phase.BETTING, Phase.INSURANCE, Phase.PLAYING):
            steps_in_round += 1
            assert steps_in_round < 200
        else:
            if steps_in_round:
                rounds += 1
            steps_in_round = 0
    # timeouts alone always finish a round (termination)
    guard = 0
    while g.phase in (Phase.BETTING, Phase.INSURANCE, Phase.PLAYING):
        events = g.apply(Action(K.TIMEOUT))
        ledger.feed(events)
        ledger.check(g)
        hole_guard(g, events, hole)
        guard += 1
        assert guard < 40
    events = g.apply(Action(K.CLOSE))
    ledger.feed(events)
    ledger.check(g)
    assert g.phase is Phase.FINISHED and g.pot == 0 and not g.seats
    assert all(v == 0 for k, v in ledger.bal.items() if k.startswith("seat:"))
    assert ledger.bal["pot"] == 0


@settings(max_examples=25, deadline=None)
@given(seed=st.binary(min_size=1, max_size=8), opts=options_st, data=st.data())
def test_close_mid_round_refunds_everything(
    seed: bytes, opts: BlackjackOptions, data: st.DataObject
) -> None:
    g = BlackjackGame(opts, entropy=seeded_entropy(seed))
    ledger = Ledger()
    for p in PLAYERS[:3]:
        ledger.feed(g.apply(Action(K.JOIN, p, amount=100)))
    ledger.feed(g.apply(Action(K.START)))
    for _ in range(data.draw(st.integers(0, 12))):
        options = [a for a in candidates(g, data.draw) if a.kind is not K.LEAVE]
        if not options or g.phase is Phase.BETWEEN_ROUNDS:
            break
        ledger.feed(g.apply(data.draw(st.sampled_from(options))))
        ledger.check(g)
    ledger.feed(g.apply(Action(K.CLOSE)))
    ledger.check(g)
    assert ledger.bal["pot"] == 0
    # what the players got back as claims = buy-ins - lost to the house + won from it
    claims = sum(v for k, v in ledger.bal.items() if k.startswith("claim:"))
    assert claims == 300 + ledger.bal["house"] * -1
