"""Provable fairness as a player sees it, in every game and whatever retires a deck.

A member reading the table's channel sees every public message posted there and every
state of the table message (the MESSAGE_CREATE / MESSAGE_UPDATE events a Discord client
receives; ephemeral answers never reach the channel). From that alone each scenario
collects every shuffle commitment shown and every seed revealed, and checks that:

- every commitment shown is followed, in a public post, by its seed;
- every revealed seed belongs to a commitment shown before it, and a seed is never shown
  before its reveal;
- ``python -m bot verify SEED COMMITMENT DECK`` (its ``main`` in-process) reports a match
  and the card order, for the deck the post names;
- a table state that shows a card shows, as the deck in use, a commitment that was already
  public before that state (a deck that replaces another mid-round was committed before).

Decks are the real seeded shuffles (no rigging: a rigged deck is not the committed one).
"""

from __future__ import annotations

import io
import re
from collections.abc import Awaitable, Callable
from contextlib import redirect_stdout
from dataclasses import dataclass
from typing import Any

import pytest

from bot.engine.base import ActionKind, Phase
from bot.engine.cards import build_deck
from bot.engine.verify import main as verify_main
from bot.i18n import t
from tests.card_markup import readable
from tests.e2e.helpers import Player, add_players, service, table_of, thread_of

HEX = re.compile(r"\b[0-9a-f]{64}\b")
# the reveal post (fairness.seed_revealed): seed, commitment, deck, in that order, then
# (fairness.seed_revealed.clients) the shoe's number and its client seeds, when it had some
REVEAL = re.compile(
    r"🔑[^`\n]*`([0-9a-f]{64})`[^`]*`([0-9a-f]{64})`[^`]*`([^`\s]+)`"
    r"(?:[^\n]*\n[^\n`#]*#(\d+)[^`\n]*`([^`]+)`)?"
)
CARD_MARKS = ("♠", "♥", "♦", "♣", "🃏")  # a card face as bot.ui.cards writes it
IDLE = 30 * 60 + 5  # a live table's idle timer, and a little more


# ------------------------------------------------------------------------- the channel


@dataclass
class Seen:
    """One thing a member saw in the channel: a new message or a new state of one."""

    message_id: int
    body: str  # content, title, description, fields
    footer: str


class Channel:
    """Records what a Discord client receives: every message created or edited."""

    def __init__(self, env: Any) -> None:
        self.env = env
        self.payloads: list[dict[str, Any]] = []
        env.backend.subscribers.append(self._on_event)

    def _on_event(self, name: str, payload: Any) -> None:
        if name in ("MESSAGE_CREATE", "MESSAGE_UPDATE"):
            self.payloads.append(dict(payload))

    def seen(self, channel_id: int) -> list[Seen]:
        """What a member of the channel saw, in order (ephemeral messages excluded)."""
        out = []
        for p in self.payloads:
            if int(p["channel_id"]) != channel_id or int(p.get("flags") or 0) & 64:
                continue
            body = [p.get("content") or ""]
            footer = []
            for embed in p.get("embeds") or []:
                body += [embed.get("title") or "", embed.get("description") or ""]
                body += [f"{f.get('name')}\n{f.get('value')}" for f in embed.get("fields") or []]
                footer.append((embed.get("footer") or {}).get("text") or "")
            text = readable(self.env, "\n".join(body)) or ""  # card emojis read as text
            out.append(Seen(int(p["id"]), text, "\n".join(footer)))
        return out


def verify_cli(
    seed: str, commitment: str, deck: str, shoe: str = "", clients: str = ""
) -> list[str]:
    """``python -m bot verify``: must report a match and print the whole card order (with
    the shoe's number and client seeds the reveal gave)."""
    out = io.StringIO()
    extra = ["--shoe", shoe, "--client-seeds", *clients.split()] if clients else []
    with redirect_stdout(out):
        code = verify_main([seed, commitment, deck, *extra])
    lines = out.getvalue().splitlines()
    size = len(build_deck(deck))
    assert code == 0 and lines[0] == f"verified: {size} cards", out.getvalue()
    order = lines[1].split()
    assert len(order) == size
    return order


