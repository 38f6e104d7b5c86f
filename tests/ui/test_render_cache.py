"""The table message with its buttons kept from the last render (issue 27) is the one
drawn from nothing: after every move of random legal sequences, in the four games and
both languages, the cached render's embed and buttons equal a render with the cache off.
And the legal actions kept per state are the ones worked out afresh after every change."""

from __future__ import annotations

import contextlib
import dataclasses
import random
from collections.abc import Iterator
from typing import Any

import pytest

from bot.discord.publisher import render
from bot.engine.base import Action, ActionKind, IllegalAction
from bot.engine.registry import GAMES, AnyGame
from bot.engine.shuffle import seeded_entropy
from bot.tables.models import Table, TableSettings
from bot.ui import cards
from bot.ui.render import cache

K = ActionKind
AMOUNTS = {K.BET: (1, 5, 10, 40), K.TOP_UP: (1, 20), K.DRAW: (0, 1, 2, 3)}
PEOPLE = (None, *range(1, 10))  # more than a table seats: a full table has no Join
# how often a kind is kept among the moves to pick from: a close or a leave would end the
# table at once, a sit-out or a timeout skips the hands this test wants drawn
KEEP = {K.CLOSE: 0.02, K.LEAVE: 0.02, K.SIT_OUT: 0.2, K.TIMEOUT: 0.2, K.VOTE_STOP: 0.2}


def drawn(table: Table, note: str | None = None) -> tuple[dict[str, Any], Any]:
    """The table message as Discord receives it: the embed's JSON and the components."""
    embed, view = render(table, note)
    return embed.to_dict(), None if view is None else view.to_components()


def fresh(table: Table, note: str | None = None) -> tuple[dict[str, Any], Any]:
    """The same, drawn with the caches off (the table's cache left as it was)."""
    kept = table.render_cache
    cache.ENABLED = False
    try:
        return drawn(table, note)
    finally:
        cache.ENABLED = True
        assert table.render_cache is kept


@contextlib.contextmanager
def pictures(on: bool) -> Iterator[None]:
    """Cards drawn as pictures (fake emoji markup) or as text."""
    if on:
        codes = [f"{r}{s}" for r in "A23456789TJQK" for s in "SHDC"] + [cards.BACK]
        cards.use_faces({c: f"<:{c}_0a0a:{10**18 + i}>" for i, c in enumerate(codes)})
    try:
        yield
    finally:
        cards.use_faces({})


def next_action(rng: random.Random, g: AnyGame) -> Action | None:
    """A random move among those the game allows (a leave or a close now and then)."""
    kinds = {p: sorted(g.legal_actions(p), key=lambda k: k.value) for p in PEOPLE}
    moves = [(p, k) for p in PEOPLE for k in kinds[p] if rng.random() < KEEP.get(k, 1.0)]
    if not moves:
        return None
    p, k = rng.choice(moves)
    amount = g.probe(k, p).amount if k is K.JOIN else rng.choice(AMOUNTS.get(k, (None,)))
    return Action(k, p, amount=amount, value=rng.choice((1, 11)), confirm=True)


def check_legal(g: AnyGame) -> None:
    """What the game keeps of its legal actions is what a fresh look finds."""
    for p in PEOPLE:
        assert g.legal_actions(p) == g._legal_now(p), (g.GAME, g.phase, p)
    assert g.seated_legal() == g._seated_legal_now(), (g.GAME, g.phase)


def play(key: str, locale: str, seed: int, moves: int) -> int:
    """Random moves at one table, the render compared after each; the renders compared."""
    rng = random.Random(f"{key}{locale}{seed}")
    g = GAMES[key].build(1, {}, seeded_entropy(f"cache{key}{seed}"))
    settings = TableSettings(name=rng.choice(("", "Tortuga")), locale=locale)
    table = Table(7, 10, 20, None, 30, key, 1, settings, g, 1)
    compared = 0
    for n in range(moves):
        if n == moves // 2:  # a restart: the game as loaded from its snapshot
            table.game = g = GAMES[key].load(g.to_dict(), seeded_entropy(f"re{key}{seed}"))
            check_legal(g)
        table.deadline_due = rng.choice((None, None, 1_800_000_000.0 + n))
        note = "back" if rng.random() < 0.1 else None
        assert drawn(table, note) == fresh(table, note), (key, locale, n, g.phase)
        compared += 1
        action = next_action(rng, g)
        if action is None:
            break
        try:
            g.apply(action)
        except IllegalAction:
            continue
        table.version += 1
        check_legal(g)
        if g.phase.value == "finished" and rng.random() < 0.5:
            table.status = "closed"
            assert drawn(table) == fresh(table)
            assert table.render_cache is None
            break
    return compared


