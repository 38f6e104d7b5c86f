"""One full round of each game, everyone in one language, and every text the bot sent.

Three players and an admin choose the language (``/language``); the host opens the table,
so the table speaks it too; the admin sets the bank channel up in it. A round is played
through the table's buttons (a bet through the "Other amount" modal, a slash command, an
insurance, an ace's value, a card shown and one hidden, a bust...), then the other paths:
``/hand`` and "My cards", a refusal, ``/table status``, ``/rules``, ``/about``, the
options' autocomplete, a leave, the close and its posts, ``/bank claim`` and its receipt
in the bank channel.

The texts are read from every REST request the bot made (SimCord records them): messages
posted or edited (each state of the table message), DMs, interaction answers, ephemeral
follow-ups, button labels, modal titles and labels, autocomplete choices. None of them may
hold a word of the other language (``tests/i18n/language.py``), a ``{placeholder}`` or a
raw catalog key.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterator
from typing import Any

import discord
import pytest

from bot.engine.base import ActionKind, Phase
from bot.tables import Table
from tests.e2e.helpers import Player, add_players, table_message, table_of, thread_of
from tests.i18n.language import foreign_words

GAMES = ("blackjack", "casino21", "pirate21", "sept_et_demi")
LOCALES = ("fr", "en")
BUTTON = re.compile(r"cr:\d+:\d+:(?P<move>[a-z_]+)(?::(?P<arg>-?\d+))?")
KEY = re.compile(r"[a-z_]+(\.[a-z0-9_]+)+")  # a whole text that is a catalog key
FRENCH_SPACING = re.compile(r"\S[ \u00a0][:;!](?!\S)|\w[ \u00a0]\?")  # "x :" in English
TEXT_FIELDS = {"content", "title", "description", "name", "value", "text", "label"}
ASIDE = {ActionKind.JOIN, ActionKind.LEAVE, ActionKind.TOP_UP, ActionKind.VOTE_STOP}

#: cards dealt first (each engine's test hook), so the round goes through its special
#: paths: a soft hand and an insurance (Black Jack), an ace to value (Casino 21), a bust
#: told by DM (Pirate 21); Sept et demi deals what its seeded shuffle gives.
RIGS: dict[str, tuple[str, list[str]]] = {
    # alice A♠ 6♥ (soft 17), bob 10♥ 10♠, carol 9♣ 5♦, the dealer A♦ and a 5 face down
    "blackjack": ("rig", ["AS", "TH", "9C", "AD", "6H", "TS", "5D", "5C", "8S", "2C", "7H", "3C"]),
    # alice A♠ K♦ (her ace: 1 or 11), bob 5♣ 4♦, carol 9♣ 7♦, the bank 9♥ 8♣
    "casino21": ("rig", ["AS", "KD", "5C", "4D", "9C", "7D", "9H", "8C", "3S", "2H"]),
    # bob's hit (K♣) takes him over 21: his DM says so, nobody else can tell
    "pirate21": ("rig", ["TS", "5C", "8S", "9H", "7D", "8D", "KC", "2H"]),
}
PIRATE_DECK = [r + s for s in "SHDC" for r in "A23456789TJQK"] + ["XS", "XH"]


def rigged(game: str) -> list[str]:
    """The cards to deal first; Pirate 21's rigged pile is the whole pile: the rest follows."""
    codes = RIGS[game][1]
    return codes + [c for c in PIRATE_DECK if c not in codes] if game == "pirate21" else codes


def admin_of(env: Any, guild: Any) -> Player:
    role = guild.create_role("admin", permissions=discord.Permissions(manage_guild=True))
    user = env.create_user("boss")
    return Player(user, guild.add_member(user, roles=[role]))


def texts_of(value: Any, key: str | None = None) -> Iterator[str]:
    """The strings a person reads in a request's JSON (content, embeds, labels...)."""
    if isinstance(value, dict):
        for k, v in value.items():
            yield from texts_of(v, k)
    elif isinstance(value, list):
        for item in value:
            yield from texts_of(item, key)
    elif isinstance(value, str) and key in TEXT_FIELDS and value.strip():
        yield value


def place(r: Any, dms: set[int], table_message_id: int, bank_channel: int) -> str:
    """Where a request's text goes: a DM, the table message, the bank channel, a post, an
    interaction's answer (a modal, autocomplete choices) or a follow-up."""
    path = re.sub(r"\d+", "N", r.path)
    ids = [int(n) for n in re.findall(r"\d+", r.path)]
    if path.endswith("/callback"):
        kind = r.json.get("type")
        return {7: "table message", 8: "autocomplete", 9: "modal"}.get(kind, "answer")
    if path.startswith("/webhooks"):
        return "follow-up"
    if ids and ids[0] in dms:
        return "dm"
    if ids and ids[0] == bank_channel:
        return "bank channel"
    if r.method == "PATCH" and ids[-1:] == [table_message_id]:
        return "table message"
    return "post"


