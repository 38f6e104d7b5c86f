"""``python3 scripts/install.py``: the project's virtual environment, made once.

Creates ``.venv`` (with the Python that runs this) and installs the project into it,
editable, with its ``dev`` and ``sandbox`` extras. A stamp in ``.venv`` holds the hash of
``pyproject.toml``: a second run installs nothing until ``pyproject.toml`` changes.
Standard library only: it runs before anything is installed. ``scripts/start.py`` and
``scripts/test.py`` call it first.
"""

from __future__ import annotations

import hashlib
import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
EXTRAS = "dev,sandbox"
STAMP = ".croupier-installed"  # in .venv: what was installed, for which pyproject.toml
MINIMUM = (3, 11)

Run = Callable[..., Any]


def venv_python(venv: Path) -> Path:
    """The virtual environment's interpreter."""
    return venv / ("Scripts/python.exe" if os.name == "nt" else "bin/python")


def wanted(root: Path) -> str:
    """What the stamp must say: the extras and pyproject.toml's SHA-256."""
    digest = hashlib.sha256((root / "pyproject.toml").read_bytes()).hexdigest()
    return f"{EXTRAS} {digest}\n"


def check_python(version: tuple[int, ...] = tuple(sys.version_info)) -> None:
    """Stop with one sentence (exit 2) on a Python older than 3.11."""
    if version[:2] < MINIMUM:
        found = ".".join(str(n) for n in version[:2])
        sys.exit(f"Croupier needs Python 3.11 or newer; this is Python {found}.")


def ensure(root: Path = ROOT, *, run: Run = subprocess.check_call) -> Path:
    """``.venv`` with the project installed, the interpreter's path; nothing is done when
    the stamp matches pyproject.toml."""
    check_python()
    venv = root / ".venv"
    python, stamp = venv_python(venv), venv / STAMP
    want = wanted(root)
    if python.exists() and stamp.exists() and stamp.read_text() == want:
        return python
    if not python.exists():
        print("Creating the virtual environment .venv ...", flush=True)
        run([sys.executable, "-m", "venv", str(venv)], cwd=root)
    print("Installing Croupier into .venv (again only when pyproject.toml changes) ...")
    run([str(python), "-m", "pip", "install", "--quiet", "-e", f".[{EXTRAS}]"], cwd=root)
    stamp.write_text(want)
    return python


if __name__ == "__main__":
    ensure()
