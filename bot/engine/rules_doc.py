"""The option tables of docs/RULES.md, written from the registry (``python -m bot rules-doc``).

Each game's section of docs/RULES.md holds its table between two markers naming the game's
key; :func:`sync` rewrites what stands between them, so the tables never drift from the
``OptionSpec``s (a test checks that ``sync`` changes nothing).
"""

from __future__ import annotations

import argparse
import re
from pathlib import Path

from .options import OptionKind, OptionSpec, allowed_short, format_value
from .registry import GAMES, GameSpec

BEGIN = "<!-- options: {key} (written from the registry by `python -m bot rules-doc`) -->"
END = "<!-- /options -->"
_BLOCK = re.compile(r"<!-- options: (\w+) [^\n]*-->\n.*?<!-- /options -->", re.DOTALL)
DOC = Path(__file__).resolve().parents[2] / "docs" / "RULES.md"


def takes(spec: OptionSpec) -> str:
    """What the option takes, as typed, with the bounds checked when a table opens."""
    if spec.kind is OptionKind.FORM:
        text = spec.allowed_en + (", or `none`" if spec.none else "")
    else:
        text = ", ".join(f"`{p}`" for p in allowed_short(spec).split(" | "))
    if spec.cap is not None:
        text += f"; at most the server's `{spec.cap}` (`/bank setup`)"
    if spec.floor is not None:
        text += f"; at least the server's `{spec.floor}` (`/bank setup`)"
    if spec.open_at_least is not None:
        text += f"; at least `{spec.open_at_least[0]}`"
    return text


def option_table(spec: GameSpec) -> str:
    """The Markdown table of a game's options: name, values, default, description."""
    rows = ["| option | takes | default | what it does |", "|---|---|---|---|"]
    for o in spec.options:
        default = format_value(o, o.default)
        rows.append(f"| `{o.name}` | {takes(o)} | `{default}` | {o.en} |")
    return "\n".join(rows)


def block(spec: GameSpec) -> str:
    """A game's table between its markers."""
    return f"{BEGIN.format(key=spec.key)}\n{option_table(spec)}\n{END}"


def sync(text: str) -> str:
    """``text`` with every game's option table written anew; ValueError when a game of
    the registry has no table, or a table names no game."""
    found: list[str] = []

    def write(match: re.Match[str]) -> str:
        key = match[1]
        if key not in GAMES or GAMES.key(key) != key:
            raise ValueError(f"docs/RULES.md: an option table for an unknown game {key!r}")
        found.append(key)
        return block(GAMES[key])

    out = _BLOCK.sub(write, text)
    missing = [key for key in GAMES if key not in found]
    if missing:
        raise ValueError(f"docs/RULES.md: no option table for {', '.join(missing)}")
    return out


def main(argv: list[str]) -> int:
    """Rewrite the option tables of docs/RULES.md (``--check``: only say if they differ)."""
    ap = argparse.ArgumentParser(prog="python -m bot rules-doc")
    ap.add_argument("--check", action="store_true", help="exit 1 if the tables are stale")
    ap.add_argument("--path", type=Path, default=DOC)
    args = ap.parse_args(argv)
    text = args.path.read_text(encoding="utf-8")
    new = sync(text)
    if args.check:
        print("up to date" if new == text else "stale: run `python -m bot rules-doc`")
        return 0 if new == text else 1
    if new != text:
        args.path.write_text(new, encoding="utf-8")
    print(f"{args.path}: {'written' if new != text else 'up to date'}")
    return 0
