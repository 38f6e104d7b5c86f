"""Errors shown to people: a user's carries a message key the i18n catalog translates;
``ConfigError`` is one sentence for the operator."""

from __future__ import annotations


class ConfigError(Exception):
    """A setting is missing or wrong; the message is one sentence for the operator."""


class UserError(Exception):
    """A problem the user caused and can fix; answered ephemerally, never logged as a bug."""

    def __init__(self, key: str, **params: object) -> None:
        super().__init__(key)
        self.key = key
        self.params = params


class NotAllowed(UserError):
    """The user lacks the role or permission for this."""


class WrongChannel(UserError):
    """The command was used where it does not apply."""
