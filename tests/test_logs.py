"""bot/logs.py: every log record is scrubbed (payloads hidden, tokens replaced) whichever
logger makes it and whichever handler writes it; ``LOG_HTTP_BODIES=1`` is the one way to
raw HTTP lines; ``python -m bot`` installs it. The end-to-end check (a round of each game
at DEBUG over discord.py's real transport) is tests/e2e/test_log_privacy.py."""

from __future__ import annotations

import functools
import io
import logging
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from bot.config import load_settings
from bot.errors import ConfigError
from bot.i18n import t
from bot.logs import HIDDEN, TOKEN, setup_logging

ROOT = Path(__file__).resolve().parent.parent
BOT_TOKEN = "MTQ1NjA3NDQ0Mzk4MDgwMDAwMA.GxYz12.abcdefghijklmnopqrstuvwxyz0123456789AB"
ITOKEN = "aW50ZXJhY3Rpb246MTQ1NjA3NDQ0Mzk4MDgwMDA4NDpzZWNyZXQ6c2VjcmV0OnNlY3JldDpzZWNyZXQ6c2VjcmV0"
CALLBACK = f"https://discord.com/api/v10/interactions/1456074443980800084/{ITOKEN}/callback"
ORIGINAL = f"https://discord.com/api/v10/webhooks/1456074443980800000/{ITOKEN}/messages/@original"
DM = '{"content":"Round 1 — your hidden card: **<:3S_ea14:1456074443980800004>** · total 3"}'
SEED = "864d6a8b47a80dab47c691013135c91381f4570eb57431c607f27ead13a60cf1"


@pytest.fixture
def http_bodies() -> bool:
    """``LOG_HTTP_BODIES``: off unless a test parametrizes it."""
    return False


@pytest.fixture
def log(http_bodies: bool, fresh_logging: None) -> Iterator[io.StringIO]:
    """What the root handler writes, set up as ``python -m bot`` does (at DEBUG)."""
    buffer = io.StringIO()
    undo = setup_logging("DEBUG", http_bodies=http_bodies, secrets=[BOT_TOKEN], stream=buffer)
    yield buffer
    undo()


def discord_lines() -> None:
    """The lines discord.py writes at DEBUG, with its own format strings and arguments."""
    http = logging.getLogger("discord.http")
    url = "https://discord.com/api/v10/channels/1456074443980800094/messages"
    http.debug("%s %s with %s has returned %s", "POST", url, DM, 200)
    http.debug("%s %s has received %s", "POST", url, {"id": "1", "content": "3♠ hidden"})
    webhook = logging.getLogger("discord.webhook.async_")
    fmt = "Webhook ID %s with %s %s has returned status code %s"
    webhook.debug(fmt, 1456074443980800084, "POST", CALLBACK, 200)
    frame = {"op": 0, "t": "INTERACTION_CREATE", "s": 12, "d": {"token": ITOKEN}}
    logging.getLogger("discord.gateway").debug("For Shard ID %s: WebSocket Event: %s", 0, frame)


def test_discord_bodies_hidden_tokens_replaced_the_rest_readable(log: io.StringIO):
    discord_lines()
    out = log.getvalue()
    assert "3♠" not in out and "3S_ea14" not in out and "hidden card" not in out
    assert ITOKEN not in out
    lines = out.splitlines()
    assert lines[0].endswith(
        "DEBUG discord.http: POST https://discord.com/api/v10/channels/1456074443980800094/"
        f"messages with {HIDDEN} has returned 200"
    )
    assert lines[1].endswith(f"has received {HIDDEN}")
    assert lines[2].endswith(
        f"/interactions/1456074443980800084/{TOKEN}/callback has returned status code 200"
    )
    assert lines[3].endswith("WebSocket Event: {'op': 0, 't': 'INTERACTION_CREATE', 's': 12}")


def test_a_logger_with_its_own_handler_is_scrubbed_too(log: io.StringIO):
    """A child logger that writes through a handler of its own and does not propagate
    (``discord.utils.setup_logging`` style) still gets scrubbed records."""
    own = io.StringIO()
    handler = logging.StreamHandler(own)
    webhook = logging.getLogger("discord.webhook.async_")
    webhook.addHandler(handler)
    webhook.propagate = False
    try:
        webhook.debug("PATCH %s with %s", ORIGINAL, DM)
    finally:
        webhook.removeHandler(handler)
        webhook.propagate = True
    url = f"https://discord.com/api/v10/webhooks/1456074443980800000/{TOKEN}/messages/@original"
    assert own.getvalue() == f"PATCH {url} with {HIDDEN}\n"
    assert log.getvalue() == ""


