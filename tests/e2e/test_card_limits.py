"""Card pictures are long (~30 characters each against 2-3 for ``A♠``): a table of 8
players holding 10 cards each, in every game and both languages, still goes out within
Discord's embed limits, every card as a picture (the seats go on in more fields).

Each table is a real one, mid-round, whose public view is then widened to 8 seats of 10
cards (no game deals that many: the renderer is what is measured). The embed checked is
the JSON the bot sent to SimCord when it edited the table message.
"""

from __future__ import annotations

import copy
import itertools
from dataclasses import replace
from typing import Any

import pytest

from bot.engine.base import Phase
from bot.engine.cards import pack52
from bot.i18n import t
from bot.ui import limits
from bot.ui.cards import card_text
from tests.card_markup import CardsIn
from tests.e2e.helpers import add_players, table_message, table_of, thread_of
from tests.e2e.recovery_helpers import PREFERENCES, click_move, move_buttons

NAMES = ("alice", "bob", "carol", "dave", "erin", "frank", "grace", "heidi")
SEATS, CARDS = 8, 10
FAKE = 999_999_999_999_999_999  # an 8th seat where the engine allows 7


def deck() -> itertools.cycle[str]:
    return itertools.cycle(c.code for c in pack52())


def widen(game: str, view: Any) -> Any:
    """The view with 8 seats of 10 cards each (and a 10-card dealer or bank)."""
    codes = deck()
    ten = lambda n=CARDS: tuple(next(codes) for _ in range(n))  # noqa: E731
    seats, own = list(view.seats), view.own
    if game == "blackjack":
        hands = list(own.hands)
        while len(seats) < SEATS:
            seats.append(replace(seats[-1], player=FAKE))
            hands.append(replace(hands[-1], player=FAKE))
        hands = [replace(hand, cards=ten()) for hand in hands]
        own = replace(own, hands=tuple(hands), dealer=replace(own.dealer, cards=ten()))
    elif game == "casino21":
        seats = [replace(seat, cards=ten(), values=(10,) * CARDS) for seat in seats]
        own = replace(own, bank=replace(own.bank, cards=ten(), values=(10,) * CARDS))
    elif game == "pirate21":  # two face down, eight face up
        seats = [replace(seat, hidden=2, extra=ten(CARDS - 2)) for seat in seats]
    else:  # sept_et_demi
        seats = [replace(seat, hidden=1, shown=ten(CARDS - 1)) for seat in seats]
        own = replace(own, bank=replace(own.bank, hidden=1, shown=ten(CARDS - 1)))
    return replace(view, seats=tuple(seats), own=own)


async def mid_round(env: Any, game: str, locale: str) -> tuple[Any, Any]:
    """A table of the game with as many players as it seats (8, Black Jack 7), dealt."""
    guild = env.create_guild()
    lobby = guild.create_text_channel("casino")
    players = add_players(env, guild, *NAMES[: 7 if game == "blackjack" else 8])
    await players[0].member.slash(lobby, "language", language=locale)
    await players[0].member.slash(lobby, "table open", game=game)
    thread = thread_of(lobby)
    table = table_of(env, thread)
    for p in players[1:]:
        await p.member.slash(thread, "table join")
    await players[0].member.click(table_message(thread, table), label=t("move.start", locale))
    for _ in range(30):  # bets (and stakes) until the cards are dealt
        if table.game.phase is Phase.PLAYING:
            return thread, table
        message = table_message(thread, table)
        buttons = sorted(move_buttons(message))
        for p in players:
            legal = table.game.legal_actions(p.id)
            choice = next(
                (
                    k
                    for prefix, kind in PREFERENCES
                    if kind in legal
                    for k in buttons
                    if k.startswith(prefix)
                ),
                None,
            )
            if choice is not None:
                await click_move(p.member, message, choice)
                break
    raise AssertionError(f"{game}: the cards were never dealt")


