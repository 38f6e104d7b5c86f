"""Direct messages at scale: each player's DM channel kept by id, closed DMs remembered.

discord.py keeps only 128 DM channels (an LRU in its connection state): past 128
recipients every ``create_dm`` opens the channel again (``POST /users/@me/channels``, an
endpoint Discord throttles), two calls per DM. Here each user's DM channel id is kept for
the process's life (a few bytes a player) and a DM is one ``POST /channels/{id}/messages``.
A DM refused with 403 (50007: the user closed their DMs or blocked the bot) is not tried
again until :meth:`DirectMessages.retry` (the player's next ``/hand`` or table): each
403 counts toward Discord's 10,000 invalid requests in 10 minutes, past which the whole
bot is banned from the API for an hour.
"""

from __future__ import annotations

import logging
from typing import Any

import discord

from bot.ui.limits import fit_content

log = logging.getLogger(__name__)


class DirectMessages:
    """The bot's DMs: one REST call each once the recipient's channel is known."""

    def __init__(self, client: discord.Client) -> None:
        self.client = client
        self.channels: dict[int, int] = {}  # user id -> their DM channel's id
        self.closed: set[int] = set()  # users whose DMs refused the last one (403)

    def retry(self, user: int) -> None:
        """Try the user's DMs again at the next one (their ``/hand``, a new table)."""
        self.closed.discard(user)

    def is_closed(self, user: int) -> bool:
        """Whether the user's DMs refused the bot and were not retried since."""
        return user in self.closed

    async def send(self, user: int, text: str, **kwargs: Any) -> bool:
        """DM ``user``; False when it was not sent (closed DMs are not tried again)."""
        if user in self.closed:
            return False
        try:
            channel_id = await self._channel_id(user)
            channel = self.client.get_partial_messageable(
                channel_id, type=discord.ChannelType.private
            )
            await channel.send(fit_content(text), **kwargs)
        except discord.Forbidden as exc:
            # 50007 "Cannot send messages to this user" (DMs closed, bot blocked): any 403
            # would be refused again, and each one counts as an invalid request
            self.closed.add(user)
            log.info("DMs to %s refused (%s): not tried again for now", user, exc.code)
            return False
        except discord.NotFound:  # the channel id is stale: open it again next time
            self.channels.pop(user, None)
            log.warning("the DM channel of %s is gone", user)
            return False
        except discord.HTTPException as exc:
            log.warning("could not DM %s (%s %s)", user, exc.status, exc.code)
            return False
        return True

    async def _channel_id(self, user: int) -> int:
        """The user's DM channel id: kept, else from discord.py's cache or opened."""
        known = self.channels.get(user)
        if known is None:
            known = (await self.client.create_dm(discord.Object(user))).id
            self.channels[user] = known
        return known