def sent(env: Any, start: int, **where: Any) -> list[tuple[str, str]]:
    """(where, text) for every text in the bot's REST requests since ``start``, except the
    command sync (both languages by design) and the card pictures' names."""
    out = []
    for r in env.http_requests[start:]:
        if r.json is None or r.path.endswith("/commands") or "/emojis" in r.path:
            continue
        if r.method == "POST" and r.path.endswith("/threads"):
            continue  # a thread's name is the table's name
        out += [(place(r, **where), text) for text in texts_of(r.json)]
    return out


class Round:
    """Plays one round through the table message's buttons, one move at a time."""

    def __init__(self, env: Any, thread: Any, table: Table, players: list[Player]) -> None:
        self.env, self.thread, self.table, self.players = env, thread, table, players
        self.moves: Counter[tuple[int, str]] = Counter()
        self.modal_used = False

    def buttons(self) -> list[tuple[str, int | None, str]]:
        """(move, arg, custom_id) of the table message's buttons."""
        out = []
        for row in table_message(self.thread, self.table).components:
            for button in row.children:
                found = BUTTON.fullmatch(getattr(button, "custom_id", "") or "")
                if found:
                    arg = found["arg"]
                    out.append((found["move"], None if arg is None else int(arg), found[0]))
        return out

    def choose(self, p: Player, kinds: set[ActionKind]) -> tuple[str, int | None] | None:
        """A move for ``p`` among the legal ones: each path once, then the plain one."""
        done = self.moves
        if ActionKind.CHOOSE_ACE in kinds:
            return "ace", 11
        if ActionKind.INSURANCE in kinds:
            return ("insurance" if not done[(0, "insurance")] else "no_insurance"), None
        if ActionKind.SWAP in kinds:
            return ("swap" if not done[(0, "swap")] else "show"), None
        if ActionKind.BET in kinds:
            return "bet", None
        if ActionKind.DRAW in kinds:
            return "draw", (0 if done[(p.id, "draw")] else 1)
        if ActionKind.HIT in kinds:
            return ("stand" if done[(p.id, "hit")] else "hit"), None
        return None

    async def move(self, p: Player, move: str, arg: int | None) -> None:
        """Play ``move``: the first bet through the modal, the second by slash command."""
        modal = any(m == "bet_modal" for m, *_ in self.buttons())
        if move == "bet" and not self.modal_used and modal:
            self.modal_used = True  # "Other amount…": a modal, then the typed amount
            shown = await self.click(p, "bet_modal", None)
            field = shown.modal["components"][0]["components"][0]["custom_id"]
            low = min(a for m, a, _ in self.buttons() if m == "bet" and a is not None)
            await p.member.submit_modal(shown, {field: str(low)})
        elif move == "bet" and not self.moves[(0, "slash_bet")]:
            low = min(a for m, a, _ in self.buttons() if m == "bet" and a is not None)
            await p.member.slash(self.thread, "bet", amount=low)
            self.moves[(0, "slash_bet")] += 1
        else:
            await self.click(p, move, arg)
        self.moves[(p.id, move)] += 1
        self.moves[(0, move)] += 1

    async def click(self, p: Player, move: str, arg: int | None) -> Any:
        choices = [(a, cid) for m, a, cid in self.buttons() if m == move]
        assert choices, f"no {move} button for {p.member}"
        exact = [cid for a, cid in choices if a == arg]
        cid = exact[0] if exact else choices[0][1]
        message = table_message(self.thread, self.table)
        return await p.member.click(message, custom_id=cid)

    async def play(self) -> None:
        """Move until the round is settled (a new round, or between rounds, or the end)."""
        game = self.table.game
        first = game.public_view().round
        for _ in range(60):
            if game.phase in (Phase.BETWEEN_ROUNDS, Phase.FINISHED) or (
                game.public_view().round != first and game.phase is not Phase.LOBBY
            ):
                return
            chosen = None
            for p in self.players:
                kinds = set(game.legal_actions(p.id)) - ASIDE - {ActionKind.END_TURN}
                move = self.choose(p, kinds)
                if move is not None:
                    chosen = (p, *move)
                    break
            if chosen is None:  # Casino 21: everyone moved, the host ends the turn
                host = self.players[0]
                assert ActionKind.END_TURN in game.legal_actions(host.id), game.phase
                chosen = (host, "end_turn", None)
            await self.move(*chosen)
            game = self.table.game
        raise AssertionError("the round did not end")


