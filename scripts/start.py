"""``python3 scripts/start.py``: install (``scripts/install.py``, once) and run Croupier.

With ``DISCORD_TOKEN`` set (in the environment or in ``.env``) it runs the bot on Discord
(``python -m bot``); without it, the sandbox in the browser (``python -m sandbox --open``),
saying so in one line with how to set the token. Arguments go to the command it runs.
"""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Callable, Mapping
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))  # scripts/install.py beside it
from install import ROOT, Run, ensure

del sys.path[0]  # only for that import: this script's name must not shadow another module

NO_TOKEN = (
    "No DISCORD_TOKEN: starting the sandbox (a simulated Discord) in your browser. To run the "
    "bot on Discord, put DISCORD_TOKEN=<your bot token> in .env (README: Creating the "
    "Discord application)."
)


def token_in(root: Path, environ: Mapping[str, str]) -> bool:
    """Whether a bot token is set: the environment first, then ``.env`` (as the bot reads)."""
    if environ.get("DISCORD_TOKEN", "").strip():
        return True
    dotenv = root / ".env"
    if not dotenv.is_file():
        return False
    for line in dotenv.read_text(encoding="utf-8").splitlines():
        key, _, value = line.removeprefix("export ").partition("=")
        if key.strip() == "DISCORD_TOKEN" and value.strip().strip("'\""):
            return True
    return False


def main(
    argv: list[str],
    *,
    root: Path = ROOT,
    environ: Mapping[str, str] = os.environ,
    run: Run = subprocess.call,
    install: Callable[[Path], Path] = ensure,
) -> int:
    """Install, then the bot or (no token) the sandbox; their exit status."""
    python = str(install(root))
    if token_in(root, environ):
        return int(run([python, "-m", "bot", *argv], cwd=root))
    print(NO_TOKEN, flush=True)
    return int(run([python, "-m", "sandbox", "--open", *argv], cwd=root))


if __name__ == "__main__":
    try:
        sys.exit(main(sys.argv[1:]))
    except KeyboardInterrupt:  # Ctrl-C reached the bot or the sandbox too: they stop
        sys.exit(130)
