"""The shape of the imports: no import cycles; each package of ``bot`` imports only what
its line of ``RULES`` allows (docs/ARCHITECTURE.md, "Layout"); ``bot.ui`` does no I/O; and
the package that ships (``bot``, ``cogs``) needs none of the development tools (SimCord,
pytest, hypothesis)."""

from __future__ import annotations

import ast
import importlib
import subprocess
import sys
from pathlib import Path
from typing import NamedTuple

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("bot", "cogs", "bench", "sandbox")
SHIPPED = ("bot", "cogs")
DEV_ONLY = ("simcord", "pytest", "hypothesis")


class May(NamedTuple):
    """What a package may import besides itself and the standard library."""

    bot: tuple[str, ...] = ()  # packages or modules of ``bot`` (each with its submodules)
    libraries: tuple[str, ...] = ()  # third-party distributions' top-level modules


# The layout. A module follows the line of the most specific package that holds it; a
# module of ``bot`` that no line holds is a failure (a new package gets its line here).
RULES: dict[str, May] = {
    "bot.engine": May(),  # pure: the standard library only
    "bot.errors": May(("bot.engine.refusal",)),  # a user's error is a refusal
    "bot.i18n": May(),
    "bot.heap": May(),
    "bot.version": May(),
    "bot.logs": May(libraries=("aiohttp",)),  # hides aiohttp's request bodies
    "bot.db": May(libraries=("aiosqlite", "asyncpg")),
    # the money types, and the one refusal base its errors derive from
    "bot.bank": May(("bot.db", "bot.engine.events", "bot.engine.refusal"), ("orjson",)),
    # a settled round's rows for the statistics ride in the move's transaction
    "bot.tables": May(
        ("bot.engine", "bot.bank", "bot.db", "bot.errors", "bot.stats.results"), ("orjson",)
    ),
    "bot.prefs": May(("bot.db", "bot.i18n")),
    "bot.config": May(("bot.db", "bot.errors"), ("dotenv",)),
    "bot.shards": May(("bot.config", "bot.errors")),
    # rendering: reads the tables' and the bank's data, builds embeds and views as data
    "bot.ui": May(
        (
            "bot.engine",
            "bot.i18n",
            "bot.errors",
            "bot.tables",
            "bot.bank.models",
            "bot.bank.errors",
            "bot.db.base",  # its Busy, a refusal the ui translates
            "bot.stats",  # the statistics' figures, as data
        ),
        ("discord",),
    ),
    # Discord I/O: sends what bot.ui builds
    "bot.discord": May(
        (
            "bot.engine",
            "bot.i18n",
            "bot.errors",
            "bot.db",
            "bot.bank",
            "bot.tables",
            "bot.prefs",
            "bot.ui",
        ),
        ("discord", "aiohttp"),
    ),
    "bot.stats": May(("bot.db", "bot.engine"), ("matplotlib",)),  # no discord
    "bot.cli": May(("bot.db", "bot.bank", "bot.config", "bot.errors")),
}
ANYTHING = ("bot.app", "bot.__main__", "cogs")  # where it all comes together
# Known breaches of RULES, each to delete once gone (a listed one that no longer occurs
# fails too). None today.
EXCEPTIONS: set[tuple[str, str]] = set()
# the standard library, and typeshed's stubs of it (imported under TYPE_CHECKING only)
STANDARD = (*sys.stdlib_module_names, "_typeshed")
NO_IO_IN_UI = ("asyncio", "aiohttp", "discord.ext", "discord.http", "bot.discord")


def modules(root: Path, packages: tuple[str, ...]) -> dict[str, Path]:
    """Every module of ``packages`` by dotted name (a package by its own name)."""
    found: dict[str, Path] = {}
    for package in packages:
        for path in (root / package).rglob("*.py"):
            parts = list(path.relative_to(root).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            found[".".join(parts)] = path
    return found


def imported(name: str, path: Path, known: dict[str, Path]) -> set[str]:
    """The modules of ``known`` that ``name`` imports, at its top or inside a function (a
    deferred import still ties the two modules together)."""
    package = name.split(".") if path.name == "__init__.py" else name.split(".")[:-1]
    out: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text("utf-8"))):
        if isinstance(node, ast.Import):
            out.update(a.name for a in node.names if a.name in known)
        elif isinstance(node, ast.ImportFrom):
            base = package[: len(package) - node.level + 1] if node.level else []
            target = ".".join([*base, *([node.module] if node.module else [])])
            for alias in node.names:
                sub = f"{target}.{alias.name}"
                if sub in known:
                    out.add(sub)
                elif target in known:
                    out.add(target)
    out.discard(name)
    return out


