"""Shared helpers for end-to-end tests: a table world, finding tables, leak scans."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import discord

from bot.engine.cards import Card
from bot.i18n import t
from bot.tables import Table, TableService
from tests.card_markup import CardsIn


@dataclass
class Player:
    """A test player: the user handle (owns the DMs) and the member actor (acts)."""

    user: Any
    member: Any

    @property
    def id(self) -> int:
        return int(self.member.id)

    def dms(self) -> list[discord.Message]:
        """The DMs the bot sent this player."""
        channel = self.user.dm_channel
        return [] if channel is None else list(channel.history())


def add_players(env: Any, guild: Any, *names: str) -> list[Player]:
    """Create users and add them to the guild."""
    out = []
    for name in names:
        user = env.create_user(name)
        out.append(Player(user, guild.add_member(user)))
    return out


def answer_text(res: Any) -> str:
    """What an interaction's user alone read in its ephemeral follow-ups (their own
    private cards come there, not by DM)."""
    return "\n".join(m.content for m in res.followups if m.ephemeral)


def private_texts(p: Player, channel: Any) -> list[str]:
    """What the bot told ``p`` alone of their cards at the table of ``channel``, oldest
    first: their DMs and the ephemeral follow-ups of their own interactions there (the
    private cards of a move of theirs come there, not by DM, without the table's link:
    they are under the table)."""
    interactions = channel._env.backend.interactions.values()  # SimCord's own record
    followups = {i for record in interactions for i in record.followup_ids}
    answers = [
        m for m in channel.history(viewer=p.member) if m.flags.ephemeral and m.id in followups
    ]
    return [m.content for m in sorted([*p.dms(), *answers], key=lambda m: m.id)]


def service(env: Any) -> TableService:
    """The running bot's table service."""
    return env.bot.tables


def table_of(env: Any, channel: Any) -> Table:
    """The open table living in a channel or thread handle."""
    table = service(env).table_in(channel.id)
    assert table is not None, "no open table there"
    return table


def thread_of(channel: Any) -> Any:
    """The newest thread under a channel handle."""
    threads = channel.threads
    assert threads, "no thread was created"
    return threads[-1]


def table_message(channel: Any, table: Table) -> discord.Message:
    """The table message as the channel shows it now."""
    for message in channel.history():
        if message.id == table.message_id:
            return message
    raise AssertionError("table message not found")


def embed_text(message: discord.Message) -> str:
    """All the text of a message: content, embed title, description, fields, footer."""
    parts = [message.content or ""]
    for embed in message.embeds:
        parts += [embed.title or "", embed.description or ""]
        parts += [f"{f.name}\n{f.value}" for f in embed.fields]
        parts.append(embed.footer.text or "")
    return "\n".join(parts)


def card_texts(codes: list[str]) -> list[str]:
    """Codes as the bot writes them (``AS`` -> ``A♠``)."""
    return [str(Card.parse(c)) for c in codes]


def public_texts(channel: Any) -> list[str]:
    """Every public message of a channel as text."""
    return [embed_text(m) for m in channel.history()]


def ping_requests(env: Any, channel_id: int, start: int) -> list[dict[str, Any]]:
    """Bot messages posted in the channel since ``start`` (an index into
    ``env.http_requests``) that ping someone: their content and the users pinged."""
    out = []
    for r in env.http_requests[start:]:
        if r.method == "POST" and r.path == f"/channels/{channel_id}/messages":
            users = ((r.json or {}).get("allowed_mentions") or {}).get("users") or []
            if users:
                out.append({"content": r.json.get("content"), "users": sorted(map(int, users))})
    return out


def assert_never_public(channel: Any, codes: list[str]) -> None:
    """Fail if any of these cards appears in a public message of the channel, written as
    text or as a card emoji (tests/card_markup.py)."""
    for text in public_texts(channel):
        seen = CardsIn(text)
        for code in codes:
            assert not seen.count(code), f"private card {code} shown publicly:\n{text}"


async def classic_table(
    env: Any, *names: str, options: str | None = None, buy_in: int = 100
) -> tuple[Any, Any, Any, Any, list[Player]]:
    """A guild, a lobby, players (the first hosts and is seated), the others seated too."""
    guild = env.create_guild()
    lobby = guild.create_text_channel("casino")
    players = add_players(env, guild, *names)
    kwargs: dict[str, Any] = {"game": "blackjack"}
    if options:
        kwargs["options"] = options
    await players[0].member.slash(lobby, "table open", **kwargs)
    thread = thread_of(lobby)
    table = table_of(env, thread)
    for p in players[1:]:
        res = await p.member.slash(thread, "table join", buy_in=buy_in)
        assert res.ephemeral and res.response.content == t("move.done.join", "en")
    return guild, lobby, thread, table, players


async def open_anyway(member: Any, channel: Any, **kwargs: Any) -> Any:
    """``/table open`` by a host who may have a table open already: the question that
    asks first is answered "Open anyway" (the result is then that click's)."""
    res = await member.slash(channel, "table open", **kwargs)
    message = res.response.message if res.response is not None else None
    go = t("table.second.open", "en")
    if message is not None and any(
        c.label == go for row in message.components for c in row.children
    ):
        return await member.click(message, label=go)
    return res
