"""``python3 scripts/test.py [pytest arguments]``: install (``scripts/install.py``, once)
and run the test suite; the output ends with pytest's summary line, and the exit status is
pytest's (non-zero on any failure)."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))  # scripts/install.py beside it
from install import ROOT, Run, ensure

del sys.path[0]  # only for that import: this script's name must not shadow another module


def main(
    argv: list[str],
    *,
    root: Path = ROOT,
    run: Run = subprocess.call,
    install: Callable[[Path], Path] = ensure,
) -> int:
    """Install, then pytest with ``argv``; pytest's exit status."""
    python = str(install(root))
    return int(run([python, "-m", "pytest", *argv], cwd=root))


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
