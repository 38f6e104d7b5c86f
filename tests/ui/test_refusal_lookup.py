"""One refusal shape, one translation by lookup: every kind of refusal (engine, options,
bank, table, user, the database's Busy) is said by its catalog key, else its fallbacks in
order; anything else is not a refusal (a bug, answered elsewhere)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from bot.bank.errors import ALL_ERRORS, BankError, InsufficientFunds
from bot.db import Busy
from bot.engine.errors import IllegalAction, InvalidOptions
from bot.engine.options import OptionError
from bot.engine.refusal import Refusal
from bot.errors import UserError
from bot.i18n import t
from bot.tables.errors import StaleAction, TableError
from bot.ui.errors import refusal_text

ROOT = Path(__file__).resolve().parents[2]


def test_every_refusal_kind_is_one_refusal_with_its_catalog_key() -> None:
    assert IllegalAction("not_your_turn").key == "illegal.not_your_turn"
    assert InvalidOptions("decks_out_of_range", min=1).key == "options.decks_out_of_range"
    assert OptionError("unknown_option", suggestion="decks").key == "options.unknown_option_close"
    assert OptionError("unknown_option", suggestion="").key == "options.unknown_option"
    assert InsufficientFunds("short", needed=5).key == "bank.error.insufficient_funds"
    assert str(InsufficientFunds("short")) == "short"  # the log's message is unchanged
    assert TableError("not_host").key == "table.error.not_host"
    assert TableError("not_host").code == "not_host"
    assert StaleAction().key == "table.error.stale"
    assert UserError("db.busy").key == "db.busy"
    for kind in (IllegalAction, InvalidOptions, OptionError, UserError, BankError):
        assert issubclass(kind, Refusal) and issubclass(kind, ValueError)
    assert [e.code for e in ALL_ERRORS] == [e().code for e in ALL_ERRORS]


def test_a_code_the_catalog_lacks_falls_back_to_the_generic_sentence() -> None:
    assert refusal_text(IllegalAction("no_such_code"), "en") == t(
        "illegal.generic", "en", code="no_such_code"
    )

    class Odd(BankError):
        code = "no_such_bank_code"

    assert refusal_text(Odd(), "fr") == t("bank.error.generic", "fr", code="no_such_bank_code")
    odd = InvalidOptions("no_such_option_code", a=1, b="x")
    assert refusal_text(odd, "en") == t(
        "options.generic", "en", code="no_such_option_code", detail="a=1, b=x"
    )


def test_an_unknown_out_of_range_code_is_said_with_its_bounds() -> None:
    exc = InvalidOptions("widgets_out_of_range", min=1, max=8, value=12)
    assert refusal_text(exc, "en") == "widgets must be between 1 and 8 (got 12)."
    named = InvalidOptions("widgets_out_of_range", option="gizmos", min=1, max=8, value=12)
    assert refusal_text(named, "en") == "gizmos must be between 1 and 8 (got 12)."


def test_busy_is_a_refusal_without_the_db_importing_the_bot() -> None:
    assert not isinstance(Busy(), Refusal)
    assert refusal_text(Busy("db.busy"), "en") == t("db.busy", "en")
    assert refusal_text(Busy("db.busy"), "fr") == t("db.busy", "fr")
    for path in (ROOT / "bot" / "db").rglob("*.py"):  # Busy used to be a bot.errors one
        for node in ast.walk(ast.parse(path.read_text("utf-8"))):
            if isinstance(node, ast.ImportFrom):
                assert node.module != "bot.errors", f"{path.name} imports bot.errors"


@pytest.mark.parametrize("exc", [ValueError("x"), KeyError("k"), RuntimeError()])
def test_anything_else_is_not_a_refusal(exc: BaseException) -> None:
    assert refusal_text(exc, "en") is None


def test_the_engine_refusal_imports_only_the_standard_library() -> None:
    tree = ast.parse((ROOT / "bot" / "engine" / "refusal.py").read_text("utf-8"))
    names = [
        n.module or "" for n in ast.walk(tree) if isinstance(n, ast.ImportFrom) and n.level == 0
    ]
    names += [a.name for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names]
    assert all(name.split(".")[0] in {"__future__", "typing"} for name in names), names