def cycles(graph: dict[str, set[str]]) -> list[set[str]]:
    """The strongly connected groups of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[set[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        for w in graph[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group = set()
            while True:
                w = stack.pop()
                group.add(w)
                if w == v:
                    break
            if len(group) > 1:
                found.append(group)

    for v in graph:
        if v not in index:
            visit(v)
    return found


def graph_of(root: Path) -> dict[str, set[str]]:
    known = modules(root, PACKAGES)
    return {name: imported(name, path, known) for name, path in known.items()}


def test_no_import_cycles() -> None:
    found = cycles(graph_of(ROOT))
    assert not found, f"import cycles: {[sorted(c) for c in found]}"


def test_the_cycle_detector_sees_a_deferred_import(tmp_path: Path) -> None:
    """The shape of the cycle the benches had (latency.py <-> processes.py): one side
    imports the other inside a function."""
    pkg = tmp_path / "bot" / "bench"
    pkg.mkdir(parents=True)
    (tmp_path / "bot" / "__init__.py").write_text("")
    (pkg / "__init__.py").write_text("")
    (pkg / "latency.py").write_text("from .processes import run\n")
    (pkg / "processes.py").write_text("def child():\n    from .latency import measure\n")
    (pkg / "steps.py").write_text("from . import latency\n")
    assert cycles(graph_of(tmp_path)) == [{"bot.bench.latency", "bot.bench.processes"}]


def test_the_shipped_packages_import_no_development_tool() -> None:
    """Not at the top of a module nor inside a function; and importing every module of
    ``bot`` and ``cogs`` with the development tools made unimportable works."""
    known = modules(ROOT, SHIPPED)
    for name, path in known.items():
        for node in ast.walk(ast.parse(path.read_text("utf-8"))):
            names = []
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                names = [node.module]
            bad = [n for n in names if n.split(".")[0] in DEV_ONLY]
            assert not bad, f"{name} imports {bad}"
    code = (
        "import importlib, sys\n"
        f"for dev in {DEV_ONLY!r}:\n"
        "    sys.modules[dev] = None  # import dev -> ImportError\n"
        f"for name in {sorted(n for n in known if not n.endswith('__main__'))!r}:\n"
        "    importlib.import_module(name)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr[-2000:]


def test_every_development_tool_module_imports() -> None:
    """The benchmarks and the sandbox live outside the package: each of their modules
    still imports (a moved module's relative imports would not)."""
    names = sorted(n for n in modules(ROOT, ("bench", "sandbox")) if not n.endswith("__main__"))
    code = f"import importlib\nfor name in {names!r}:\n    importlib.import_module(name)\n"
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr[-2000:]


def within(name: str, prefixes: tuple[str, ...]) -> bool:
    """Whether ``name`` is one of ``prefixes`` or inside one."""
    return any(name == p or name.startswith(p + ".") for p in prefixes)


def rule_of(name: str) -> str | None:
    """The most specific package of RULES that holds ``name``."""
    holders = [package for package in RULES if within(name, (package,))]
    return max(holders, key=len) if holders else None


def absolute_imports(path: Path) -> set[str]:
    """Every dotted name ``path`` imports absolutely (``from a.b import c``: ``a.b``)."""
    out: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text("utf-8"))):
        if isinstance(node, ast.Import):
            out.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            out.add(node.module)
    return out


