"""Start-up outside SimCord (issue 36, point 8): a token Discord refuses, no network, a
gateway that refuses the bot each give one sentence and a non-zero exit, like a missing
token; no traceback, no voice warning. ``python -m bot`` runs in a subprocess against a
local server standing in for Discord (tests/startup_child.py), never the network."""

from __future__ import annotations

import asyncio
import json
import os
import socket
import sys
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

import pytest
from aiohttp import WSMsgType, web

ROOT = Path(__file__).resolve().parent.parent
USER = {"id": "1000", "username": "croupier", "discriminator": "0", "avatar": None, "bot": True}
APP = {
    "id": "1000",
    "name": "Croupier",
    "icon": None,
    "description": "",
    "bot_public": True,
    "bot_require_code_grant": False,
    "verify_key": "00",
    "owner": USER,
    "flags": 0,
}


def answer(data: Any, status: int = 200) -> web.Response:
    """JSON as Discord sends it (discord.py reads a body as JSON only when the content
    type is exactly ``application/json``)."""
    return web.Response(
        body=json.dumps(data).encode(), status=status, content_type="application/json"
    )


def discord_like(refuse_token: bool) -> web.Application:
    """A stand-in for Discord: 401 on every REST call, or enough REST for the bot to log in
    and set up, then a gateway that says hello and closes with 4004 on IDENTIFY."""
    app = web.Application()

    async def rest(request: web.Request) -> web.StreamResponse:
        if refuse_token:
            return answer({"message": "401: Unauthorized", "code": 0}, status=401)
        path = request.path.removeprefix("/api/v10")
        if path == "/users/@me":
            return answer(USER)
        if path == "/oauth2/applications/@me":
            return answer(APP)
        if path.endswith("/emojis") and request.method == "GET":
            return answer({"items": []})
        if path.endswith("/emojis"):
            name = (await request.json())["name"]
            return answer({"id": "2000", "name": name, "roles": [], "user": USER})
        return answer([])  # the command sync

    async def gateway(request: web.Request) -> web.StreamResponse:
        ws = web.WebSocketResponse()
        await ws.prepare(request)
        await ws.send_json({"op": 10, "d": {"heartbeat_interval": 45000}, "s": None, "t": None})
        async for msg in ws:
            if msg.type is WSMsgType.TEXT and msg.json().get("op") == 2:  # IDENTIFY
                await ws.close(code=4004, message=b"Authentication failed.")
        return ws

    app.router.add_get("/gw", gateway)
    app.router.add_route("*", "/api/v10/{tail:.*}", rest)
    return app


@pytest.fixture
async def serve() -> AsyncIterator[Callable[[web.Application], Any]]:
    """Start a local server for an application; its base URL."""
    runners: list[web.AppRunner] = []

    async def start(app: web.Application) -> str:
        runner = web.AppRunner(app)
        await runner.setup()
        site = web.TCPSite(runner, "127.0.0.1", 0)
        await site.start()
        runners.append(runner)
        port = runner.addresses[0][1]
        return f"http://127.0.0.1:{port}"

    yield start
    for runner in runners:
        await runner.cleanup()


def closed_port() -> int:
    """A local port nothing listens on (connections are refused at once)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


async def start_bot(base: str, tmp_path: Path) -> tuple[int, str]:
    """Run ``python -m bot`` against ``base``: its exit status and its stderr."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DISCORD_", "DATABASE_"))}
    env.update(
        PYTHONPATH=str(ROOT),
        DISCORD_TOKEN="MTAwMA.fake.token",
        DATABASE_URL=str(tmp_path / "croupier.sqlite3"),
    )
    proc = await asyncio.create_subprocess_exec(
        sys.executable,
        str(ROOT / "tests" / "startup_child.py"),
        base,
        cwd=tmp_path,
        env=env,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )
    out, err = await asyncio.wait_for(proc.communicate(), timeout=60)
    assert proc.returncode is not None
    return proc.returncode, (out + err).decode()


def assert_one_sentence(output: str, sentence: str) -> None:
    """The sentence last, alone on its line; no traceback, no voice warning."""
    assert "Traceback" not in output and "voice" not in output, output
    lines = output.strip().splitlines()
    assert lines[-1].startswith(sentence), output
    assert len(lines[-1].split(". ")) == 1, lines[-1]  # one sentence
    assert all(" INFO " in line for line in lines[:-1]), output  # log lines, no warning


async def test_no_network(tmp_path: Path):
    status, output = await start_bot(f"http://127.0.0.1:{closed_port()}", tmp_path)
    assert status == 1
    assert_one_sentence(output, "Cannot reach Discord (Cannot connect to host 127.0.0.1:")


async def test_a_token_discord_refuses(tmp_path: Path, serve: Any):
    status, output = await start_bot(await serve(discord_like(refuse_token=True)), tmp_path)
    assert status == 2
    assert_one_sentence(output, "Discord refused the token (401 Unauthorized): check DISCORD_TOKEN")


async def test_a_gateway_that_refuses_the_bot(tmp_path: Path, serve: Any):
    status, output = await start_bot(await serve(discord_like(refuse_token=False)), tmp_path)
    assert status == 1
    assert_one_sentence(
        output,
        "Discord's gateway refused the bot (close code 4004): authentication failed: check "
        "DISCORD_TOKEN.",
    )
