"""The base of the engine's enums."""

from __future__ import annotations

from enum import Enum


class FastEnum(Enum):
    """An Enum hashed by identity, in C.

    Enum's own ``__hash__`` is Python code (it hashes the member's name), and the engine
    and the renderer look members up in sets and dicts some forty times per move. Members
    are singletons compared by identity, so an identity hash agrees with equality."""

    __hash__ = object.__hash__
