"""The engine's views (issue 40.1): frozen, slotted dataclasses holding tuples, in every
game and phase; the renderers draw the table from the view they are given (not from the
game behind it), and a renderer handed another game's view fails loudly."""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import FrozenInstanceError, fields, is_dataclass, replace
from typing import Any, get_args, get_origin, get_type_hints

import pytest

from bot.engine import summaries, views
from bot.engine.base import Action, ActionKind, IllegalAction, Phase
from bot.engine.events import ROUND_SETTLED
from bot.engine.registry import GAMES
from bot.engine.shuffle import seeded_entropy
from bot.engine.summaries import BlackjackRound, CasinoRound, PirateRound, SeptRound
from bot.engine.views import BlackjackPart, PrivateView, SeptSeatView, TableView, as_dict
from bot.tables.models import Table, TableSettings
from bot.ui.cards import cards
from bot.ui.render import Ctx, renderer_for
from tests.ui.test_render_cache import next_action

K = ActionKind
#: the round summary each game's views carry (``last_round``)
SUMMARIES = {
    "blackjack": BlackjackRound,
    "casino21": CasinoRound,
    "pirate21": PirateRound,
    "sept_et_demi": SeptRound,
}


def check_frozen(value: Any, where: str) -> int:
    """Every dataclass under ``value`` is frozen and slotted, every sequence a tuple, no
    value a mapping; returns how many dataclasses it walked."""
    if isinstance(value, list | Mapping | set):
        raise AssertionError(f"{where} is a {type(value).__name__}")
    if isinstance(value, tuple):
        return sum(check_frozen(item, f"{where}[]") for item in value)
    if not is_dataclass(value) or isinstance(value, type):
        return 0
    assert not hasattr(value, "__dict__"), f"{where}: {type(value).__name__} has no slots"
    walked = 1
    for f in fields(value):
        with pytest.raises(FrozenInstanceError):
            setattr(value, f.name, None)
        walked += check_frozen(getattr(value, f.name), f"{where}.{f.name}")
    return walked


def played(key: str, seed: int, moves: int, summaries: set[type] | None = None) -> Any:
    """A table of ``key`` after up to ``moves`` random moves, viewed after each (the
    types of the last rounds seen go into ``summaries``)."""
    rng = random.Random(f"views{key}{seed}")
    game = GAMES[key].build(1, {}, seeded_entropy(f"views{key}{seed}"))
    for _ in range(moves):
        view = game.public_view()
        assert isinstance(view, TableView)
        assert check_frozen(view, "view") >= 2 + len(view.seats)  # the view, its seats
        if summaries is not None and view.last_round is not None:
            summaries.add(type(view.last_round))
        for player in game.seated():
            mine = game.private_view(player)
            assert isinstance(mine, PrivateView) and mine.table == view
            check_frozen(mine, "private")
        action = next_action(rng, game)
        if action is None:
            break
        try:
            game.apply(action)
        except IllegalAction:
            continue
    return game


@pytest.mark.parametrize("key", ["blackjack", "casino21", "pirate21", "sept_et_demi"])
def test_every_view_of_every_phase_is_frozen_and_holds_tuples(key: str) -> None:
    seen: set[type] = set()
    for seed in range(3):
        played(key, seed, 60, seen)
    assert seen == {SUMMARIES[key]}  # a round was settled: its summary was walked too


def untyped(hint: Any) -> list[str]:
    """What in a field's type is a mapping, a list or Any (recursing into its arguments)."""
    if hint is Any:
        return ["Any"]
    origin = get_origin(hint) or hint
    bad = [repr(hint)] if isinstance(origin, type) and issubclass(origin, Mapping | list) else []
    return bad + [b for arg in get_args(hint) for b in untyped(arg)]


@pytest.mark.parametrize("module", [views, summaries])
def test_no_view_field_is_a_mapping(module: Any) -> None:
    classes = [
        c for c in vars(module).values() if is_dataclass(c) and c.__module__ == module.__name__
    ]
    assert len(classes) > 10
    for cls in classes:
        for name, hint in get_type_hints(cls).items():
            assert not untyped(hint), f"{cls.__name__}.{name}: {hint}"