def check_fairness(seen: list[Seen], table_message_id: int) -> list[list[str]]:
    """Every check of the module docstring; returns the card order of each deck, in the
    order their commitments were first shown."""
    first_seen: dict[str, int] = {}
    for i, s in enumerate(seen):
        for value in HEX.findall(s.body + "\n" + s.footer):
            first_seen.setdefault(value, i)
    # commitment -> (where, seed, deck, shoe, client seeds)
    reveals: dict[str, tuple[int, str, str, str, str]] = {}
    for i, s in enumerate(seen):
        if s.message_id == table_message_id:
            continue
        for seed, commitment, deck, shoe, clients in REVEAL.findall(s.body):
            assert commitment not in reveals, f"{commitment} revealed twice"
            reveals[commitment] = (i, seed, deck, shoe, clients)
    seeds = {r[1] for r in reveals.values()}
    shown = {value for value in first_seen if value not in seeds}
    assert shown, "no commitment was ever shown"
    unrevealed = shown - set(reveals)
    assert not unrevealed, f"commitments shown whose seed was never posted: {unrevealed}"
    orders = {}
    for commitment, (where, seed, deck, shoe, clients) in reveals.items():
        assert first_seen[commitment] < where, f"{commitment} revealed before it was shown"
        assert first_seen[seed] == where, f"seed {seed} shown before its reveal"
        orders[commitment] = verify_cli(seed, commitment, deck, shoe, clients)
    for i, s in enumerate(seen):
        if s.message_id != table_message_id or not any(m in s.body for m in CARD_MARKS):
            continue
        in_use = HEX.findall(s.footer)[:1]  # the first commitment line: the deck in use
        for commitment in in_use:
            assert first_seen[commitment] < i, (
                f"a card is on the table in the very state that first shows its deck's "
                f"commitment {commitment}:\n{s.body}"
            )
    return [orders[c] for c in sorted(orders, key=first_seen.__getitem__)]


# ------------------------------------------------------------------------- playing


@dataclass
class World:
    env: Any
    channel: Channel
    thread: Any
    table: Any
    players: list[Player]

    def seen(self) -> list[Seen]:
        return self.channel.seen(self.thread.id)

    def reveals(self) -> int:
        """Seeds revealed in the channel so far."""
        posts = [s for s in self.seen() if s.message_id != self.table.message_id]
        return sum(len(REVEAL.findall(s.body)) for s in posts)

    @property
    def game(self) -> Any:
        return self.table.game

    def open(self) -> bool:
        return service(self.env).table_in(self.thread.id) is not None

    async def slash(self, who: Player, command: str, **options: Any) -> Any:
        res = await who.member.slash(self.thread, command, **options)
        assert res.ephemeral, res.response.content  # a move is answered privately
        return res

    def player(self, user_id: int) -> Player:
        return next(p for p in self.players if p.id == user_id)

    async def idle_out(self) -> None:
        """Let the clock run until the table closes itself (its move timers, then its idle
        timer, or the game ends through the move timers)."""
        for _ in range(6):
            if not self.open():
                return
            await self.env.advance_time(IDLE)
        raise AssertionError("the table never timed out")


ACTIVE = (Phase.BETTING, Phase.INSURANCE, Phase.PLAYING, Phase.BANK)
# a move for each kind a player may have to make, cheapest first
MOVES: list[tuple[ActionKind, str, dict[str, Any]]] = [
    (ActionKind.CHOOSE_ACE, "ace", {"value": 1}),
    (ActionKind.NO_INSURANCE, "insurance", {"take": False}),
    (ActionKind.SHOW, "show", {}),
    (ActionKind.BET, "bet", {}),
    (ActionKind.DRAW, "draw", {"count": 0}),
    (ActionKind.STAND, "stand", {}),
]


def min_bet(world: World, player: int) -> int:
    game = world.game
    if hasattr(game, "bet_limits"):  # the base: Sept et demi in turn, up to half the stack
        return int(game.bet_limits(player)[0])
    return int(game.options.min_bet)


async def step(world: World) -> bool:
    """One move by the first player who has one to make; False when nobody has."""
    for p in world.players:
        legal = world.game.legal_actions(p.id)
        for kind, command, options in MOVES:
            if kind in legal:
                if kind is ActionKind.BET:
                    options = {"amount": min_bet(world, p.id)}
                await world.slash(p, command, **options)
                return True
    return False


