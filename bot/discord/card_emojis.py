"""The card pictures as the application's own emojis: uploaded once, reused by name.

At start-up (``CroupierBot.setup_hook``, once the application id is known and before
``on_ready`` re-renders the open tables) ``CardEmojis.start`` lists the application's
emojis (one request), reuses those whose name is already there and uploads the missing
ones (only the first start of a new design uploads: 55 pictures). Nothing here may block
or break a start: a failed listing or upload logs one warning, the cards it lacks are
written as text (``bot.ui.cards``), and the service tries again later (``RETRY_AFTER``).

A picture's emoji name is its card code (or ``back``) and the first hex digits of the
PNG's SHA-256: ``AS_1f3a``. A new design is therefore uploaded under new names at the
next start, and the old emojis are kept (messages already sent still show them).

Sharded, only shard 0 uploads (as it alone syncs the commands): the other processes list
and, while pictures are missing, list again later.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import logging
import re
from collections.abc import Sequence
from dataclasses import dataclass
from importlib import resources
from typing import Any

import discord

from bot.engine.cards import pirate54
from bot.ui import cards

log = logging.getLogger("croupier.cards")

RETRY_AFTER = (60.0, 600.0, 3600.0)  # seconds before each new try after a failure
START_BUDGET = 20.0  # seconds the start may wait for uploads (429s are waited out)
NAME = re.compile(r"^(?P<key>[A2-9TJQKX][SHDC]|back)_[0-9a-f]{4}$")


@dataclass(frozen=True)
class Face:
    """One picture: its key (card code or ``back``), emoji name and PNG bytes."""

    key: str
    name: str
    image: bytes


def card_keys() -> list[str]:
    """Every card any game deals (52 cards and Pirate 21's two jokers), then the back."""
    return [c.code for c in pirate54()] + [cards.BACK]


def load_faces() -> list[Face]:
    """The shipped PNGs (``bot/ui/assets/cards``), named for their content."""
    folder = resources.files("bot.ui").joinpath("assets", "cards")
    out = []
    for key in card_keys():
        image = folder.joinpath(f"{key}.png").read_bytes()
        out.append(Face(key, f"{key}_{hashlib.sha256(image).hexdigest()[:4]}", image))
    return out


def key_of(name: str) -> str | None:
    """The card code (or ``back``) an emoji name of ours stands for, else None."""
    found = NAME.match(name)
    return found["key"] if found else None


class CardEmojis:
    """Keeps ``bot.ui.cards`` drawing with the application's card emojis."""

    def __init__(
        self,
        client: discord.Client,
        *,
        upload: bool = True,
        faces: Sequence[Face] | None = None,
    ) -> None:
        self.client = client
        self.upload = upload  # False on shards other than 0: list only
        self.faces = list(load_faces() if faces is None else faces)
        self.markup: dict[str, str] = {}  # key -> "<:AS_1f3a:123…>"
        self.ids: dict[str, int] = {}  # key -> emoji id
        self._task: asyncio.Task[None] | None = None
        self._tried = asyncio.Event()  # set once the first try is over
        cards.use_faces({})  # a previous bot of this process (tests) must not leak in

    @property
    def missing(self) -> list[Face]:
        """The pictures not available as emojis yet."""
        return [f for f in self.faces if f.key not in self.markup]

    async def start(self, budget: float = START_BUDGET) -> None:
        """List, reuse and upload: wait for that first try, at most ``budget`` s (a long
        rate limit must not hold the bot's start); retries go on in the background."""
        self._task = asyncio.create_task(self._sync(RETRY_AFTER), name="card-emojis")
        try:
            await asyncio.wait_for(self._tried.wait(), budget)
        except TimeoutError:
            log.info("card pictures: still uploading (%d missing)", len(self.missing))

    async def stop(self) -> None:
        """Cancel a pending upload or retry."""
        if self._task is not None and not self._task.done():
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
        self._task = None

    async def _sync(self, retries: Sequence[float]) -> None:
        warned = False
        for delay in (*retries, None):
            try:
                error = await self._try_once()
            except Exception as exc:  # never let the pictures break the bot
                error = f"unexpected error ({exc!r})"
            self._tried.set()
            if error is None:
                return
            if not warned:
                warned = True
                log.warning(
                    "card pictures: %s; %d card(s) are shown as text%s",
                    error,
                    len(self.missing),
                    f", trying again in {delay:.0f} s" if delay is not None else "",
                )
            else:
                log.info("card pictures: %s (%d missing)", error, len(self.missing))
            if delay is None:
                return
            await asyncio.sleep(delay)

    async def _try_once(self) -> str | None:
        """One pass: list, then upload what is missing. None when nothing is missing."""
        try:
            existing = await self.client.fetch_application_emojis()
        except (discord.HTTPException, discord.MissingApplicationID) as exc:
            return f"could not list the application's emojis ({_why(exc)})"
        self._reuse(existing)
        if not self.missing:
            return None
        if not self.upload:
            return "waiting for shard 0 to upload them"
        for face in self.missing:
            try:
                emoji = await self.client.create_application_emoji(name=face.name, image=face.image)
            except discord.HTTPException as exc:
                return f"could not upload {face.name} ({_why(exc)})"
            self._add(face.key, emoji)
        log.info("card pictures: uploaded the missing ones; %d in use", len(self.markup))
        return None

    def _reuse(self, existing: Sequence[Any]) -> None:
        wanted = {f.name: f.key for f in self.faces}
        for emoji in sorted(existing, key=lambda e: e.id):  # duplicates: the oldest
            key = wanted.get(emoji.name)
            if key is not None and key not in self.markup:
                self._add(key, emoji, install=False)
        cards.use_faces(self.markup)

    def _add(self, key: str, emoji: Any, *, install: bool = True) -> None:
        self.markup[key] = str(emoji)
        self.ids[key] = int(emoji.id)
        if install:
            cards.use_faces(self.markup)


def _why(exc: BaseException) -> str:
    return str(exc) or type(exc).__name__
