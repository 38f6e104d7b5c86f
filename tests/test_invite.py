"""The README's invite asks for what the bot checks (bot/discord/perms.py), no more, no less."""

from __future__ import annotations

import re
from pathlib import Path

from bot.discord import perms
from bot.i18n import t

README = Path(__file__).resolve().parents[1] / "README.md"


def test_the_readme_invite_grants_exactly_what_the_bot_checks() -> None:
    text = " ".join(README.read_text(encoding="utf-8").split())
    (value,) = re.findall(r"permissions=(\d+)", text)
    assert int(value) == perms.invite_value() == 395137076224
    assert bin(int(value)).count("1") == len(perms.INVITE)  # one bit each, nothing else
    for name in perms.INVITE:  # each named as Discord's settings show it
        assert t(f"perm.{name}", "en") in text


def test_the_invite_covers_every_permission_the_bot_checks() -> None:
    checked = {
        name
        for key, value in vars(perms).items()
        if key.startswith(("POST_IN_", "BOT_OPENS_")) and isinstance(value, tuple)
        for name in value
    }
    assert checked == set(perms.INVITE)
