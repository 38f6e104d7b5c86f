"""What a text in one language must never contain: words of the other one.

The word lists are short on purpose: each word is common in its language and never a word
of the other one, so a hit is a real mistake, not a false positive ("table", "page",
"total", "pot", "double", "options" are both French and English and are left out; so is
"bûches", Casino 21's French word the English rules explain). Before looking,
``strip_names`` removes what is not prose: code spans, mentions, timestamps, emojis,
links, slash commands (their names are the same in both languages in what the bot
writes), option names and ``name=value`` options, game names and the bot's own names.
"""

from __future__ import annotations

import importlib
import re
from collections.abc import Iterable
from functools import cache

from discord import app_commands

#: English words that never belong in French prose
ENGLISH_WORDS = frozenset(
    """
    the your you yours bet bets betting stand stands stood soft round rounds hand hands
    turn turns player players stack stacks dealer wins win loses lose push bust busts
    busted waiting and with is not of cards seats seat leave join other amount insurance
    split surrender shown hidden results nobody balance claim claims sits bank draw drawn
    shuffle seed commitment next closed left paid unpaid fund host welcome stake own funds
    treasure coins over under wait waits only every nothing something
    """.split()  # noqa: SIM905 (a word list reads best as words)
)

#: French words that never belong in English prose
FRENCH_WORDS = frozenset(
    """
    le la les des du vous votre vos est une avec pour dans sur pas mise mises manche
    manches tapis joueur joueurs jeton jetons tour tours cartes gagne perd égalité banque
    banquier fonds trésor pioche donneur hôte paquet graine engagement réclamation
    réclamations solde souple exactement encore aucun aucune personne qui que sont être
    avez êtes peut attend attendez cette ce ces mais ou où déjà maintenant carte servi
    saute
    """.split()  # noqa: SIM905 (a word list reads best as words)
)

#: names written the same in both languages (games, the bot, the currency, hands)
NAMES = (
    "Black Jack",
    "BlackJack",
    "Casino 21",
    "Pirate 21",
    "Sept et demi",
    "Croupier",
    "flouz",
    "Joker",
    "docs/RULES.md",
    "SHA-256",
)

_NOT_PROSE = re.compile(
    r"`[^`]*`"  # code spans
    r"|<(?:@[!&]?|#)\d+>"  # mentions
    r"|<t:\d+(?::\w)?>"  # timestamps
    r"|<a?:\w+:\d+>"  # custom emojis (the card pictures)
    r"|https?://\S+"  # links
    r"|\b[\w-]+=\S+"  # options as typed: decks=6, pace=forum
    r"|\{\w+\}"  # a catalog's placeholders
    r"|\b[0-9a-f]{16,}\b"  # seeds and commitments
    r"|\b[a-z]+(?:_[a-z0-9]+)+\b"  # identifiers: option names such as min_bet
)


def strip_names(text: str, commands: Iterable[str] | None = None) -> str:
    """``text`` without what is not prose in one language (see the module docstring)."""
    text = _NOT_PROSE.sub(" ", text)
    for name in sorted(
        command_names() if commands is None else commands, key=len, reverse=True
    ):  # "/bank claim" before "/bank"
        text = re.sub(rf"/{re.escape(name)}\b", " ", text)
    for name in NAMES:
        text = text.replace(name, " ")
    return text


def words(text: str) -> list[str]:
    """The words of a text, lower-cased (letters and inner apostrophes or hyphens)."""
    return [w.lower() for w in re.findall(r"[^\W\d_]+(?:['’-][^\W\d_]+)*", text)]


def foreign_words(text: str, locale: str, commands: Iterable[str] | None = None) -> list[str]:
    """The words of the other language found in ``text`` written in ``locale``."""
    banned = ENGLISH_WORDS if locale == "fr" else FRENCH_WORDS
    found = []
    for word in words(strip_names(text, commands)):
        # l'as, n'est, dealer's: each side of an apostrophe is a word of its own
        found += [part for part in re.split(r"['’]", word) if part in banned]
    return found


@cache
def command_names() -> tuple[str, ...]:
    """Every slash command's name as typed (``bank claim``, ``table join``, ``hand``)."""
    out: list[str] = []
    for module, cog in (
        ("cogs.tables.lobby", "Lobby"),
        ("cogs.tables.moves", "Moves"),
        ("cogs.tables.bets", "Bets"),
        ("cogs.bank", "BankCog"),
        ("cogs.help", "Help"),
        ("cogs.info", "Info"),
        ("cogs.stats", "Stats"),
        ("cogs.fairness", "Fairness"),
    ):
        for command in getattr(importlib.import_module(module), cog).__cog_app_commands__:
            out.append(command.qualified_name)
            if isinstance(command, app_commands.Group):
                out += [sub.qualified_name for sub in command.walk_commands()]
    return tuple(out)
