"""Casino 21 engine: hypothesis properties over random (mostly legal) play."""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import replace
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.engine.base import Action, ActionKind, Event, IllegalAction, MoneyKind, Phase, Visibility
from bot.engine.games.casino21 import ILLEGAL_CODES, Casino21
from bot.engine.registry import AnyGame
from bot.engine.shuffle import seeded_entropy
from bot.engine.views import as_dict
from tests.engine.ledger import Ledger as SharedLedger

K = ActionKind
PLAYERS = [1, 2, 3, 4]
WEIGHTS = {
    K.JOIN: 2,
    K.LEAVE: 1,
    K.TOP_UP: 1,
    K.SIT_OUT: 1,
    K.BET: 6,
    K.DRAW: 6,
    K.END_TURN: 1,
    K.CHOOSE_ACE: 6,
}
SETTINGS = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])

options_st = st.fixed_dictionaries(
    {
        "welcome_stake": st.sampled_from([0, 20, 100]),
        "wager_requirement": st.sampled_from([0, 30, 100]),
        "min_bet": st.sampled_from([1, 2]),
        "max_bet": st.sampled_from([10, 100]),
        "bank_bust_bonus": st.sampled_from([5, 0, "half"]),
        "seed": st.integers(0, 10**6),
    }
)


def snapshot(game: Casino21) -> str:
    return json.dumps(game.to_dict(), sort_keys=True)


def reload(game: Casino21) -> Casino21:
    return Casino21.from_dict(json.loads(snapshot(game)), entropy=game.entropy)


def draw_action(data: st.DataObject, game: Casino21) -> Action:
    """Mostly a legal kind with plausible parameters, sometimes anything at all."""
    if data.draw(st.integers(0, 9)) == 7:
        return Action(
            data.draw(st.sampled_from(list(ActionKind))),
            data.draw(st.sampled_from([None, 99, *PLAYERS])),
            data.draw(st.sampled_from([None, -1, 0, 1, 5, 11, 200])),
            data.draw(st.sampled_from([None, 0, 1, 11])),
            None,
            data.draw(st.booleans()),
        )
    actor = None if data.draw(st.integers(0, 9)) == 7 else data.draw(st.sampled_from(PLAYERS))
    legal = sorted(game.legal_actions(actor), key=lambda k: k.value)
    # weighted: moves often, seat changes sometimes, closing rarely (rounds get played)
    kinds = [k for k in legal if k is not K.CLOSE for _ in range(WEIGHTS.get(k, 4))]
    if K.CLOSE in legal and (not kinds or data.draw(st.integers(0, 60)) == 17):
        return Action(K.CLOSE, actor)
    if not kinds:
        return Action(K.TIMEOUT, actor)
    kind = data.draw(st.sampled_from(kinds))
    if kind is K.JOIN:
        return Action(kind, actor, amount=data.draw(st.sampled_from([0, 0, 10, 40])))
    if kind is K.TOP_UP:
        return Action(kind, actor, amount=data.draw(st.integers(1, 30)))
    if kind is K.LEAVE:
        return Action(kind, actor, confirm=data.draw(st.booleans()))
    if kind is K.BET:
        return Action(kind, actor, amount=data.draw(st.integers(1, 40)))
    if kind is K.CHOOSE_ACE:
        return Action(kind, actor, value=data.draw(st.sampled_from([1, 11])))
    if kind is K.DRAW:
        return Action(kind, actor, amount=data.draw(st.sampled_from([0, 0, 1, 1, 2, 3])))
    return Action(kind, actor)


class Ledger(SharedLedger):
    """The shared ledger, and Casino 21's own rules: the house pays or takes only welcome
    stakes, payouts, losses and forfeits; a claim is never negative."""

    def feed(self, events: Iterable[Event]) -> list[Event]:
        out = super().feed(events)
        for e in out:
            for m in e.money:
                if "house" in (m.src, m.dst):
                    assert m.kind in (
                        MoneyKind.WELCOME_STAKE,
                        MoneyKind.PAYOUT,
                        MoneyKind.LOSS,
                        MoneyKind.FORFEIT,
                    )
        return out

    def check(self, game: AnyGame) -> None:
        super().check(game)
        for key, value in self.bal.items():
            if key.startswith("claim:"):
                assert value >= 0


