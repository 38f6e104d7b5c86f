"""The one answer to an interaction: its response if it has none yet, else a followup;
ephemeral unless told otherwise; cut to fit a message; never raising (what it answers is
done already: a lost answer is logged, not retried). And the one refusal wrapper:
``refuse`` for one refusal, ``answers_refusals`` for a command's.

Discord I/O (a loose module the layout of issue 40 moves into ``bot/discord/``)."""

from __future__ import annotations

import functools
import inspect
import logging
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

import discord

from bot.ui.errors import refusal_text
from bot.ui.limits import fit_content, fit_embed

log = logging.getLogger(__name__)
F = TypeVar("F", bound=Callable[..., Awaitable[None]])


async def answer(
    interaction: discord.Interaction,
    text: str | None = None,
    *,
    embed: discord.Embed | None = None,
    ephemeral: bool = True,
    **kwargs: Any,
) -> None:
    """Answer ``interaction`` (or follow it up) with ``text`` and/or ``embed``; ``kwargs``
    go to Discord as they are (``view``, ``allowed_mentions``)."""
    if text is not None:
        kwargs["content"] = fit_content(text)
    if embed is not None:
        kwargs["embed"] = fit_embed(embed)
    try:
        if interaction.response.is_done():
            await interaction.followup.send(ephemeral=ephemeral, **kwargs)
        else:
            await interaction.response.send_message(ephemeral=ephemeral, **kwargs)
    except discord.HTTPException:
        log.warning("could not answer interaction %s", interaction.id, exc_info=True)


async def refuse(interaction: discord.Interaction, exc: BaseException, locale: str) -> None:
    """Answer a refusal in one ephemeral sentence; re-raise anything that is not one."""
    text = refusal_text(exc, locale)
    if text is None:
        raise exc
    await answer(interaction, text)


def answers_refusals(func: F) -> F:
    """A cog's command (the cog has ``bot``) answering a refusal (bank, user, engine error)
    with one ephemeral translated sentence inside the command, so nothing reaches the
    tree's error path; bugs are re-raised."""

    # discord.py reads the parameters through ``__wrapped__`` but evaluates string
    # annotations in the wrapper's module: resolve them now, in the command's own module.
    func.__annotations__ = inspect.get_annotations(func, eval_str=True)

    @functools.wraps(func)
    async def wrapper(
        self: Any, interaction: discord.Interaction, *args: Any, **kwargs: Any
    ) -> None:
        try:
            await func(self, interaction, *args, **kwargs)
        except Exception as exc:
            await refuse(interaction, exc, await self.bot.locale_for(interaction))

    return wrapper  # type: ignore[return-value]
