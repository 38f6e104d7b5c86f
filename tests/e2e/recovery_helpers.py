"""Helpers for the crash/restart/outage tests: buttons by move, fresh renders, restarts."""

from __future__ import annotations

from typing import Any

import discord

from bot.app import create_bot
from bot.discord.publisher import render
from bot.engine.base import ActionKind, Phase
from bot.engine.shuffle import seeded_entropy
from bot.tables import Table
from tests.bank.ledger import table_escrow
from tests.card_markup import readable_embed
from tests.e2e.helpers import embed_text, service, table_message


def move_buttons(message: discord.Message) -> dict[str, str]:
    """custom_id by ``move`` (``move:arg`` for buttons with an argument) on a message."""
    out: dict[str, str] = {}
    for row in message.components:
        for child in getattr(row, "children", [row]):
            cid = getattr(child, "custom_id", None) or ""
            parts = cid.split(":")
            if len(parts) >= 4 and parts[0] == "cr":
                key = parts[3] if len(parts) == 4 else f"{parts[3]}:{parts[4]}"
                out[key] = cid
    return out


async def click_move(member: Any, message: discord.Message, move: str) -> Any:
    """Click the button of ``move`` (``"bet:10"``, ``"ace:11"``...) on a table message."""
    buttons = move_buttons(message)
    assert move in buttons, f"no {move!r} button; buttons: {sorted(buttons)}"
    return await member.click(message, custom_id=buttons[move])


def fresh_render(env: Any, table: Table) -> tuple[dict[str, Any], list[str]]:
    """The embed dict and button custom_ids a fresh render of the committed state gives,
    with the latest changes the publisher keeps for the table (its cards as text, as
    tests read the messages: tests/card_markup.py)."""
    embed, view = render(table, news=env.bot.publisher.news.get(table.id))
    ids = [] if view is None else view.custom_ids
    return readable_embed(env, embed.to_dict()), ids


def shown(message: discord.Message) -> tuple[dict[str, Any], list[str]]:
    """What a table message shows: its embed dict and its button custom_ids."""
    embed = message.embeds[0].to_dict() if message.embeds else {}
    ids = [
        getattr(c, "custom_id", None) or ""
        for row in message.components
        for c in getattr(row, "children", [row])
    ]
    return embed, ids


async def restart(env: Any, db_path: str, label: str = "e2e") -> None:
    """A new bot process on the same database (the virtual Discord stays)."""
    await env.restart_bot(create_bot(database_path=db_path, entropy=seeded_entropy(label)))


def stacks(table: Table) -> dict[int, int]:
    """Each seated player's stack as the game's public view shows it (money games)."""
    if not table.game.MONEY:  # a game's points, not money
        return {}
    return {s.player: s.stack for s in table.game.public_view().seats}


async def escrow_seats(bank: Any, table: Table) -> dict[int, int]:
    """The bank's seat escrows of a table, by player (zero seats left out)."""
    escrow = await table_escrow(bank.db, table.guild_id, table.id)
    return {int(k.split(":", 1)[1]): v for k, v in escrow.items() if k.startswith("seat:") and v}


# the move a driver clicks for a player, by preference: (button key prefix, action kind)
PREFERENCES = [
    ("ace:11", ActionKind.CHOOSE_ACE),
    ("show", ActionKind.SHOW),
    ("no_insurance", ActionKind.NO_INSURANCE),
    ("stand", ActionKind.STAND),
    ("draw:0", ActionKind.DRAW),
    ("bet:", ActionKind.BET),
]


async def play_round(env: Any, thread: Any, players: list[Any], table: Table) -> None:
    """Click sensible moves until the round is settled (or the game is over)."""
    start_round = table.game.round  # type: ignore[attr-defined]
    for _ in range(60):
        current = service(env).table_in(thread.id)
        if current is None or current.game.round != start_round:  # type: ignore[attr-defined]
            return
        if current.game.phase in (Phase.BETWEEN_ROUNDS, Phase.FINISHED, Phase.LOBBY):
            return
        message = table_message(thread, current)
        buttons = move_buttons(message)
        for player in players:
            legal = current.game.legal_actions(player.id)
            choice = next(
                (
                    key
                    for prefix, kind in PREFERENCES
                    if kind in legal
                    for key in sorted(buttons, key=lambda k: (len(k), k))
                    if key.startswith(prefix)
                ),
                None,
            )
            if choice is not None:
                version = current.version
                res = await click_move(player.member, message, choice)
                assert current.version > version, res.response and res.response.content
                break
        else:
            raise AssertionError(f"nobody can move: {embed_text(message)}")
    raise AssertionError("the round never ended")
