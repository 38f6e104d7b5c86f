"""``/table history`` on Discord: the round summaries stored with each settled round (the
texts the table posted, in every language) and the embed of a table's last rounds with
their decks: a revealed seed as a ready ``/verify`` line, a deck still in play by its
commitment alone (its seed is revealed when it is retired)."""

from __future__ import annotations

import discord

from bot.engine.base import ROUND_SETTLED, Event, Visibility
from bot.i18n import SUPPORTED, t
from bot.tables import Table
from bot.tables.history import Deck, History, Round
from bot.ui.cards import as_text
from bot.ui.limits import TOTAL, add_fields, embed_size, fit_embed
from bot.ui.render import Ctx, renderer_for

SHORT = 12  # hex digits of a commitment named beside a round


def round_summaries(table: Table, events: list[Event], settled: Event) -> dict[str, str]:
    """What the table posts at the end of this round, in each language, cards as text (a
    stored emoji's id may change): the batch's announcements when it settled one round."""
    renderer = renderer_for(table.game_key)
    settles = [e for e in events if e.kind == ROUND_SETTLED and e.visibility is Visibility.PUBLIC]
    out: dict[str, str] = {}
    for locale in SUPPORTED:
        ctx = Ctx(table, locale)
        if len(settles) == 1:
            texts = renderer.announcements(ctx, events)
        else:
            texts = [renderer.announce(ctx, settled)]
        out[locale] = as_text("\n".join(text for text in texts if text))
    return out


def verify_line(deck: Deck, locale: str) -> str:
    """The ``/verify`` command of a revealed deck, ready to type (in the reader's words)."""
    return "/{cmd} {s}:{seed} {c}:{commitment} {d}:{deck}".format(
        cmd=t("name.verify", locale),
        s=t("param.seed", locale),
        c=t("param.commitment", locale),
        d=t("param.deck", locale),
        seed=deck.seed,
        commitment=deck.commitment,
        deck=deck.deck,
    )


def _rounds_text(deck: Deck) -> str:
    first = "?" if deck.first_round is None else str(deck.first_round)
    last = "…" if deck.last_round is None else str(deck.last_round)
    return first if first == last else f"{first}–{last}"


def deck_line(deck: Deck, locale: str) -> str:
    """One deck: its rounds, then its ``/verify`` line, or why its seed is not shown."""
    rounds = _rounds_text(deck)
    if deck.seed is None:
        return t(
            "history.deck_in_play",
            locale,
            rounds=rounds,
            deck=deck.deck,
            commitment=deck.commitment,
        )
    line = verify_line(deck, locale)
    if deck.first_round is None:  # a spare committed ahead (or shuffled before the history)
        return t("history.deck_ahead", locale, deck=deck.deck, line=line)
    return t("history.deck_revealed", locale, rounds=rounds, deck=deck.deck, line=line)


def _round_field(played: Round, decks: list[Deck], locale: str) -> tuple[str, str]:
    text = played.summary.get(locale) or next(iter(played.summary.values()), "")
    lines = text.split("\n")
    if len(lines) > 1:  # its title is the field's name
        lines = lines[1:]
    used = [d.commitment[:SHORT] for d in decks if d.dealt(played.number)]
    if used:
        lines.append(t("history.round_decks", locale, decks=", ".join(f"`{c}…`" for c in used)))
    name = t("history.round", locale, n=played.number, at=f"<t:{int(played.at)}:R>")
    return name, "\n".join(lines) or "—"


def history_embed(past: History, name: str, locale: str) -> discord.Embed:
    """The last rounds (oldest first) and their decks; the oldest rounds are left out
    until it fits one embed."""
    rounds = list(past.rounds)
    while True:
        embed = discord.Embed(title=t("history.title", locale, table=name))
        embed.description = t("history.intro", locale, n=len(rounds))
        add_fields(embed, [_round_field(r, past.decks, locale) for r in rounds])
        decks = "\n".join(deck_line(d, locale) for d in past.decks)
        if decks:
            add_fields(embed, [(t("history.decks", locale), decks)])
        if len(rounds) <= 1 or (embed_size(embed) <= TOTAL and len(embed.fields) <= 25):
            return fit_embed(embed)
        rounds = rounds[1:]
