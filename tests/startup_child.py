"""``python -m bot`` with Discord's REST API and gateway at a local test server:
``python tests/startup_child.py http://127.0.0.1:PORT`` (never the real Discord)."""

from __future__ import annotations

import sys

import discord.gateway
import discord.http
import yarl

base = sys.argv[1]
discord.http.Route.BASE = f"{base}/api/v10"
discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(base.replace("http", "ws", 1) + "/gw")

from bot.__main__ import main  # noqa: E402  (after the addresses are set)

sys.exit(main(["run"]))
