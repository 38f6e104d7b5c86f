"""Tables stored by an older version of the code restore and play on.

``tests/fixtures/tables-v0.sqlite3`` was written by the code of commit a646717, and
``tables-v1.sqlite3`` by the code of 3d0d158, the last before the games shared one base
(see the fixtures' README): every game in several phases. Today's code must load each open
table in the phase it was stored in, with the same seats and round, and play it on to a
settled round or the end of the game, with the bank's audit clean all along."""

from __future__ import annotations

import json
import shutil
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest

from bot.bank import Bank
from bot.db import SqliteDatabase, migrate
from bot.engine.base import Action, ActionKind, IllegalAction, Phase
from bot.engine.shuffle import seeded_entropy
from bot.tables import TableService
from bot.tables.games import GAMES
from tests.bank_audit import assert_audit_clean

FIXTURES = Path(__file__).parent.parent / "fixtures"
VERSIONS = ("v0", "v1")
MANIFESTS = {v: json.loads((FIXTURES / f"tables-{v}.json").read_text()) for v in VERSIONS}
# a move for whoever may move, in this order of preference (amounts: the table's minimum)
PREFERRED = (
    ActionKind.BET,
    ActionKind.NO_INSURANCE,
    ActionKind.STAND,
    ActionKind.DRAW,
    ActionKind.CHOOSE_ACE,
    ActionKind.SHOW,
    ActionKind.END_TURN,
)


class Clock:
    now = 1_800_000_100.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture(params=VERSIONS)
async def restored(request: pytest.FixtureRequest, tmp_path: Path):
    path = tmp_path / "old.sqlite3"
    shutil.copy(FIXTURES / f"tables-{request.param}.sqlite3", path)
    db = await SqliteDatabase.open(path)
    await migrate(db)
    svc = TableService(db, Bank(db), clock=Clock(), entropy=seeded_entropy("restore"))
    await svc.load_open_tables()
    yield svc, MANIFESTS[request.param]
    await assert_audit_clean(db)
    await db.close()


def seated_players(view: Mapping[str, Any]) -> list[int]:
    """Player ids in seat order from a public view, this version's or an older one's
    (whatever it called its seats): how an old table's seats read in its manifest."""
    seats = view.get("seats") or view.get("players") or []
    out: list[int] = []
    for s in seats:
        if isinstance(s, dict):
            pid = s.get("player", s.get("id"))
            if isinstance(pid, int):
                out.append(pid)
        elif isinstance(s, int):
            out.append(s)
    return out


def _action(game, kind: ActionKind, player: int) -> Action:
    options = getattr(game, "options", None)
    amount = value = None
    if kind is ActionKind.BET:
        amount = max(2, int(getattr(options, "min_bet", 2)))
    elif kind is ActionKind.DRAW:
        amount = 0
    elif kind is ActionKind.CHOOSE_ACE:
        value = 1
    return Action(kind, player, amount=amount, value=value)


async def _one_move(svc: TableService, table) -> bool:
    game = table.game
    for kind in PREFERRED:
        for player in [s.player for s in game.public_view().seats]:
            if kind in game.legal_actions(player):
                try:
                    await svc.act(table.id, player, _action(game, kind, player))
                except IllegalAction:
                    continue
                return True
    if ActionKind.TIMEOUT in game.legal_actions(None):
        await svc.act(table.id, None, Action(ActionKind.TIMEOUT))
        return True
    return False


OPEN = [e for e in MANIFESTS["v0"] if not e.get("closed")]


@pytest.mark.parametrize(
    "index",
    range(len(OPEN)),
    ids=[f"{e['game']}-{e['options'] or 'std'}-{e['target']}" for e in OPEN],
)
async def test_an_old_table_restores_and_plays_on(restored, index: int) -> None:
    restored, manifest = restored
    entry = [e for e in manifest if not e.get("closed")][index]
    table = restored.get(entry["table"])
    assert table.game_key == GAMES.key(entry["game"])  # "classic" restores as "blackjack"
    assert table.version == entry["version"]
    assert table.game.phase.value == entry["phase"]
    old_view = entry["public_view"]
    assert [s.player for s in table.game.public_view().seats] == seated_players(old_view)
    assert getattr(table.game, "round", None) == entry["round"]
    if table.game.phase is Phase.LOBBY:
        return
    start_round = getattr(table.game, "round", None)
    for _ in range(60):
        if (
            table.game.phase in (Phase.BETWEEN_ROUNDS, Phase.FINISHED)
            or getattr(table.game, "round", None) != start_round
            or not table.is_open
        ):
            break
        assert await _one_move(restored, table), f"stuck in {table.game.phase}"
    else:
        pytest.fail("the restored round never ended")


async def test_the_closed_table_stays_closed(restored) -> None:
    restored, manifest = restored
    closed = [e["table"] for e in manifest if e.get("closed")]
    assert closed and all(t not in {x.id for x in restored.open_tables()} for t in closed)
