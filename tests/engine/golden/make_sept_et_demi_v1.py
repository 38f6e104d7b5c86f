"""One-off: Sept et demi snapshots written by the code of main at 9a79549 (the engine still
on its own plumbing, snapshot ``version`` 1), each followed by the moves its game went on
with and where they led. ``tests/engine/test_sept_et_demi_restore.py`` restores every
snapshot with today's code, replays the moves and checks it ends in the same place with
the same money. Kept as a record (run at 9a79549:
``python tests/engine/golden/make_sept_et_demi_v1.py tests/engine/golden/sept_et_demi_v1.json``)."""

from __future__ import annotations

import json
import random
import sys
from collections import Counter
from typing import Any

from bot.engine.base import Action, ActionKind, IllegalAction, Phase
from bot.engine.games.sept_et_demi import SeptEtDemi
from bot.engine.shuffle import seeded_entropy

K = ActionKind
MOVES = 90  # moves recorded after each snapshot


def entropy_label(name: str) -> str:
    return f"sept-v1:{name}"


def choose(g: SeptEtDemi, rng: random.Random, joiners: list[int]) -> Action | None:
    """A legal move: the game's own moves mostly, sometimes a leave, a join, a vote, a
    timeout."""
    if g.phase is Phase.FINISHED:
        return None
    seated = g.seated()
    r = rng.random()
    if g.phase in (Phase.LOBBY, Phase.BETWEEN_ROUNDS):
        if r < 0.1 and len(seated) > 3:
            return Action(K.LEAVE, rng.choice(seated))
        if r < 0.2 and joiners:
            return Action(K.JOIN, joiners.pop(0))
        if r < 0.25:
            voters = [p for p in seated if K.VOTE_STOP in g.legal_actions(p)]
            if voters:
                return Action(K.VOTE_STOP, rng.choice(voters))
        starter = next(p for p in seated if K.START in g.legal_actions(p))
        return Action(K.START, starter)
    if r < 0.08:
        return Action(K.TIMEOUT)
    if r < 0.11:
        voters = [p for p in seated if K.VOTE_STOP in g.legal_actions(p)]
        if voters:
            return Action(K.VOTE_STOP, rng.choice(voters))
    p = g.to_act
    assert p is not None
    legal = g.legal_actions(p)
    if K.BET in legal:
        low, high = g.bet_range(p) or (1, 1)
        if rng.random() < 0.15:
            return Action(K.SIT_OUT, p)
        return Action(K.BET, p, amount=rng.randint(low, high))
    if K.SHOW in legal:
        return Action(rng.choice([K.SHOW, K.SWAP]), p)
    if K.HIT in legal and rng.random() < 0.55:
        return Action(K.HIT, p)
    return Action(K.STAND, p)


def flows(events: list[Any]) -> Counter[str]:
    out: Counter[str] = Counter()
    for e in events:
        for m in e.money:
            out[m.src] -= m.amount
            out[m.dst] += m.amount
    return out


def record(
    name: str,
    g: SeptEtDemi,
    rng: random.Random,
    joiners: list[int],
    first: tuple[Action, ...] = (),
) -> dict[str, Any]:
    """The snapshot now, then ``first`` and more moves up to MOVES, and where they lead."""
    snapshot = json.loads(json.dumps(g.to_dict()))
    moves: list[dict[str, Any]] = []
    money: Counter[str] = Counter()
    for n in range(MOVES):
        action = first[n] if n < len(first) else choose(g, rng, joiners)
        if action is None:
            break
        for k, v in flows(g.apply(action)).items():
            money[k] += v
        moves.append(action.to_dict())
    stacks = {str(p): g.players[p].stack for p in g.seated()}
    return {
        "name": name,
        "entropy": entropy_label(name),
        "snapshot": snapshot,
        "moves": moves,
        "after": {
            "phase": g.phase.value,
            "round": g.round,
            "banker": g.banker,
            "stacks": stacks,
            "fund": g.fund,
            "bank_shown": list(g.bank_shown),
            "money": {k: v for k, v in sorted(money.items()) if v},
        },
    }


def new(name: str, n: int, **opts: Any) -> SeptEtDemi:
    g = SeptEtDemi(opts, host=1, entropy=seeded_entropy(entropy_label(name)))
    for p in range(1, n + 1):
        g.apply(Action(K.JOIN, p))
    return g


