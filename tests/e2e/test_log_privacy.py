"""The logs hold no private card, DM text, unrevealed seed or token, even at DEBUG
(issue 26 point 5), unless ``LOG_HTTP_BODIES=1`` asks for raw HTTP logs.

The bot runs on SimCord with discord.py's own REST and gateway code put back
(tests/e2e/wire.py), so discord.py writes what it would write on Discord: request and
response bodies, webhook URLs, gateway events. Logging is installed as ``python -m bot``
installs it (``bot.logs.setup_logging`` on the root logger, at DEBUG), writing into a
buffer from before the bot starts (the card pictures' upload included) to its shutdown.
A round of each game is played; then the whole log is searched for:

- every card that was hidden at some commit (engine state and players' private views
  minus the public view: Pirate 21's and Sept et demi's hidden cards, the Black Jack
  and Casino 21 hole cards), as text (``A♠``), as a card emoji (by name, any id) and as
  a quoted code (``'AS'``, a saved state); and any card at all, since no body is logged;
- every DM the players received (as stored, card emojis and all), by its fragments;
- every interaction token SimCord issued (``backend.interaction_tokens``), the bot token;
- every shuffle seed the engines held (their reveal is a message body: never logged).
"""

from __future__ import annotations

import io
import re
from collections.abc import Iterator
from typing import Any

import pytest

from bot.app import create_bot
from bot.discord.card_emojis import key_of
from bot.engine.base import Visibility
from bot.engine.shuffle import seeded_entropy
from bot.logs import setup_logging
from bot.ui.cards import card_text
from tests.card_markup import MARKUP, CardsIn
from tests.e2e import wire
from tests.e2e.conftest import card_codes
from tests.e2e.helpers import Player, add_players, service, table_message, table_of, thread_of

BOT_TOKEN = "simcord.fake.token"  # what SimCord logs the bot in with (checked below)
HEX_SEED = re.compile(r"^[0-9a-f]{64}$")
CARD_TEXT = re.compile(r"(?:10|[2-9AJQK])[♠♥♦♣]")


@pytest.fixture
def http_bodies() -> bool:
    """``LOG_HTTP_BODIES``: off unless a test parametrizes it."""
    return False


@pytest.fixture
def captured_log(http_bodies: bool, fresh_logging: None) -> Iterator[io.StringIO]:
    """Everything logged, installed as ``python -m bot`` does it, at DEBUG."""
    buffer = io.StringIO()
    undo = setup_logging("DEBUG", http_bodies=http_bodies, secrets=[BOT_TOKEN], stream=buffer)
    yield buffer
    undo()


@pytest.fixture
def simcord_bot(db_path: str, monkeypatch: pytest.MonkeyPatch, captured_log: io.StringIO) -> Any:
    """The real bot, over discord.py's own transport code, logging from its first line."""
    wire.install(monkeypatch)
    return create_bot(database_path=db_path, entropy=seeded_entropy("logs"))


class Secrets:
    """What each commit held hidden: cards and seeds (a TableService observer)."""

    def __init__(self) -> None:
        self.cards: set[str] = set()
        self.seeds: set[str] = set()
        self.commits = 0

    def observe(self, table: Any, outcome: Any) -> None:
        self.commits += 1
        game = table.game
        state = game.to_dict()
        hidden = set(card_codes(state))
        for player in game.seated():
            hidden |= set(card_codes(game.private_view(player)))
        for event in outcome.events:
            if event.visibility is not Visibility.PUBLIC:
                hidden |= set(card_codes(dict(event.data)))
        self.cards |= hidden - set(card_codes(game.public_view()))
        self.seeds |= {s for s in strings(state) if HEX_SEED.match(s)}