def test_every_shape_of_argument(log: io.StringIO):
    mine = logging.getLogger("croupier.test")
    mine.debug("voice %s", {"content": "A♠"})  # one mapping argument, positional
    mine.debug("%(who)s drew %(what)s", {"who": "bob", "what": ["AS"]})  # named fields
    mine.warning("token %s and %s in text", BOT_TOKEN, ITOKEN)
    mine.info("seed %s", SEED)
    mine.debug("bytes %s form %s", b"AS", ("AS", "KH"))
    sqlite = logging.getLogger("aiosqlite")
    call = functools.partial(print, "UPDATE tables SET state = ? WHERE id = ?", ('{"h":"AS"}', 1))
    sqlite.debug("executing %s", call)
    out = log.getvalue()
    for secret in ("A♠", '"AS"', "'AS'", BOT_TOKEN, ITOKEN, SEED, "b'AS'", "KH"):
        assert secret not in out, secret
    assert f"voice {HIDDEN}" in out and f"bob drew {HIDDEN}" in out
    assert f"token {TOKEN} and {TOKEN} in text" in out and f"seed {TOKEN}" in out
    assert "executing print('UPDATE tables SET state = ? WHERE id = ?', …)" in out


def test_an_exception_text_is_scrubbed(log: io.StringIO):
    try:
        raise RuntimeError(f"POST {CALLBACK} failed (bot {BOT_TOKEN})")
    except RuntimeError:
        logging.getLogger("discord.client").exception("request failed")
    out = log.getvalue()
    assert ITOKEN not in out and BOT_TOKEN not in out
    assert "Traceback" in out and f"/interactions/1456074443980800084/{TOKEN}/callback" in out


@pytest.mark.parametrize("http_bodies", [True])
def test_log_http_bodies_leaves_discord_lines_raw_but_never_the_bot_token(log: io.StringIO):
    discord_lines()
    logging.getLogger("discord.http").debug("header %s", f"Bot {BOT_TOKEN}")
    logging.getLogger("aiosqlite").debug("executing %s", functools.partial(print, "x", ("AS",)))
    out = log.getvalue()
    assert "LOG_HTTP_BODIES=1" in out.splitlines()[0] and "private cards" in out
    assert DM in out and "3♠ hidden" in out and CALLBACK in out and f"'token': '{ITOKEN}'" in out
    assert BOT_TOKEN not in out and f"header Bot {TOKEN}" in out
    assert "'AS'" not in out  # the switch is about HTTP: the database's values stay hidden


def test_the_undo_puts_logging_back(fresh_logging: None):
    root = logging.getLogger()
    factory, level, handlers = logging.getLogRecordFactory(), root.level, list(root.handlers)
    undo = setup_logging("DEBUG", stream=io.StringIO())
    assert logging.getLogRecordFactory() is not factory and root.level == logging.DEBUG
    undo()
    assert logging.getLogRecordFactory() is factory and root.level == level
    assert root.handlers == handlers


def test_bad_message_parameters_are_logged_by_name_only(
    caplog: pytest.LogCaptureFixture, fresh_logging: None
):
    """The i18n warning names the parameters given, never their values (a DM's card)."""
    with caplog.at_level(logging.WARNING, logger="bot.i18n"):
        text = t("sept.dm.deal", "en", card="A♠")  # round and total missing
    assert "A♠" not in caplog.text and "A♠" not in text
    assert "bad parameters for message key sept.dm.deal: given card" in caplog.text


@pytest.mark.parametrize(("value", "expected"), [("", False), ("0", False), ("1", True)])
def test_log_http_bodies_setting(monkeypatch: pytest.MonkeyPatch, value: str, expected: bool):
    monkeypatch.setenv("LOG_HTTP_BODIES", value)
    assert load_settings(env_file=None).log_http_bodies is expected


def test_log_http_bodies_refuses_anything_else(monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setenv("LOG_HTTP_BODIES", "yes")
    with pytest.raises(ConfigError, match="LOG_HTTP_BODIES must be 0 or 1, not 'yes'"):
        load_settings(env_file=None)


def run_bot(tmp_path: Path, **env_extra: str) -> subprocess.CompletedProcess[str]:
    """``python -m bot`` stopped right after its logging is set up (a database file that
    is not one makes it refuse to start, exit 2)."""
    (tmp_path / "x.sqlite3").write_bytes(b"not a database, " * 512)
    env = {k: v for k, v in os.environ.items() if not k.startswith(("LOG_", "DISCORD_"))}
    env |= {"PYTHONPATH": str(ROOT), "DISCORD_TOKEN": BOT_TOKEN, "LOG_LEVEL": "DEBUG"}
    env |= {"DATABASE_PATH": str(tmp_path / "x.sqlite3"), **env_extra}
    command = [sys.executable, "-m", "bot"]
    return subprocess.run(
        command, cwd=tmp_path, env=env, capture_output=True, text=True, timeout=60
    )


def test_python_m_bot_reads_the_switch_and_warns(tmp_path: Path):
    quiet = run_bot(tmp_path)
    assert quiet.returncode == 2 and "is not a Croupier database" in quiet.stderr
    assert "LOG_HTTP_BODIES" not in quiet.stderr
    raw = run_bot(tmp_path, LOG_HTTP_BODIES="1")
    assert raw.returncode == 2
    first = raw.stderr.splitlines()[0]
    assert "WARNING croupier: LOG_HTTP_BODIES=1" in first and "interaction tokens" in first
    refused = run_bot(tmp_path, LOG_HTTP_BODIES="yes")
    assert refused.returncode == 2
    assert refused.stderr.strip() == "LOG_HTTP_BODIES must be 0 or 1, not 'yes'."
    assert BOT_TOKEN not in quiet.stderr + raw.stderr + refused.stderr