def test_the_last_round_is_the_summary_its_event_was_read_into_once() -> None:
    game = dealt("blackjack")
    settled = []
    for _ in range(40):
        player = game.to_act
        if player is None:
            break
        settled += [e for e in game.apply(Action(K.STAND, player)) if e.kind == ROUND_SETTLED]
    assert len(settled) == 1
    last = game.public_view().last_round
    assert isinstance(last, BlackjackRound) and last.round == settled[0].data["round"]
    assert game.summary_of(settled[0].data) is last  # the same mapping: read once
    assert [as_dict(h)["net"] for h in last.hands] == [h["net"] for h in settled[0].data["hands"]]


def test_as_dict_is_the_json_form_with_the_game_part() -> None:
    game = played("blackjack", 0, 12)
    data = as_dict(game.public_view())
    assert data["game"] == "blackjack" and set(data["own"]) == {
        f.name for f in fields(BlackjackPart)
    }
    assert data["options"]["min_bet"] == game.options.min_bet


def table_of(game: Any, key: str) -> Table:
    return Table(7, 10, 20, None, 30, key, 1, TableSettings(), game, 1)


def dealt(key: str) -> Any:
    """A table of ``key`` with three players and cards dealt (its first turn to play)."""
    game = GAMES[key].build(1, {}, seeded_entropy(f"dealt{key}"))
    for p in (1, 2, 3):
        if K.JOIN in game.legal_actions(p):
            given = game.probe(K.JOIN, p).amount is not None  # a buy-in of the player's
            game.apply(Action(K.JOIN, p, amount=200 if given else None))
    for _ in range(20):
        if game.phase is Phase.PLAYING:
            return game
        move = next(
            (p, kind)
            for p in (1, 2, 3)
            for kind in (K.START, K.BET, K.NO_INSURANCE)
            if kind in game.legal_actions(p)
        )
        game.apply(Action(move[1], move[0], amount=game.probe(move[1], move[0]).amount))
    raise AssertionError(f"no {key} table with cards")


def test_the_blackjack_renderer_draws_the_view_it_is_given() -> None:
    game = dealt("blackjack")
    view = game.public_view()
    own = view.own
    assert isinstance(own, BlackjackPart) and own.hands
    shown = ("AS", "AH", "AD", "AC", "KS")
    hands = tuple(replace(h, cards=shown, total=15) for h in own.hands)
    dealer = replace(own.dealer, cards=("QH", "QD", "QC"), total=30)
    ctx = Ctx(
        table_of(game, "blackjack"),
        "en",
        _view=replace(view, own=replace(own, hands=hands, dealer=dealer)),
    )
    embed = renderer_for("blackjack").embed(ctx)
    text = (embed.description or "") + "".join(str(f.value) for f in embed.fields)
    assert cards(shown) in text and "**15**" in text
    assert cards(("QH", "QD", "QC")) in text and "**30**" in text
    for hand in own.hands:  # the game's own cards are not what it drew
        assert cards(hand.cards) + " " not in text


def test_the_sept_renderer_draws_the_seats_of_the_view() -> None:
    game = dealt("sept_et_demi")
    view = game.public_view()
    seats = tuple(
        replace(s, shown=("7S", "7H", "7D"), hidden=0, pending=False, total=None)
        for s in view.seats
        if isinstance(s, SeptSeatView)
    )
    ctx = Ctx(table_of(game, "sept_et_demi"), "en", _view=replace(view, seats=seats))
    embed = renderer_for("sept_et_demi").embed(ctx)
    fields_text = "".join(str(f.value) for f in embed.fields)
    assert fields_text.count(cards(("7S", "7H", "7D"))) == len(seats)


@pytest.mark.parametrize("key", ["blackjack", "casino21", "pirate21", "sept_et_demi"])
def test_a_renderer_given_another_games_view_fails_loudly(key: str) -> None:
    other = "casino21" if key == "blackjack" else "blackjack"
    game, stranger = dealt(key), dealt(other)
    ctx = Ctx(table_of(game, key), "en", _view=stranger.public_view())
    with pytest.raises(TypeError, match="expected"):
        renderer_for(key).embed(ctx)


def test_the_public_view_is_built_once_per_state() -> None:
    game = dealt("casino21")
    view = game.public_view()
    assert game.public_view() is view and game.private_view(1).table is view
    player = game.to_act if game.to_act is not None else game.waiting[0]
    game.apply(Action(K.DRAW, player, amount=0))  # a move: the view of the new state
    after = game.public_view()
    assert after is not view and after != view and game.private_view(1).table is after
    game.rig(["AS"])  # rigging changes what the view shows (the cards left): built again
    assert game.public_view() is not after
