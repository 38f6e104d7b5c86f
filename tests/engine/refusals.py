"""The check every game's scripted tests make of a refused move."""

from __future__ import annotations

import json

import pytest

from bot.engine.base import Action, IllegalAction
from bot.engine.registry import AnyGame


def refused(g: AnyGame, action: Action, code: str | None = None) -> IllegalAction:
    """``g`` refuses ``action`` (with ``code`` when given), with a code the game lists, and
    nothing changed."""
    before = json.dumps(g.to_dict(), sort_keys=True)
    with pytest.raises(IllegalAction) as err:
        g.apply(action)
    assert json.dumps(g.to_dict(), sort_keys=True) == before
    assert err.value.code in type(g).ILLEGAL_CODES, err.value.code
    if code is not None:
        assert err.value.code == code
    return err.value
