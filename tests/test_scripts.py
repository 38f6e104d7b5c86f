"""The README's two commands (``scripts/start.py``, ``scripts/test.py``) and the installer
they share, without the network: the commands they would run are recorded, or run by a
stand-in ``.venv/bin/python`` in a copy of the project."""

from __future__ import annotations

import importlib.util
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[1]


def load(name: str) -> Any:
    """scripts/<name>.py as a module (scripts/ is no package; "test" is a stdlib name)."""
    spec = importlib.util.spec_from_file_location(
        f"croupier_script_{name}", ROOT / "scripts" / f"{name}.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


install, start, test_command = load("install"), load("start"), load("test")


class Recorder:
    """Stands for subprocess: records each command; a new venv gets an interpreter file."""

    def __init__(self, status: int = 0) -> None:
        self.commands: list[list[str]] = []
        self.status = status

    def __call__(self, command: list[str], **kwargs: Any) -> int:
        self.commands.append([str(c) for c in command])
        if command[1:3] == ["-m", "venv"]:
            python = install.venv_python(Path(command[3]))
            python.parent.mkdir(parents=True)
            python.write_text("")
        return self.status


@pytest.fixture
def project(tmp_path: Path) -> Path:
    shutil.copy(ROOT / "pyproject.toml", tmp_path / "pyproject.toml")
    return tmp_path


def test_the_second_install_installs_nothing(project: Path) -> None:
    run = Recorder()
    python = install.ensure(project, run=run)
    assert python == install.venv_python(project / ".venv")
    assert [c[1:3] for c in run.commands] == [["-m", "venv"], ["-m", "pip"]]
    assert run.commands[1][-1] == ".[dev,sandbox]"
    run.commands.clear()
    assert install.ensure(project, run=run) == python
    assert run.commands == []  # the stamp matches pyproject.toml: nothing again
    with (project / "pyproject.toml").open("a") as f:
        f.write("\n# a new dependency\n")
    install.ensure(project, run=run)
    assert [c[1:3] for c in run.commands] == [["-m", "pip"]]  # the venv is kept


def test_a_failed_install_is_tried_again(project: Path) -> None:
    def failing(command: list[str], **kwargs: Any) -> int:
        Recorder()(command)
        if "pip" in command:
            raise subprocess.CalledProcessError(1, command)
        return 0

    with pytest.raises(subprocess.CalledProcessError):
        install.ensure(project, run=failing)
    assert not (project / ".venv" / install.STAMP).exists()  # no stamp: the next run installs


def test_an_old_python_is_told_in_one_sentence() -> None:
    with pytest.raises(SystemExit) as done:
        install.check_python((3, 10, 4))
    assert done.value.code == "Croupier needs Python 3.11 or newer; this is Python 3.10."


def fake_install(root: Path) -> Path:
    return root / ".venv" / "bin" / "python"


def test_no_token_runs_the_sandbox_and_says_so_in_one_line(project: Path, capsys) -> None:
    run = Recorder()
    assert start.main([], root=project, environ={}, run=run, install=fake_install) == 0
    out = capsys.readouterr().out
    assert out == start.NO_TOKEN + "\n"  # one line
    assert "DISCORD_TOKEN=" in out and ".env" in out and "sandbox" in out
    assert run.commands == [[str(fake_install(project)), "-m", "sandbox", "--open"]]


@pytest.mark.parametrize("where", ["environment", ".env", "export in .env"])
def test_a_token_runs_the_bot(project: Path, capsys, where: str) -> None:
    environ = {"DISCORD_TOKEN": "abc"} if where == "environment" else {}
    if where != "environment":
        prefix = "export " if where.startswith("export") else ""
        (project / ".env").write_text(f"# mine\n{prefix}DISCORD_TOKEN='abc'\n")
    run = Recorder(status=2)
    status = start.main(["--help"], root=project, environ=environ, run=run, install=fake_install)
    assert status == 2  # the bot's own status
    assert run.commands == [[str(fake_install(project)), "-m", "bot", "--help"]]
    assert capsys.readouterr().out == ""


def test_an_empty_token_in_dotenv_is_no_token(project: Path) -> None:
    (project / ".env").write_text("DISCORD_TOKEN=\n")
    assert not start.token_in(project, {})


def test_the_test_command_is_pytest_with_its_status(project: Path) -> None:
    run = Recorder(status=1)
    assert test_command.main(["-x"], root=project, run=run, install=fake_install) == 1
    assert run.commands == [[str(fake_install(project)), "-m", "pytest", "-x"]]


def test_the_scripts_as_a_user_runs_them(project: Path) -> None:
    """A copy of the project whose ``.venv`` is already installed (the stamp matches) and
    whose interpreter echoes what it is asked: the first lines the user reads."""
    shutil.copytree(ROOT / "scripts", project / "scripts")
    python = install.venv_python(project / ".venv")
    python.parent.mkdir(parents=True)
    python.write_text('#!/bin/sh\necho "ran: $*"\nexit 3\n')
    python.chmod(0o755)
    (project / ".venv" / install.STAMP).write_text(install.wanted(project))
    env = {k: v for k, v in os.environ.items() if k != "DISCORD_TOKEN"}
    done = subprocess.run(
        [sys.executable, "scripts/start.py"], cwd=project, env=env, capture_output=True, text=True
    )
    assert done.stdout.splitlines() == [start.NO_TOKEN, "ran: -m sandbox --open"]
    assert done.returncode == 3
    done = subprocess.run(
        [sys.executable, "scripts/test.py", "-q"], cwd=project, capture_output=True, text=True
    )
    assert done.stdout.splitlines() == ["ran: -m pytest -q"] and done.returncode == 3


def test_the_readme_starts_with_the_two_commands_and_ci_runs_the_second() -> None:
    first = (ROOT / "README.md").read_text().splitlines()[:8]
    assert any(line.startswith("python3 scripts/start.py") for line in first)
    assert any(line.startswith("python3 scripts/test.py") for line in first)
    ci = (ROOT / ".ci" / "run").read_text().splitlines()
    assert ci[-1] == "python3 scripts/test.py"  # last: its status is the run's
