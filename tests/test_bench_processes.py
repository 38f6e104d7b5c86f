"""``bench latency --processes``: the tables split over processes sharing one database,
or with a database each."""

from __future__ import annotations

import argparse
import sqlite3
from pathlib import Path

from bench.processes import run_processes


def test_processes_share_one_database_and_time_the_same_window(tmp_path: Path) -> None:
    args = argparse.Namespace(game="classic", players=3, seconds=1.0, steps=False)
    runs = run_processes(tmp_path, 5, 2, args, think=0.2)
    assert [r["tables"] for r in runs] == [3, 2]  # 5 tables split as evenly as can be
    assert all(r["moves"] > 0 and len(r["latencies"]) == r["moves"] for r in runs)
    (start_a, end_a), (start_b, end_b) = (r["window"] for r in runs)
    assert max(start_a, start_b) < min(end_a, end_b)  # the timed windows overlap
    [path] = tmp_path.glob("shared-*.sqlite3")
    with sqlite3.connect(path) as db:  # each process also opened one warm-up table
        channels = [row[0] for row in db.execute("SELECT channel_id FROM tables")]
    assert len(channels) == len(set(channels)) == 3 + 1 + 2 + 1
    assert sum(c > 10**6 for c in channels) == 3  # the second process's own channels


def test_own_databases_give_each_process_a_file_of_its_own(tmp_path: Path) -> None:
    args = argparse.Namespace(
        game="classic", players=3, seconds=1.0, steps=False, own_databases=True
    )
    runs = run_processes(tmp_path, 4, 2, args, think=0.2)
    assert all(r["moves"] > 0 for r in runs)
    (start_a, end_a), (start_b, end_b) = (r["window"] for r in runs)
    assert max(start_a, start_b) < min(end_a, end_b)  # still timed in the same window
    files = sorted(tmp_path.glob("shared-*-*.sqlite3"))
    assert [f.name for f in files] == ["shared-0-0.sqlite3", "shared-0-1.sqlite3"]
    for path, own in zip(files, (2, 2), strict=True):
        with sqlite3.connect(path) as db:  # its own tables (and warm-up table) only
            assert db.execute("SELECT count(*) FROM tables").fetchone()[0] == own + 1
    assert not (tmp_path / "shared-0.sqlite3").exists()  # no shared file was made


def test_the_servers_go_round_every_process_s_tables(tmp_path: Path) -> None:
    """Four tables in two processes and four servers: a server each, players of their own."""
    args = argparse.Namespace(game="classic", players=3, seconds=0.3, steps=False, guilds=4)
    run_processes(tmp_path, 4, 2, args, think=0.2)
    [path] = tmp_path.glob("shared-*.sqlite3")
    with sqlite3.connect(path) as db:  # the warm-up tables (channels 3, 10**6 + 3) aside
        rows = db.execute(
            "SELECT guild_id, host_id FROM tables WHERE channel_id % 1000000 <> 3 ORDER BY guild_id"
        ).fetchall()
    assert [guild for guild, _host in rows] == [1, 2, 3, 4]
    assert len({host for _guild, host in rows}) == 4
