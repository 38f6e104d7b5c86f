"""bench stalls: its ledger is one the audit proves, and each case prints its figures."""

from __future__ import annotations

from pathlib import Path

import pytest

from bench import stalls


async def test_the_filled_ledger_passes_the_audit(tmp_path: Path):
    kept = await stalls.ledger(tmp_path, 1_000)
    db, bank = await stalls._open(stalls.copy_of(kept, tmp_path))
    try:
        report = await bank.audit(stalls.GUILD)
        assert report.ok, report.format()
        assert report.entries >= 1_000
    finally:
        await db.close()


@pytest.mark.parametrize("case", ["audit", "backup"])
async def test_a_case_prints_its_stall(tmp_path: Path, capsys, case: str):
    run = stalls.case_audit if case == "audit" else stalls.case_backup
    await run(tmp_path, 2_000)
    out = capsys.readouterr().out
    assert "worst stall" in out and "over 50 ms" in out, out
