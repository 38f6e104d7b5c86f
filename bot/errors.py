"""Errors shown to people: a user's carries a message key the i18n catalog translates;
``ConfigError`` is one sentence for the operator."""

from __future__ import annotations

from bot.engine.refusal import Refusal


class ConfigError(Exception):
    """A setting is missing or wrong; the message is one sentence for the operator."""


class UserError(Refusal):
    """A problem the user caused and can fix; answered ephemerally, never logged as a bug.
    Named by its catalog key (its ``code`` too)."""

    def __init__(self, key: str, **params: object) -> None:
        super().__init__(key, key, **params)


class NotAllowed(UserError):
    """The user lacks the role or permission for this."""


class WrongChannel(UserError):
    """The command was used where it does not apply."""
