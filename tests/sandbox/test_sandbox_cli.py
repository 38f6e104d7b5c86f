"""``python -m sandbox`` as a user runs it: it starts, prints a loopback address, serves
the page there, and stops cleanly on Ctrl-C."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from bot.__main__ import DELEGATED
from sandbox import main

ROOT = Path(__file__).resolve().parents[2]
URL = re.compile(r"(http://127\.0\.0\.1:(\d+)/#\S+)")


def test_wired_as_a_module_of_its_own():
    """``python -m sandbox``: a development tool beside the package, not a ``bot`` command
    (it needs SimCord, which a production install does not have)."""
    assert "sandbox" not in DELEGATED
    done = subprocess.run(
        [sys.executable, "-m", "sandbox", "--help"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0 and "--players" in done.stdout


def test_help_and_bad_arguments(capsys):
    with pytest.raises(SystemExit) as done:
        main(["--help"])
    assert done.value.code == 0
    assert "--players" in capsys.readouterr().out
    with pytest.raises(SystemExit) as done:
        main(["--players", "0"])
    assert done.value.code == 2
    with pytest.raises(SystemExit):
        main(["--game", "poker"])


def _start(
    tmp_path: Path, *args: str, env: dict[str, str] | None = None
) -> tuple[subprocess.Popen[str], list[str]]:
    proc = subprocess.Popen(
        [sys.executable, "-m", "sandbox", "--db", str(tmp_path / "sandbox.sqlite3"), *args],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        env={**os.environ, "PYTHONUNBUFFERED": "1", **(env or {})},
        # a background job may inherit SIGINT ignored: Ctrl-C must reach the sandbox
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    lines: list[str] = []
    deadline = time.monotonic() + 40
    assert proc.stdout is not None
    while time.monotonic() < deadline:
        line = proc.stdout.readline()
        if not line:
            break
        lines.append(line)
        if "Ctrl-C" in line:
            return proc, lines
    proc.kill()
    raise AssertionError("the sandbox did not start:\n" + "".join(lines))


def test_serves_the_page_on_loopback_and_stops_on_ctrl_c(tmp_path):
    proc, lines = _start(tmp_path, "--port", "0", "--players", "2")
    try:
        out = "".join(lines)
        found = URL.search(out)
        assert found, out
        url, port = found.group(1), found.group(2)
        assert "alice, bob" in out and "/hand" in out
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=10) as page:
            assert page.status == 200
            html = page.read().decode()
        assert 'id="viewer-picker"' in html and "Viewing as" in html
        # the page's data needs the address's key (its #fragment)
        with pytest.raises(urllib.error.HTTPError) as denied:
            urllib.request.urlopen(f"http://127.0.0.1:{port}/api/state", timeout=10)
        assert denied.value.code == 401
        assert url.split("#", 1)[1]
        assert (tmp_path / "sandbox.sqlite3").exists()
        proc.send_signal(signal.SIGINT)
        rest, _ = proc.communicate(timeout=20)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert proc.returncode == 0, rest
    assert "Sandbox stopped" in rest


def test_open_hands_the_address_to_the_browser(tmp_path):
    """``--open`` (what ``scripts/start.py`` passes): the page opens in the user's browser,
    here a stand-in named by $BROWSER, as Python's webbrowser module reads it."""
    opened = tmp_path / "opened.txt"
    browser = tmp_path / "browser.sh"
    browser.write_text(f'#!/bin/sh\necho "$1" > {opened}\n')
    browser.chmod(0o755)
    proc, lines = _start(
        tmp_path, "--port", "0", "--players", "1", "--open", env={"BROWSER": f"{browser} %s"}
    )
    try:
        found = URL.search("".join(lines))
        assert found
        deadline = time.monotonic() + 10
        while not opened.exists() and time.monotonic() < deadline:
            time.sleep(0.1)
        assert opened.read_text().strip() == found.group(1)
        proc.send_signal(signal.SIGINT)
        proc.communicate(timeout=20)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()


def test_a_busy_port_is_a_clear_error(tmp_path):
    import socket

    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        done = subprocess.run(
            [
                sys.executable,
                "-m",
                "sandbox",
                "--db",
                str(tmp_path / "s.sqlite3"),
                "--port",
                str(port),
            ],
            cwd=ROOT,
            capture_output=True,
            text=True,
            timeout=60,
        )
    assert done.returncode == 1
    assert "--port 0" in done.stderr