def breaches(root: Path) -> list[str]:
    """Every import of a module of ``bot`` that its line of RULES does not allow."""
    known = modules(root, SHIPPED)
    found: list[str] = []
    for name, path in sorted(known.items()):
        if name == "bot" or within(name, ANYTHING):
            continue
        package = rule_of(name)
        if package is None:
            found.append(f"{name}: no line of RULES holds it")
            continue
        may = RULES[package]
        for target in sorted(imported(name, path, known)):
            if not within(target, (package, *may.bot)) and (name, target) not in EXCEPTIONS:
                found.append(f"{name} imports {target}")
        for module in sorted(absolute_imports(path)):
            top = module.split(".")[0]
            if top not in ("bot", "cogs", *STANDARD, *may.libraries):
                found.append(f"{name} imports {module}")
    return found


def io_in_ui(root: Path) -> list[str]:
    """What in ``bot.ui`` would talk to Discord (or anything): an ``await``, an
    ``async for``/``async with``, an import of asyncio, aiohttp, the client's extensions
    or ``bot.discord``. (discord.py's Translator is an ``async def`` that awaits nothing.)"""
    found: list[str] = []
    for name, path in sorted(modules(root, ("bot",)).items()):
        if not within(name, ("bot.ui",)):
            continue
        for node in ast.walk(ast.parse(path.read_text("utf-8"))):
            if isinstance(node, (ast.Await, ast.AsyncFor, ast.AsyncWith)):
                found.append(f"{name}:{node.lineno} {type(node).__name__}")
        found.extend(
            f"{name} imports {m}" for m in sorted(absolute_imports(path)) if within(m, NO_IO_IN_UI)
        )
    return found


def test_each_package_imports_only_what_its_rule_allows() -> None:
    found = breaches(ROOT)
    assert not found, "imports that docs/ARCHITECTURE.md's layout forbids:\n" + "\n".join(found)


def test_every_known_exception_still_occurs() -> None:
    """An exception that no longer occurs is deleted from EXCEPTIONS, so it cannot hide a
    new one."""
    known = modules(ROOT, SHIPPED)
    gone = [(a, b) for a, b in EXCEPTIONS if b not in imported(a, known[a], known)]
    assert not gone, f"delete from EXCEPTIONS: {gone}"


def test_the_ui_does_no_io() -> None:
    found = io_in_ui(ROOT)
    assert not found, "bot.ui renders only; Discord I/O lives in bot.discord:\n" + "\n".join(found)


def test_the_rules_see_a_forbidden_import(tmp_path: Path) -> None:
    """The database importing the tables (at the top or inside a function), the tables
    importing discord.py, a package with no line, and the ui awaiting the client."""
    files = {
        "bot/__init__.py": "",
        "bot/db/__init__.py": "from bot.db import base\n",
        "bot/db/base.py": "def later():\n    from bot.tables import service\n",
        "bot/tables/__init__.py": "from .service import act\n",
        "bot/tables/service.py": "import json\nimport discord\nfrom bot.bank import core\n",
        "bot/bank/__init__.py": "",
        "bot/bank/core.py": "from bot.engine.events import Money\nfrom bot.engine import base\n",
        "bot/engine/__init__.py": "",
        "bot/engine/events.py": "import dataclasses\n",
        "bot/engine/base.py": "",
        "bot/newgame/__init__.py": "",
        "bot/ui/__init__.py": "",
        "bot/ui/send.py": "import discord\nasync def send(c):\n    await c.send()\n",
        "cogs/__init__.py": "import bot.db.base\n",
    }
    for name, text in files.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text)
    assert breaches(tmp_path) == [
        "bot.bank.core imports bot.engine.base",
        "bot.db.base imports bot.tables.service",
        "bot.newgame: no line of RULES holds it",
        "bot.tables.service imports discord",
    ]
    assert io_in_ui(tmp_path) == ["bot.ui.send:3 Await"]


def test_import_discord_in_bot_discord_is_the_library() -> None:
    """``bot/discord`` shadows nothing: its modules' ``discord`` is discord.py (imports
    are absolute), and none of them imports a sibling named ``discord``."""
    import discord

    for name in sorted(modules(ROOT, ("bot",))):
        if within(name, ("bot.discord",)):
            module = importlib.import_module(name)
            assert getattr(module, "discord", discord) is discord, name
    assert Path(discord.__file__).parent.name == "discord"
    assert not Path(discord.__file__).is_relative_to(ROOT / "bot")
