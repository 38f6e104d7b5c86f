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


async def test_croupier_moves_through_simcord_are_button_clicks(tmp_path: Path) -> None:
    from bench.cost_simcord import croupier_moves

    # raises when a click is not applied; every Black Jack move of the strategy is a button
    sent = await croupier_moves(tmp_path, "blackjack", tables=2, moves=30, intents="croupier")
    assert sent["moves"] == 30 and sent["slash_moves"] == 0
    assert 1.0 <= sent["calls_per_move"] < 2.0  # the response, sometimes a round summary
    assert sent["response_bytes"] > 800


async def test_the_floor_bot_answers_each_click_with_one_edit_of_the_same_size() -> None:
    from bench.cost_simcord import floor_moves

    sent = await floor_moves(tables=3, moves=12, intents="croupier")
    assert sent["calls_per_move"] == 1.0  # the interaction response, nothing else
    assert 1150 < sent["response_bytes"] < 1450  # a Black Jack table message's size


@pytest.mark.parametrize(
    ("shape", "low", "high"), [("casino21", 1650, 2050), ("sept_et_demi", 1400, 1750)]
)
async def test_a_floor_shaped_as_a_game_answers_with_that_games_message_size(
    shape: str, low: int, high: int
) -> None:
    from bench.cost_simcord import floor_moves

    sent = await floor_moves(tables=2, moves=6, intents="croupier", shape=shape)
    assert sent["calls_per_move"] == 1.0
    assert low < sent["response_bytes"] < high  # the game's table message, not Black Jack's


def test_compare_reports_both_figures_and_their_ratio(monkeypatch: pytest.MonkeyPatch) -> None:
    import argparse

    import bench.cost as cost

    totals = {("croupier", 10): 1_000, ("croupier", 20): 1_700}
    totals |= {("floor", 10): 800, ("floor", 20): 1_300}

    def run(which: str, game: str, tables: int, moves: int, intents: str, valgrind: bool, *_):
        return totals[(which, moves)], {"moves": moves, "cpu_per_move": 0.0}

    monkeypatch.setattr(cost, "_run", run)
    args = argparse.Namespace(tables=2, moves=10, intents="croupier")
    row = cost.compare("blackjack", args, valgrind=True)
    assert row["croupier_instructions_per_move"] == 70.0  # (1700 - 1000) / 10
    assert row["floor_instructions_per_move"] == 50.0
    assert row["ratio"] == pytest.approx(1.4)


@pytest.mark.parametrize("game", ["classic", "sept_et_demi"])
async def test_counted_runs_replay_the_steps_the_players_chose(tmp_path: Path, game: str) -> None:
    import json

    script = tmp_path / "steps.json"
    await run_moves(tmp_path / "a", game, tables=2, moves=40, script=script)
    chosen = json.loads(script.read_text())
    assert len(chosen) == 40
    # the same games again, steps read from the script: every one still applies (it raises
    # otherwise), and a shorter run replays the first steps only
    await run_moves(tmp_path / "b", game, tables=2, moves=40, script=script)
    await run_moves(tmp_path / "c", game, tables=2, moves=20, script=script)
    assert json.loads(script.read_text()) == chosen  # read, not rewritten
    player, name, arg = chosen[5]
    chosen[5] = [player + 1, name, arg]  # a step by someone else cannot be played
    script.write_text(json.dumps(chosen))
    with pytest.raises(RuntimeError, match="was not applied"):
        await run_moves(tmp_path / "d", game, tables=2, moves=40, script=script)


async def test_simcord_runs_replay_the_steps_the_players_chose(tmp_path: Path) -> None:
    import json

    from bench.cost_simcord import croupier_moves

    script = tmp_path / "steps.json"
    first = await croupier_moves(tmp_path / "a", "casino21", 2, 30, "croupier", script)
    steps = json.loads(script.read_text())
    again = await croupier_moves(tmp_path / "b", "casino21", 2, 30, "croupier", script)
    assert len(steps) == 30 and again["calls_per_move"] == first["calls_per_move"]
    seat, what, slash = steps[3]
    steps[3] = [(seat + 1) % 3, what, slash]  # the same click by another seated player
    script.write_text(json.dumps(steps))
    with pytest.raises(RuntimeError, match="was not applied"):
        await croupier_moves(tmp_path / "c", "casino21", 2, 30, "croupier", script)