def check_hidden(game: Casino21, events: list[Event]) -> None:
    """The hole card appears in no public event before the reveal, nor in public views."""
    if len(game.bank_cards) < 2:
        return
    hole = game.bank_cards[1].code
    for e in events:
        if e.kind == "bank_reveal":
            break
        if e.visibility is Visibility.PUBLIC:
            assert hole not in json.dumps(e.to_dict())
    if not game.bank_revealed:
        # the previous round's summary may show the same card from the previous deck
        current = replace(game.public_view(), last_round=None)
        assert hole not in json.dumps(as_dict(current))
        for p in PLAYERS:
            view = game.private_view(p)
            mine = replace(view, table=replace(view.table, last_round=None))
            assert hole not in json.dumps(as_dict(mine))


def new_game(options: dict[str, Any]) -> Casino21:
    """A table whose shuffles depend on a drawn ``seed`` option (removed from options)."""
    options = dict(options)
    seed = options.pop("seed")
    return Casino21(options, host=1, entropy=seeded_entropy(f"casino21-props-{seed}"))


@SETTINGS
@given(options=options_st, data=st.data())
def test_random_play_invariants_and_snapshot_future(
    options: dict[str, Any], data: st.DataObject
) -> None:
    game = new_game(options)
    ledger = Ledger()
    own = 0 if options["welcome_stake"] else 30  # own funds only once the stake is spent
    for p in range(1, data.draw(st.integers(1, 4)) + 1):
        ledger.feed(game.apply(Action(K.JOIN, p, amount=own)))
    for _ in range(data.draw(st.integers(5, 80))):
        action = draw_action(data, game)
        before = snapshot(game)
        shadow = reload(game)
        assert snapshot(shadow) == before
        try:
            events = game.apply(action)
        except IllegalAction as err:
            assert err.code in ILLEGAL_CODES
            assert snapshot(game) == before  # an illegal action changes nothing
            try:
                shadow.apply(action)
            except IllegalAction as err2:
                assert err2.code == err.code and err2.params == err.params
            else:
                raise AssertionError("the reloaded game accepted an illegal action")
            continue
        # the same future from the snapshot: same events, same state
        shadow_events = shadow.apply(action)
        assert [e.to_dict() for e in shadow_events] == [e.to_dict() for e in events]
        assert snapshot(shadow) == snapshot(game)
        json.dumps([e.to_dict() for e in events])
        json.dumps(as_dict(game.public_view()))
        ledger.feed(events)
        ledger.check(game)
        check_hidden(game, events)
        if game.phase is Phase.FINISHED:
            break
    # any round in progress ends within three timer expiries, then the table closes
    for _ in range(3):
        if game.phase in (Phase.BETTING, Phase.PLAYING):
            events = game.apply(Action(K.TIMEOUT))
            ledger.feed(events)
            ledger.check(game)
            check_hidden(game, events)
    assert game.phase not in (Phase.BETTING, Phase.PLAYING)
    if game.phase is not Phase.FINISHED:
        ledger.feed(game.apply(Action(K.CLOSE)))
    assert game.phase is Phase.FINISHED and not game.seats
    ledger.check(game)
    assert all(v == 0 for k, v in ledger.bal.items() if k.startswith("seat:") or k == "pot")


@settings(max_examples=80, deadline=None)
@given(options=options_st, players=st.integers(1, 4), data=st.data())
def test_players_alone_always_finish_rounds(
    options: dict[str, Any], players: int, data: st.DataObject
) -> None:
    """Without the host's END_TURN or timers, legal player moves end every round."""
    game = new_game({**options, "welcome_stake": 100})
    ledger = Ledger()
    for p in range(1, players + 1):
        ledger.feed(game.apply(Action(K.JOIN, p)))
    for _ in range(3):
        if game.phase is Phase.FINISHED or game.host not in {s.player for s in game.seats}:
            break
        ledger.feed(game.apply(Action(K.START, game.host)))
        steps = 0
        while game.phase in (Phase.BETTING, Phase.PLAYING):
            steps += 1
            assert steps < 200
            movers = [
                (s.player, k)
                for s in game.seats
                for k in game.legal_actions(s.player)
                if k in (K.BET, K.SIT_OUT, K.CHOOSE_ACE, K.DRAW)
            ]
            assert movers, "a round in progress with nobody able to move"
            player, kind = data.draw(st.sampled_from(movers))
            if kind is K.BET:
                s = game.seat_of(player)
                assert s is not None
                amount = data.draw(
                    st.integers(game.options.min_bet, min(s.stack, game.options.max_bet))
                )
                action = Action(kind, player, amount=amount)
            elif kind is K.CHOOSE_ACE:
                action = Action(kind, player, value=data.draw(st.sampled_from([1, 11])))
            elif kind is K.DRAW:
                action = Action(kind, player, amount=data.draw(st.integers(0, game.max_draw())))
            else:
                action = Action(kind, player)
            ledger.feed(game.apply(action))
            ledger.check(game)
        assert game.pot == 0