async def play_round(world: World) -> None:
    """Start a round if none is in play, then play it to its end (everyone stands)."""
    game = world.game
    if game.phase in (Phase.LOBBY, Phase.BETWEEN_ROUNDS):
        await world.slash(world.players[0], "table start")
    number = game.round
    for _ in range(100):
        if not world.open() or game.round != number or game.phase not in ACTIVE:
            return
        assert await step(world), f"nobody can move in {game.phase}"
    raise AssertionError("the round never ended")


async def deal_a_round(world: World) -> None:
    """Start a round (unless one started by itself) and bet: cards are on the table."""
    game = world.game
    if game.phase in (Phase.LOBBY, Phase.BETWEEN_ROUNDS):
        await world.slash(world.players[0], "table start")
    for _ in range(20):
        if game.phase is not Phase.BETTING:
            return
        await step(world)


# ------------------------------------------------------------------------- scenarios


async def classic_shoe_change_then_close(world: World) -> None:
    """End of a shoe (penetration) reveals it while the table plays on; the host then
    closes the table mid-round."""
    for _ in range(20):
        await play_round(world)
        if world.reveals():
            break
    assert world.reveals() == 1 and world.open()
    await deal_a_round(world)
    assert world.game.phase is Phase.PLAYING
    await world.slash(world.players[0], "table close")


async def classic_runout_then_idle(world: World) -> None:
    """The shoe runs out during the deal: the spare (committed before) goes in; the round
    is played, then the table times out."""
    await world.slash(world.players[0], "table start")
    shoe = world.game.shoe
    shoe.pos = shoe.size - 3  # three cards left: the deal runs out (no card is changed)
    await play_round(world)
    assert world.game.shuffles == 2
    await world.idle_out()


async def classic_last_leave_then_idle(world: World) -> None:
    """Everyone leaves (the next round's bets are open): the table times out. The first
    round was dealt from the first shoe in the order ``verify`` prints."""
    await play_round(world)
    for p in world.players:
        await world.slash(p, "table leave")
    assert world.open() and not world.game.seats
    await world.idle_out()
    first_shoe = check_fairness(world.seen(), world.table.message_id)[0]
    (summary,) = [s.body for s in world.seen() if "results**" in s.body]
    alice, bob = world.players
    # dealt in turn: alice, bob, the dealer's up card, alice, bob, the hole card
    assert f"<@{alice.id}> {first_shoe[0]} {first_shoe[3]} " in summary, (first_shoe, summary)
    assert f"<@{bob.id}> {first_shoe[1]} {first_shoe[4]} " in summary
    assert f"Dealer: {first_shoe[2]} {first_shoe[5]} " in summary


async def casino21_rounds_then_close(world: World) -> None:
    """A deck per round, revealed at the end of each; the host closes mid-round."""
    await play_round(world)
    await play_round(world)
    assert world.reveals() == 2
    await deal_a_round(world)
    await world.slash(world.players[0], "table close")


async def casino21_kick_and_last_leave(world: World) -> None:
    """The host kicks the other player, then leaves: the empty table ends by itself."""
    host, other = world.players
    await play_round(world)
    await world.slash(host, "table kick", player=other.member)
    res = await host.member.slash(world.thread, "table leave")
    confirm = await host.member.click(res.response.message, label=t("move.leave_confirm", "en"))
    assert confirm.ephemeral
    assert not world.open()


async def casino21_timeouts_then_idle(world: World) -> None:
    """Bets placed, then nobody draws: the turn timers settle the round; the next round's
    bets time out (a void round); the table then times out."""
    await deal_a_round(world)
    for _ in range(10):
        if world.game.round == 2 and world.game.phase is Phase.BETWEEN_ROUNDS:
            break
        await world.env.advance_time(100)
    assert world.game.round == 2
    await world.idle_out()


async def sept_close_mid_round(world: World) -> None:
    await deal_a_round(world)
    assert world.game.phase is Phase.PLAYING
    await world.slash(world.players[0], "table close")


