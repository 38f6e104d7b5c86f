"""Why the bot could not start talking to Discord, as one sentence for the operator.

``python -m bot`` prints it instead of discord.py's traceback and exits non-zero, as for a
missing token: a token Discord refuses, no network, a gateway that refuses the connection
(once connected, discord.py reconnects by itself and the bot never exits for it).
"""

from __future__ import annotations

import asyncio

import aiohttp
import discord

CONFIG_EXIT = 2  # a setting is wrong (as for a missing token)
NETWORK_EXIT = 1  # Discord could not be reached or refused to serve the bot now

# the gateway's close codes that a restart will not cure (Discord's gateway docs)
CLOSE_CODES = {
    4004: "authentication failed: check DISCORD_TOKEN",
    4010: "invalid shard: check SHARD_COUNT and SHARD_IDS",
    4011: "sharding required: set SHARD_COUNT",
    4012: "invalid API version",
    4013: "invalid intents",
    4014: "disallowed intents: the bot asks for none that needs enabling",
}


def explain(exc: BaseException) -> tuple[str, int] | None:
    """The sentence and exit status for a failure to start, None for anything else (a bug:
    its traceback is worth seeing)."""
    if isinstance(exc, discord.LoginFailure):
        return (
            "Discord refused the token (401 Unauthorized): check DISCORD_TOKEN, the token "
            "of the bot's Bot page in the Discord Developer Portal.",
            CONFIG_EXIT,
        )
    if isinstance(exc, discord.PrivilegedIntentsRequired):
        return (f"Discord's gateway refused the bot: {CLOSE_CODES[4014]}.", CONFIG_EXIT)
    if isinstance(exc, discord.ConnectionClosed):
        why = CLOSE_CODES.get(exc.code or 0) or (exc.reason or "no reason given")
        return (f"Discord's gateway refused the bot (close code {exc.code}): {why}.", NETWORK_EXIT)
    if isinstance(exc, discord.GatewayNotFound):
        return ("Discord did not say where its gateway is: try again later.", NETWORK_EXIT)
    if isinstance(exc, discord.HTTPException):
        text = f" {exc.text}" if exc.text else ""
        return (f"Discord answered {exc.status}{text}: try again later.", NETWORK_EXIT)
    if isinstance(exc, (OSError, aiohttp.ClientError, asyncio.TimeoutError)):
        detail = str(exc) or type(exc).__name__
        return (
            f"Cannot reach Discord ({detail}): check the network, DNS and any proxy or firewall.",
            NETWORK_EXIT,
        )
    return None
