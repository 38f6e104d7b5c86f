"""The shape of the imports: no import cycles, and the package that ships (``bot``, ``cogs``)
needs none of the development tools (SimCord, pytest, hypothesis)."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("bot", "cogs", "bench", "sandbox")
SHIPPED = ("bot", "cogs")
DEV_ONLY = ("simcord", "pytest", "hypothesis")


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