def strings(value: Any) -> Iterator[str]:
    """Every string in a JSON-able value."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for item in value.values():
            yield from strings(item)
    elif isinstance(value, (list, tuple)):
        for item in value:
            yield from strings(item)


def watch(env: Any) -> Secrets:
    secrets = Secrets()
    service(env).observers.append(secrets.observe)
    return secrets


def dm_texts(env: Any, players: list[Player]) -> list[str]:
    """Every DM the bot sent these players, as stored (card emojis as markup)."""
    out = []
    for p in players:
        channel = p.user.dm_channel
        if channel is not None:
            store = env.backend.messages.get(channel.id, {})
            out += [m.content for m in store.values() if m.content]
    return out


def leaks(env: Any, log: str, secrets: Secrets, players: list[Player]) -> list[str]:
    """Every secret the log holds, described."""
    found = []
    seen = CardsIn(log)
    for code in sorted(secrets.cards):
        quoted = re.search(rf"""["']{code}["']""", log)
        if seen.count(code) or quoted:
            found.append(f"hidden card {card_text(code)} ({code})")
    found += [f"a card: {m}" for m in sorted(set(CARD_TEXT.findall(log)))]
    emojis = {m[0] for m in MARKUP.finditer(log) if key_of(m[2])}
    found += [f"a card emoji: {e}" for e in sorted(emojis)]
    for text in dm_texts(env, players):
        for part in re.split(r"[\"'\\\n]", text):
            if len(part) >= 12 and part in log:
                found.append(f"DM text {part!r}")
    found += [f"interaction token {t}" for t in env.backend.interaction_tokens if t in log]
    found += [f"seed {s}" for s in secrets.seeds if s in log]
    if BOT_TOKEN in log:
        found.append("the bot token")
    return found


def check(env: Any, log: str, secrets: Secrets, players: list[Player], cards: set[str]) -> None:
    """The log leaks nothing, and the search was not blind."""
    assert env.bot.http.token == BOT_TOKEN
    assert cards <= secrets.cards, f"not seen hidden: {cards - secrets.cards}"
    assert secrets.seeds and len(env.backend.interaction_tokens) >= 8
    # discord.py did write its lines: requests, webhook calls, gateway events
    for line in ("discord.http: POST", "discord.webhook.async_: Webhook ID", "WebSocket Event"):
        assert line in log, line
    found = leaks(env, log, secrets, players)
    assert not found, "the log holds:\n" + "\n".join(found)


async def start(env: Any, game: str, joins: int = 2) -> tuple[Any, Any, list[Player], Secrets]:
    """A guild, three players, a table of ``game`` with all seated, secrets watched."""
    guild = env.create_guild()
    lobby = guild.create_text_channel("casino")
    players = add_players(env, guild, "alice", "bob", "carol")
    await players[0].member.slash(lobby, "table open", game=game)
    thread = thread_of(lobby)
    table = table_of(env, thread)
    for p in players[1 : 1 + joins]:
        res = await p.member.slash(thread, "table join")
        assert res.ephemeral, res.response.content
    return thread, table, players, watch(env)


async def click(p: Player, thread: Any, table: Any, label: str) -> Any:
    return await p.member.click(table_message(thread, table), label=label)


async def test_black_jack_round_logs_no_hole_card_nor_token(simcord_env, captured_log):
    env = simcord_env
    thread, table, players, secrets = await start(env, "blackjack")
    alice, bob, carol = players
    # alice A♠ K♥, bob 10♥ Q♠, carol 9♣ 5♦, the dealer 10♦ + hole K♣; carol hits 8♠
    table.game.rig(["AS", "TH", "9C", "TD", "KH", "QS", "5D", "KC", "8S"])
    await click(alice, thread, table, "Start")
    await click(alice, thread, table, "Bet 10")
    await click(bob, thread, table, "Bet 20")
    assert (await carol.member.slash(thread, "bet", amount=10)).ephemeral
    await click(bob, thread, table, "Stand")
    await click(carol, thread, table, "Hit")  # bust: the round is settled
    assert any("results" in m.content for m in thread.history())
    check(env, captured_log.getvalue(), secrets, players, {"KC"})


async def test_casino21_round_logs_no_hole_card_nor_token(simcord_env, captured_log):
    env = simcord_env
    thread, table, players, secrets = await start(env, "casino21")
    alice, bob, carol = players
    # alice 10♠ 9♥, bob 5♣ 10♦, carol A♠ 7♥, the bank 6♦ + hole K♣; bob draws 7♦ 5♠
    table.game.rig(["TS", "9H", "5C", "TD", "AS", "7H", "6D", "KC", "7D", "5S", "8C"])
    await click(alice, thread, table, "Start")
    await click(alice, thread, table, "Bet 10")
    await click(bob, thread, table, "Bet 10")
    shown = await click(carol, thread, table, "Other amount…")
    field = shown.modal["components"][0]["components"][0]["custom_id"]
    await carol.member.submit_modal(shown, {field: "15"})
    await click(carol, thread, table, "Ace = 11")
    await click(alice, thread, table, "Stand (0)")
    assert (await bob.member.slash(thread, "draw", count=2)).ephemeral
    await click(carol, thread, table, "Stand (0)")
    assert any("results**" in (m.content or "") for m in thread.history())
    check(env, captured_log.getvalue(), secrets, players, {"KC"})


async def test_pirate21_round_logs_no_hidden_card_dm_nor_token(simcord_env, captured_log):
    env = simcord_env
    thread, table, players, secrets = await start(env, "pirate21", joins=0)
    alice, bob, carol = players
    for p in (bob, carol):
        await click(p, thread, table, "Join")
    # seat order bob, carol, alice: bob 10♠ 9♥, carol 5♣ 7♦ (+K♣: bust), alice 8♠ 8♦
    table.game.rig(["TS", "5C", "8S", "9H", "7D", "8D", "KC", "2H", "3C"], only=True)
    await click(alice, thread, table, "Start")
    await click(bob, thread, table, "Stand")
    await click(carol, thread, table, "Hit")
    mine = await click(carol, thread, table, "My cards")
    assert mine.ephemeral and "5♣" in mine.response.content
    await click(carol, thread, table, "Stand")
    await click(alice, thread, table, "Stand")
    assert any("Round 1 — showdown" in m.content for m in thread.history())
    assert dm_texts(env, players)
    check(env, captured_log.getvalue(), secrets, players, {"TS", "9H", "5C", "7D", "8S", "8D"})


async def test_sept_et_demi_round_logs_no_hidden_card_dm_nor_token(simcord_env, captured_log):
    env = simcord_env
    thread, table, players, secrets = await start(env, "sept_et_demi")
    alice, bob, carol = players
    # bob 3♠, carol 5♥, the bank 4♦; bob draws 2♣ (hides it) then K♥, carol 2♦, bank 2♥
    table.game.rig(["3S", "5H", "4D", "2C", "KH", "2D", "2H"])
    await click(alice, thread, table, "Start")
    await click(bob, thread, table, "Bet 25")
    assert (await carol.member.slash(thread, "bet", amount=30)).ephemeral
    await click(bob, thread, table, "Hit")
    await click(bob, thread, table, "Hide it (show the other)")
    hand = await bob.member.slash(thread, "hand")
    assert hand.ephemeral and "2♣" in hand.response.content
    await click(bob, thread, table, "Hit")
    await click(bob, thread, table, "Show it")
    await click(bob, thread, table, "Stand")
    assert (await carol.member.slash(thread, "hit")).ephemeral
    assert (await carol.member.slash(thread, "show")).ephemeral
    assert (await carol.member.slash(thread, "stand")).ephemeral
    await click(alice, thread, table, "Hit")
    await click(alice, thread, table, "Stand")
    assert any("results**" in m.content for m in thread.history())
    check(env, captured_log.getvalue(), secrets, players, {"3S", "5H", "4D", "2C"})


@pytest.mark.parametrize("http_bodies", [True])
async def test_log_http_bodies_writes_the_raw_bodies_and_tokens(simcord_env, captured_log):
    """The switch is real: with it, the DMs' hidden cards and the interaction tokens are
    in the log (what the README warns about); the bot token still is not."""
    env = simcord_env
    thread, table, players, secrets = await start(env, "sept_et_demi")
    table.game.rig(["3S", "5H", "4D"])
    await click(players[0], thread, table, "Start")
    log = captured_log.getvalue()
    assert "LOG_HTTP_BODIES=1" in log.splitlines()[0]  # the warning comes first
    found = leaks(env, log, secrets, players)
    for what in ("hidden card 3♠ (3S)", "hidden card 5♥ (5H)", "interaction token"):
        assert any(f.startswith(what) for f in found), (what, found)
    assert any(f.startswith("DM text") for f in found), found
    assert "the bot token" not in found