def check_limits(embed: dict[str, Any]) -> int:
    """Assert Discord's embed limits; return the characters counted against 6,000."""
    fields = embed.get("fields") or []
    assert len(embed.get("title") or "") <= 256
    assert len(embed.get("description") or "") <= 4096
    assert len(fields) <= 25
    for f in fields:
        assert 0 < len(f["name"]) <= 256 and 0 < len(f["value"]) <= 1024, f
    assert len((embed.get("footer") or {}).get("text") or "") <= 2048
    total = len(embed.get("title") or "") + len(embed.get("description") or "")
    total += sum(len(f["name"]) + len(f["value"]) for f in fields)
    total += len((embed.get("footer") or {}).get("text") or "")
    assert total <= 6000, total
    return total


@pytest.mark.parametrize("locale", ["en", "fr"])
@pytest.mark.parametrize("game", ["blackjack", "casino21", "pirate21", "sept_et_demi"])
async def test_eight_players_with_ten_cards_fit_as_pictures(simcord_env, monkeypatch, game, locale):
    env = simcord_env
    _thread, table = await mid_round(env, game, locale)
    wide = widen(game, table.game.public_view())
    publisher = env.bot.publisher
    with monkeypatch.context() as patch:
        patch.setattr(type(table.game), "public_view", lambda self: copy.deepcopy(wide))
        before = len(env.http_requests)
        await publisher.edit_table_message(table)
        (edit,) = [r for r in env.http_requests[before:] if r.method == "PATCH"]
    await publisher.edit_table_message(table)  # the real cards again (the leak scan reads them)
    (embed,) = edit.json["embeds"]
    total = check_limits(embed)
    text = "\n".join(
        [embed.get("description") or ""] + [f"{f['name']}\n{f['value']}" for f in embed["fields"]]
    )
    seen = CardsIn(text)
    pictures = sum(seen.pictures.values())
    assert pictures >= SEATS * CARDS, (pictures, text)  # every card a picture...
    assert not any(card_text(c.code) in seen.plain for c in pack52()), text  # ...none as text
    assert len(embed["fields"]) > 1  # the seats did not fit one field: they went on
    print(f"{game} {locale}: {pictures} pictures, {len(embed['fields'])} fields, {total} chars")


def test_a_message_too_long_with_pictures_is_written_with_text_cards(monkeypatch):
    """The last resorts: content over 2,000 or an embed over 6,000 with pictures."""
    from bot.ui import cards

    codes = [c.code for c in pack52()]
    cards.use_faces({c: f"<:{c}_0a0a:{1234567890123456789 + i}>" for i, c in enumerate(codes)})
    line = " ".join(cards.card(c) for c in codes)  # 52 pictures: 1,611 characters
    text = f"{line}\n{line}"
    fitted = limits.fit_content(text)
    assert len(text) > 2000 and len(fitted) <= 2000
    assert fitted == " ".join(map(card_text, codes)) + "\n" + " ".join(map(card_text, codes))
    import discord

    half = (
        " ".join(cards.card(c) for c in codes[:26])
        + "\n"
        + " ".join(cards.card(c) for c in codes[26:])
    )  # a seat of two lines, 1,611 characters
    embed = discord.Embed(title="t", description=line)
    limits.add_fields(embed, [(f"seat {i}", half) for i in range(4)])
    assert len(embed.fields) == 8  # each seat went on in a second field, at its line break
    assert [f.name for f in embed.fields[:2]] == ["seat 0", limits.CONTINUED]
    assert limits.embed_size(embed) > 6000
    fitted_embed = limits.fit_embed(embed)
    assert limits.fits(fitted_embed)
    assert [f.name for f in fitted_embed.fields] == [f"seat {i}" for i in range(4)]
    assert all(f.value == cards.as_text(half) for f in fitted_embed.fields)
    assert fitted_embed.description == " ".join(map(card_text, codes))