@pytest.mark.parametrize("locale", ["en", "fr"])
@pytest.mark.parametrize("key", list(GAMES))
def test_the_cached_render_is_the_render_from_nothing(key: str, locale: str) -> None:
    compared = seed = 0
    while compared < 600 and seed < 80:  # some games end within a few moves
        with pictures(seed % 3 == 2):
            compared += play(key, locale, seed, 120)
        seed += 1
    assert compared >= 600, compared


def test_the_cache_is_one_entry_per_table() -> None:
    rng = random.Random("size")
    g = GAMES["blackjack"].build(1, {}, seeded_entropy("size"))
    table = Table(7, 10, 20, None, 30, "blackjack", 1, TableSettings(), g, 1)
    kept = []
    for _ in range(400):
        drawn(table)
        locale, _key, rows = table.render_cache
        assert locale == "en" and rows is not None
        kept.append(rows)
        action = next_action(rng, g)
        if action is None or action.kind is K.CLOSE:
            continue
        with contextlib.suppress(IllegalAction):
            g.apply(action)
            table.version += 1
    # the same buttons were kept from one move to the next, and drawn again at times
    assert 1 < len({id(rows) for rows in kept}) < len(kept) / 2


def test_a_render_in_another_language_replaces_the_cache() -> None:
    g = GAMES["casino21"].build(1, {}, seeded_entropy("lang"))
    table = Table(7, 10, 20, None, 30, "casino21", 1, TableSettings(locale="fr"), g, 1)
    french = drawn(table)
    table.settings = dataclasses.replace(table.settings, locale="en")
    english = drawn(table)
    assert table.render_cache[0] == "en" and english == fresh(table) != french


def test_a_renderer_without_a_button_key_draws_its_buttons_every_time(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from bot.ui.render import renderer_for

    drawn_specs = []
    renderer = type(renderer_for("blackjack"))
    buttons = renderer.buttons

    def counted(self: Any, ctx: Any) -> Any:
        drawn_specs.append(ctx)
        return buttons(self, ctx)

    monkeypatch.setattr(renderer, "button_key", lambda self, ctx: None)
    monkeypatch.setattr(renderer, "buttons", counted)
    g = GAMES["blackjack"].build(1, {}, seeded_entropy("nokey"))
    table = Table(7, 10, 20, None, 30, "blackjack", 1, TableSettings(), g, 1)
    assert drawn(table) == drawn(table) == fresh(table)
    assert len(drawn_specs) == 3 and table.render_cache is None


def test_tables_in_the_same_state_share_their_buttons_with_their_own_ids() -> None:
    cache.clear()
    tables = []
    for table_id in (7, 8):
        g = GAMES["blackjack"].build(1, {}, seeded_entropy(f"share{table_id}"))
        tables.append(Table(table_id, 10, 20, None, 30, "blackjack", 1, TableSettings(), g, 3))
    seven, eight = (drawn(t)[1] for t in tables)
    assert tables[0].render_cache[2] is tables[1].render_cache[2]  # one layout for both
    ids = [b["custom_id"] for row in seven for b in row["components"]]
    assert ids and all(i.startswith("cr:7:3:") for i in ids)
    assert [
        b["custom_id"].replace("cr:8:", "cr:7:") for row in eight for b in row["components"]
    ] == ids
    assert (seven, eight) == (fresh(tables[0])[1], fresh(tables[1])[1])


def test_the_shared_layouts_are_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    cache.clear()
    monkeypatch.setattr(cache, "LAYOUTS_KEPT", 3)
    g = GAMES["blackjack"].build(1, {}, seeded_entropy("bounded"))
    for n in range(10):  # a different key each time: a layout each
        table = Table(n, 10, 20, None, 30, "blackjack", 1, TableSettings(), g, 1)
        cache.button_rows(table, "en", ("state", n), list)
        assert len(cache._LAYOUTS) <= 3
