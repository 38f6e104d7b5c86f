"""The cost bench: its moves are real applied moves, and it reads callgrind's total."""

from __future__ import annotations

from pathlib import Path

import pytest

from bench.cost import _COLLECTED, run_moves


@pytest.mark.parametrize("game", ["classic", "pirate21"])
async def test_every_counted_move_is_applied(tmp_path: Path, game: str) -> None:
    # run_moves raises when a move is not applied; Pirate 21 games end and are replaced
    cpu = await run_moves(tmp_path, game, tables=2, moves=60)
    assert cpu > 0


def test_reads_the_instruction_total_from_callgrind() -> None:
    stderr = "==9893== Events    : Ir\n==9893== Collected : 2114706106\n==9893==\n"
    found = _COLLECTED.search(stderr)
    assert found is not None and int(found[1]) == 2114706106
