"""docs/RULES.md's option tables are the registry's: every game has one, and each row is
its OptionSpec (name, values, default, description)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from bot.engine.registry import GAMES
from bot.engine.rules_doc import DOC, main, sync


def _doc() -> str:
    return DOC.read_text(encoding="utf-8")


def test_rules_md_option_tables_match_the_registry() -> None:
    text = _doc()
    assert sync(text) == text, "docs/RULES.md is stale: run `python -m bot rules-doc`"


@pytest.mark.parametrize("key", list(GAMES))
def test_each_game_table_lists_exactly_its_options_in_order(key: str) -> None:
    block = re.search(rf"<!-- options: {key} .*?<!-- /options -->", _doc(), re.DOTALL)
    assert block is not None
    names = re.findall(r"^\| `(\w+)` \|", block[0], re.MULTILINE)
    assert names == [spec.name for spec in GAMES[key].options]


def test_a_stale_default_is_rewritten() -> None:
    text = _doc()
    stale = text.replace("| `decks` | `1–8` | `6` |", "| `decks` | `1–8` | `4` |", 1)
    assert stale != text
    assert sync(stale) == text


def test_a_missing_table_is_an_error() -> None:
    text = re.sub(r"<!-- options: pirate21 .*?<!-- /options -->", "", _doc(), flags=re.DOTALL)
    with pytest.raises(ValueError, match="pirate21"):
        sync(text)


def test_an_unknown_or_old_key_is_an_error() -> None:
    text = _doc().replace("<!-- options: blackjack ", "<!-- options: classic ", 1)
    with pytest.raises(ValueError, match="classic"):
        sync(text)


def test_check_mode_reports_a_stale_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "RULES.md"
    path.write_text(_doc().replace("| `4` | hands", "| `3` | hands", 1), encoding="utf-8")
    assert main(["--check", "--path", str(path)]) == 1
    assert main(["--path", str(path)]) == 0
    assert path.read_text(encoding="utf-8") == _doc()
    assert main(["--check", "--path", str(path)]) == 0
    assert "up to date" in capsys.readouterr().out