async def play_everything(
    env: Any, game: str, locale: str
) -> tuple[list[tuple[str, str]], Counter[str]]:
    """Play a round of ``game`` with everyone in ``locale``; every text the bot sent."""
    guild = env.create_guild()
    lobby = guild.create_text_channel("casino")
    bank_channel = guild.create_text_channel("bank")
    alice, bob, carol = add_players(env, guild, "alice", "bob", "carol")
    boss = admin_of(env, guild)
    for p in (alice, bob, carol, boss):
        await p.member.slash(lobby, "language", language=locale)
    start = len(env.http_requests)
    await boss.member.slash(lobby, "bank setup", channel=bank_channel)
    await alice.member.autocomplete(lobby, "table open", "options", "dec", game=game)
    await alice.member.slash(lobby, "table open", game=game, intro="🎲 🃏")
    thread = thread_of(lobby)
    table = table_of(env, thread)
    join = {"blackjack": {"buy_in": 100}}.get(game, {})
    for p in (bob, carol):
        await p.member.slash(thread, "table join", **join)
    if game in RIGS:
        getattr(table.game, RIGS[game][0])(rigged(game))
    await Round(env, thread, table, []).click(alice, "start", None)
    seats = sorted((alice, bob, carol), key=lambda p: seat_order(table).index(p.id))
    play = Round(env, thread, table, seats)
    await play.play()
    kinds = Counter(move for (who, move), n in play.moves.items() if who == 0 for _ in range(n))

    # the other paths: one's own cards, a refusal, the table's state, the rules, the bank
    for p in (alice, bob, carol):
        await p.member.slash(thread, "hand")
    if any(m == "hand" for m, *_ in play.buttons()):
        await play.click(bob, "hand", None)
    await carol.member.slash(thread, "hit")  # not her move now: a refusal
    await carol.member.slash(thread, "table join")  # already seated: a refusal
    await bob.member.slash(thread, "table status")
    await bob.member.slash(thread, "rules")
    await carol.member.slash(lobby, "about")
    await carol.member.slash(lobby, "bank balance")
    left = await bob.member.slash(thread, "table leave")
    confirm = left.response.message if left.response is not None else None
    if confirm is not None and confirm.components:  # a forfeit asks first
        await bob.member.click(confirm, custom_id=confirm.components[0].children[0].custom_id)
    await alice.member.slash(thread, "table close")
    for p in (bob, carol):
        await p.member.slash(lobby, "bank claim")
    await carol.member.slash(lobby, "bank history")
    dms = {p.user.dm_channel.id for p in (alice, bob, carol) if p.user.dm_channel is not None}
    texts = sent(
        env, start, dms=dms, table_message_id=table.message_id, bank_channel=bank_channel.id
    )
    return texts, kinds


def seat_order(table: Table) -> list[int]:
    """The players in seat order (the order the game serves them)."""
    return [s.player for s in table.game.public_view().seats]


@pytest.mark.parametrize("locale", LOCALES)
@pytest.mark.parametrize("game", GAMES)
async def test_a_round_reads_in_one_language(simcord_env, game: str, locale: str) -> None:
    texts, kinds = await play_everything(simcord_env, game, locale)
    # the round went through the paths it was rigged for, and every kind of message was read
    expected = {
        "blackjack": {"insurance", "no_insurance", "hit", "stand", "bet"},
        "casino21": {"ace", "draw", "bet"},
        "pirate21": {"hit", "stand"},
        "sept_et_demi": {"bet", "hit", "swap", "stand"},
    }[game]
    assert expected <= set(kinds), kinds
    places = Counter(where for where, _ in texts)
    read = {"answer", "follow-up", "table message", "post", "bank channel", "autocomplete"}
    read |= {"dm"} if game in ("pirate21", "sept_et_demi") else {"modal"}
    assert read <= set(places), places
    wrong = [
        (what, text, found)
        for what, text in texts
        if (found := foreign_words(text, locale))
        or (locale == "en" and FRENCH_SPACING.search(text))
        or "{" in text
        or "}" in text
        or KEY.fullmatch(text)
    ]
    assert wrong == [], "\n".join(f"{w}: {f} in {text!r}" for w, text, f in wrong)


async def test_every_command_text_has_its_french(simcord_env) -> None:
    """Every command, option and choice description synced to Discord has a French text
    (a catalog key), different from the English one, within Discord's 100 characters."""
    synced = [
        r for r in simcord_env.http_requests if r.method == "PUT" and r.path.endswith("/commands")
    ]
    assert synced
    missing, same, long = [], [], []

    def check(item: dict[str, Any], path: str) -> None:
        english = item.get("description") or ""
        french = (item.get("description_localizations") or {}).get("fr")
        if english and english != "…":
            if not french:
                missing.append(f"{path}: {english}")
            elif french == english:
                same.append(path)
            elif len(french) > 100:
                long.append(path)
        for option in item.get("options") or []:
            check(option, f"{path} {option['name']}")

    for command in synced[-1].json:
        check(command, command["name"])
    assert missing == [] and same == [] and long == [], (missing, same, long)