def scenarios() -> list[dict[str, Any]]:
    out = []
    # the lobby
    g = new("lobby", 3)
    out.append(record("lobby", g, random.Random(1), [4, 5]))
    # bets half taken
    g = new("betting", 4, min_bet=2)
    g.apply(Action(K.START, 1))
    g.apply(Action(K.BET, 2, amount=30))
    g.apply(Action(K.SIT_OUT, 3))
    out.append(record("betting", g, random.Random(2), [5]))
    # a new card waiting to be shown or hidden, on a rigged deck, a vote cast
    g = new("choice", 3)
    g.rig_next_deal(["2C", "3D", "4S", "3H", "KH"])
    g.apply(Action(K.START, 1))
    g.apply(Action(K.BET, 2, amount=10))
    g.apply(Action(K.BET, 3, amount=20))
    g.apply(Action(K.VOTE_STOP, 3))
    g.apply(Action(K.HIT, 2))
    out.append(record("choice", g, random.Random(3), [4]))
    # the bank's turn, a player bust, the 32-card deck
    g = new("bank", 3, deck="32", buy_in=40)
    g.rig_next_deal(["AS", "KC", "JS", "8H", "AD"])
    g.apply(Action(K.START, 1))
    g.apply(Action(K.BET, 2, amount=20))
    g.apply(Action(K.BET, 3, amount=20))
    g.apply(Action(K.HIT, 2))
    g.apply(Action(K.SHOW, 2))
    g.apply(Action(K.STAND, 2))
    g.apply(Action(K.HIT, 3))  # K 4 + A 7: over
    out.append(record("bank", g, random.Random(4), []))
    # between rounds: the host banked and lost everything (out, not seated), a player
    # left, the next deal rigged already
    g = new("between", 4, buy_in=20, guarantee_fund=7, rounds=9)
    g.rig_next_deal(["7H", "6C", "6D", "5S", "QH"])
    g.apply(Action(K.START, 1))
    for p in (2, 3, 4):
        g.apply(Action(K.BET, p, amount=10))
    g.apply(Action(K.HIT, 2))
    g.apply(Action(K.SHOW, 2))
    for p in (2, 3, 4, 1):
        g.apply(Action(K.STAND, p))
    g.apply(Action(K.LEAVE, 4))
    g.rig_next_deal(["2S", "3S", "4S"])
    assert g.phase is Phase.BETWEEN_ROUNDS and not g.players[1].seated
    out.append(record("between", g, random.Random(5), [1, 4, 6]))
    # the same seen from the bank's turn: the host banks and is out of chips, a newcomer
    # sits down: nobody hosts (any seated player starts the rounds) until the host is back
    g = new("newcomer", 4, buy_in=20, guarantee_fund=7)
    g.rig_next_deal(["7H", "6C", "6D", "5S", "QH"])
    g.apply(Action(K.START, 1))
    for p in (2, 3, 4):
        g.apply(Action(K.BET, p, amount=10))
    g.apply(Action(K.HIT, 2))
    g.apply(Action(K.SHOW, 2))
    for p in (2, 3, 4):
        g.apply(Action(K.STAND, p))
    assert g.phase is Phase.BANK
    start = (Action(K.STAND, 1), Action(K.START, 3), *[Action(K.TIMEOUT)] * 2)
    start += (Action(K.JOIN, 5), Action(K.START, 4))
    out.append(record("newcomer", g, random.Random(8), [1, 6], start))
    # a long game of eight players on small stacks
    g = new("eight", 8, buy_in=12, min_bet=2, guarantee_fund=3)
    g.apply(Action(K.START, 1))
    rng = random.Random(6)
    for _ in range(40):
        action = choose(g, rng, [])
        if action is None:
            break
        try:
            g.apply(action)
        except IllegalAction:  # pragma: no cover - the choice is legal
            raise
    out.append(record("eight", g, random.Random(7), [9]))
    return out


if __name__ == "__main__":
    data = {"written_by": "9a79549", "scenarios": scenarios()}
    text = json.dumps(data, indent=1, sort_keys=True) + "\n"
    if len(sys.argv) > 1:
        with open(sys.argv[1], "w", encoding="utf-8") as f:
            f.write(text)
    else:
        print(text)
