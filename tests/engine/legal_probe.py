"""The slow truth ``legal_actions`` must agree with: every action kind probed through the
game's checks."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from bot.engine.base import Action, ActionKind, IllegalAction


def probe_all(
    g: Any, player: int | None, build: Callable[[ActionKind], Action] | None = None
) -> tuple[frozenset[ActionKind], frozenset[str]]:
    """Every kind whose action (``g.probe``'s, or ``build(kind)``) passes ``g.check``, and
    the codes of the refusals of the others."""
    out, codes = set(), set()
    for kind in ActionKind:
        try:
            g.check(g.probe(kind, player) if build is None else build(kind))
        except IllegalAction as err:
            codes.add(err.code)
            continue
        out.add(kind)
    return frozenset(out), frozenset(codes)


def brute_force(
    g: Any, player: int | None, build: Callable[[ActionKind], Action] | None = None
) -> frozenset[ActionKind]:
    """Every kind whose action (``g.probe``'s, or ``build(kind)``) passes ``g.check``."""
    return probe_all(g, player, build)[0]
