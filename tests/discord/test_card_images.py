"""The shipped card pictures: one for every card a game deals and one for a card face
down, each a square PNG Discord accepts as an emoji, named as Discord allows."""

from __future__ import annotations

import re
import struct

from bot.discord.card_emojis import card_keys, key_of, load_faces
from bot.engine.cards import DECKS

PNG = b"\x89PNG\r\n\x1a\n"
EMOJI_NAME = re.compile(r"^[A-Za-z0-9_]{2,32}$")


def png_size(data: bytes) -> tuple[int, int]:
    """Width and height from the PNG header (IHDR is the first chunk)."""
    assert data.startswith(PNG) and data[12:16] == b"IHDR"
    width, height = struct.unpack(">II", data[16:24])
    return width, height


def test_every_card_of_every_deck_has_a_picture_and_there_is_a_back():
    dealt = {card.code for build in DECKS.values() for card in build()}
    keys = card_keys()
    assert dealt <= set(keys) and "XS" in dealt and "XH" in dealt
    assert set(keys) == dealt | {"back"} and len(keys) == len(set(keys)) == 55


def test_the_pictures_are_square_pngs_within_discords_emoji_limits():
    for face in load_faces():
        assert png_size(face.image) == (128, 128), face.key  # emojis are shown square
        assert len(face.image) < 256 * 1024, face.key


def test_emoji_names_are_valid_unique_and_name_their_card():
    faces = load_faces()
    names = [f.name for f in faces]
    assert len(set(names)) == len(names)
    for face in faces:
        assert EMOJI_NAME.match(face.name), face.name
        assert key_of(face.name) == face.key
    assert key_of("party_parrot") is None and key_of("AS") is None