async def sept_idle_mid_round(world: World) -> None:
    await deal_a_round(world)
    assert world.game.phase is Phase.PLAYING
    await world.idle_out()


async def sept_timeouts(world: World) -> None:
    """Nobody moves: the timers play the rounds out, then the table times out."""
    await world.slash(world.players[0], "table start")
    await world.idle_out()


async def sept_vote_stop(world: World) -> None:
    """A majority votes to stop mid-round: the game ends after the round."""
    await deal_a_round(world)
    for p in world.players:
        await world.slash(p, "table vote-stop")
    await play_round(world)


async def sept_game_ends(world: World) -> None:
    """``rounds=1``: the game ends by itself after its round."""
    await play_round(world)


async def pirate_close_mid_game(world: World) -> None:
    await world.slash(world.players[0], "table start")
    await world.slash(world.player(world.game.to_act), "stand")
    await world.slash(world.players[0], "table close")


async def pirate_game_ends(world: World) -> None:
    """``treasure=1``: the game ends by itself when the treasure and the pot are empty."""
    await world.slash(world.players[0], "table start")
    for _ in range(50):
        if not world.open():
            return
        await world.slash(world.player(world.game.to_act), "stand")
    raise AssertionError("the game never ended")


async def pirate_timeouts(world: World) -> None:
    """Nobody moves: the turn timers stand for everyone until the game ends by itself."""
    await world.slash(world.players[0], "table start")
    await world.idle_out()
    assert world.game.end_reason == "treasure_empty"


async def pirate_shared_reshuffle(world: World) -> None:
    """Shared variant, a 12-card deck: round 3 deals the last cards, so the played ones are
    reshuffled into a new pile at once; a hit draws from it; the host then closes."""
    await world.slash(world.players[0], "table start")
    while world.game.round < 3:
        await world.slash(world.player(world.game.to_act), "stand")
    assert world.game.shuffles == 2 and world.game.cards_left > 0
    await world.slash(world.player(world.game.to_act), "hit")
    await world.slash(world.players[0], "table close")


Scenario = Callable[[World], Awaitable[None]]
SCENARIOS: list[tuple[str, str, Scenario]] = [
    ("blackjack", "decks=1 penetration=0.5", classic_shoe_change_then_close),
    ("blackjack", "decks=1", classic_runout_then_idle),
    ("blackjack", "", classic_last_leave_then_idle),
    ("casino21", "", casino21_rounds_then_close),
    ("casino21", "", casino21_kick_and_last_leave),
    ("casino21", "", casino21_timeouts_then_idle),
    ("sept_et_demi", "", sept_close_mid_round),
    ("sept_et_demi", "bet_seconds=7200 turn_seconds=7200", sept_idle_mid_round),
    ("sept_et_demi", "", sept_timeouts),
    ("sept_et_demi", "", sept_vote_stop),
    ("sept_et_demi", "rounds=1", sept_game_ends),
    ("pirate21", "", pirate_close_mid_game),
    ("pirate21", "treasure=1", pirate_game_ends),
    ("pirate21", "treasure=3", pirate_timeouts),
    ("pirate21", "variant=shared deck=12/0/0", pirate_shared_reshuffle),
]


@pytest.mark.parametrize(
    ("game", "options", "scenario"), SCENARIOS, ids=[f"{g}-{s.__name__}" for g, _, s in SCENARIOS]
)
async def test_every_commitment_shown_is_followed_by_its_seed(
    simcord_env: Any, game: str, options: str, scenario: Scenario
) -> None:
    env = simcord_env
    channel = Channel(env)
    guild = env.create_guild()
    lobby = guild.create_text_channel("casino")
    players = add_players(env, guild, "alice", "bob")
    kwargs: dict[str, Any] = {"game": game}
    if options:
        kwargs["options"] = options
    opened = await players[0].member.slash(lobby, "table open", **kwargs)
    assert opened.ephemeral, opened.response.content
    thread = thread_of(lobby)
    table = table_of(env, thread)
    world = World(env, channel, thread, table, players)
    await world.slash(players[1], "table join")
    await scenario(world)
    assert not world.open(), "the scenario ends with the table closed"
    check_fairness(world.seen(), table.message_id)
