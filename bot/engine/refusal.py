"""The one shape of every refusal: a request refused with nothing changed, said in one
sentence. Standard library only: the engine, the bank, the table service and the cogs all
raise it, and ``bot/ui/errors.py`` translates any of them the same way."""

from __future__ import annotations

from typing import ClassVar

#: a sentence to say instead when the catalog has no ``key``: (catalog key, parameters
#: the refusal's own override). ``{code}`` and ``{detail}`` (the parameters written out)
#: are given to every such sentence.
Fallback = tuple[str, dict[str, object]]


class Refusal(ValueError):
    """A refused request: ``key`` is its catalog sentence, ``params`` fill it, ``code``
    names it for the code that tells refusals apart."""

    FALLBACKS: ClassVar[tuple[Fallback, ...]] = ()

    def __init__(self, code: str, key: str, /, **params: object) -> None:
        super().__init__(code)
        self.code = code
        self.key = key
        self.params = params

    @property
    def fallbacks(self) -> tuple[Fallback, ...]:
        """The sentences to try in order when the catalog has no ``key`` (the last one is
        said whatever)."""
        return self.FALLBACKS
