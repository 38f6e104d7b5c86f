"""TableEdits: one REST edit in flight per table, the ones asked for meanwhile merged."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from typing import Any

from bot.discord.edits import TableEdits


@dataclass
class FakeTable:
    id: int
    version: int = 1


class SlowDiscord:
    """An edit 'lands' only when the test releases it; records what each edit showed."""

    def __init__(self, result: bool = True) -> None:
        self.sent: list[tuple[int, int, str | None]] = []  # (table, version shown, note)
        self.gates: list[asyncio.Event] = []
        self.result = result

    async def send(self, table: Any, note: str | None) -> bool:
        gate = asyncio.Event()
        self.gates.append(gate)
        await gate.wait()
        self.sent.append((table.id, table.version, note))  # rendered as it lands
        return self.result

    async def release(self) -> None:
        """Let every edit in flight land, and the loop run what follows."""
        for gate in self.gates:
            gate.set()
        for _ in range(5):
            await asyncio.sleep(0)


async def one_edit_in_flight() -> tuple[SlowDiscord, TableEdits, FakeTable, asyncio.Future[Any]]:
    """A TableEdits whose first edit of table 1 has gone out and not landed yet."""
    discord = SlowDiscord()
    edits = TableEdits(discord.send)
    table = FakeTable(1)
    first = asyncio.ensure_future(edits.request(table))
    await asyncio.sleep(0)
    return discord, edits, table, first


async def test_a_lone_edit_goes_out_at_once_and_returns_its_result():
    discord = SlowDiscord(result=False)
    edits = TableEdits(discord.send)
    table = FakeTable(1)
    first = asyncio.ensure_future(edits.request(table, "back"))
    await asyncio.sleep(0)
    assert edits.in_flight(1) and len(discord.gates) == 1
    await discord.release()
    assert await first is False  # the failure reaches the caller (its reply says so)
    assert discord.sent == [(1, 1, "back")]
    assert not edits.in_flight(1)


async def test_edits_asked_meanwhile_go_out_as_one_with_the_latest_state():
    discord = SlowDiscord()
    edits = TableEdits(discord.send)
    table, other = FakeTable(1), FakeTable(2)
    first = asyncio.ensure_future(edits.request(table))
    await asyncio.sleep(0)
    for version in (2, 3, 4):
        table.version = version
        assert await edits.request(table, "note" if version == 3 else None) is None
    assert await asyncio.wait_for(_released(discord, edits.request(other)), 1) is True
    await discord.release()  # the first lands: the merged one goes out
    assert await first is True
    assert edits.in_flight(1) and len(discord.gates) == 3
    table.version = 5
    await discord.release()
    assert discord.sent == [(2, 1, None), (1, 4, None), (1, 5, "note")]
    assert not edits.in_flight(1) and not edits.in_flight(2)


async def _released(discord: SlowDiscord, request: Any) -> Any:
    """Run a request whose edit lands at once (another table: not held by table 1)."""
    task = asyncio.ensure_future(request)
    await asyncio.sleep(0)
    discord.gates[-1].set()
    return await task


async def test_an_interaction_edit_beside_a_rest_edit_is_shown_again_after_it():
    discord, edits, table, first = await one_edit_in_flight()
    table.version = 2
    edits.shown_by_interaction(table)  # a button move answered with v2 meanwhile
    await discord.release()
    await first
    await discord.release()
    # the REST edit (v2 when it landed, but it may be the older render at Discord) is
    # followed by one more, so the message ends on the latest state whatever the order
    assert [v for _, v, _ in discord.sent] == [2, 2]
    edits.shown_by_interaction(table)  # nothing in flight: nothing to do
    await discord.release()
    assert len(discord.sent) == 2 and not edits.in_flight(1)


async def test_close_drops_the_merged_edits():
    discord, edits, table, first = await one_edit_in_flight()
    assert await edits.request(table) is None
    discord.gates[0].set()
    await first
    edits.close()  # the follow-up was started: it is cancelled before it lands
    await discord.release()
    assert discord.sent == [(1, 1, None)]


async def test_pending_is_set_once_the_edit_in_flight_and_those_merged_have_landed():
    discord, edits, table, first = await one_edit_in_flight()
    assert edits.pending(2) is None  # nothing in flight for another table
    landed = edits.pending(1)
    assert landed is not None and not landed.is_set()
    merged = asyncio.ensure_future(edits.request(table))  # asked for meanwhile
    await asyncio.sleep(0)
    await discord.release()  # the first lands; the merged one goes out
    assert await first is True and await merged is None
    assert not landed.is_set()  # the merged edit is still in flight
    await discord.release()
    assert landed.is_set() and not edits.in_flight(1)
    assert discord.sent == [(1, 1, None), (1, 1, None)]
