"""The common renderer: the table embed frame and the seats, move buttons from legal
actions, the events every game shares (round summaries posted, seeds revealed, the table
closing), DM text. A game's renderer (``bot/ui/render/<game key>.py``) subclasses
:class:`GameRenderer` for what is its own and registers itself with :func:`register`;
``bot/ui/render/__init__.py`` imports them, so this module imports none of them."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from decimal import Decimal
from operator import attrgetter
from typing import Any, ClassVar, TypeVar

import discord

from bot.engine.base import ROUND_SETTLED, SEED_REVEALED, ActionKind, Event, Phase, Visibility
from bot.engine.events import (
    BET,
    HOST_CHANGED,
    JOINED,
    LEFT,
    ROUND_CANCELLED,
    SAT_OUT,
    SHUFFLE,
    TOPPED_UP,
    VOTED_STOP,
)
from bot.engine.registry import GAMES
from bot.engine.summaries import RoundSummary, departure, reveal
from bot.engine.views import SeatView, TableView
from bot.i18n import t
from bot.tables.models import Table
from bot.ui.buttons import ButtonRows, ButtonSpec
from bot.ui.cards import cards
from bot.ui.limits import DESCRIPTION, add_fields, fit_text

from . import cache

PHASE_COLOURS = {
    Phase.LOBBY: discord.Colour.blurple(),
    Phase.BETTING: discord.Colour.gold(),
    Phase.INSURANCE: discord.Colour.orange(),
    Phase.PLAYING: discord.Colour.green(),
    Phase.BANK: discord.Colour.dark_teal(),
    Phase.BETWEEN_ROUNDS: discord.Colour.light_grey(),
    Phase.FINISHED: discord.Colour.dark_grey(),
}
T = TypeVar("T")
KIND_BITS = {kind: 1 << i for i, kind in enumerate(ActionKind)}
GREEN = discord.ButtonStyle.success
RED = discord.ButtonStyle.danger
BLUE = discord.ButtonStyle.primary
GREY = discord.ButtonStyle.secondary


@dataclass
class Ctx:
    """What a renderer needs: the table, its public view, the language."""

    table: Table
    locale: str
    note: str | None = None  # a line shown at the top (e.g. "the croupier is back")
    news: tuple[str, ...] = ()  # the latest changes at the table, under the status line
    _view: TableView | None = field(default=None, repr=False)
    # draw the buttons from the table's last render when they did not change (``cache``)
    cached: bool = False

    @property
    def view(self) -> TableView:
        """The game's public view, built on first use (not every publish needs it)."""
        if self._view is None:
            self._view = self.table.game.public_view()
        return self._view

    def t(self, key: str, **params: Any) -> str:
        """Translate into the table's language."""
        return t(key, self.locale, **params)

    @property
    def phase(self) -> Phase:
        """The game's phase."""
        return self.table.game.phase


MESSAGE_LIMIT = 2000  # characters in one Discord message


def checked(cls: type[T], value: object) -> T:
    """``value`` as the ``cls`` it must be (a game's own part of a view, its seats): a
    renderer given another game's view fails here, loudly."""
    if not isinstance(value, cls):
        raise TypeError(f"expected {cls.__name__}, got {type(value).__name__}")
    return value


def seed_reveal_line(ctx: Ctx, event: Event) -> str:
    """A retired deck's seed with its commitment and deck spec, as ``/verify`` and
    ``python -m bot verify`` take them (the same line in every game)."""
    shown = reveal(event.data)
    line = ctx.t(
        "fairness.seed_revealed", seed=shown.seed, commitment=shown.commitment, deck=shown.spec
    )
    if shown.clients:  # the seeds in user-id order, as /verify takes them
        seeds = " ".join(text for _, text in shown.clients)
        line += "\n" + ctx.t("fairness.seed_revealed.clients", shoe=shown.number, seeds=seeds)
    return line


def reveal_blocks(reveals: list[str]) -> list[str]:
    """The reveal lines in as few messages as fit (a reveal with eight client seeds is
    ~900 characters: several in one batch pass a message's 2,000)."""
    blocks: list[str] = []
    for line in reveals:
        if blocks and len(blocks[-1]) + 1 + len(line) <= MESSAGE_LIMIT:
            blocks[-1] += "\n" + line
        else:
            blocks.append(line)
    return blocks


def seat_sorted(ctx: Ctx, items: Iterable[T], player: Callable[[T], Any] | None = None) -> list[T]:
    """``items`` (with a ``player`` attribute, or ``player(item)``) in the seat order of their
    players; players no longer seated keep their order, after the seated ones."""
    order = {p: i for i, p in enumerate(ctx.table.game.seated())}
    who: Callable[[Any], Any] = player or attrgetter("player")
    return sorted(items, key=lambda item: order.get(who(item), len(order)))


def rounded(exact: object) -> bool:
    """True when an exact figure (``7.5``) is not a whole number: the amount paid was
    rounded, and the summary shows the exact one beside it."""
    if exact is None or exact == "":
        return False
    try:
        return Decimal(str(exact)) != Decimal(str(exact)).to_integral_value()
    except ArithmeticError:
        return True


def rebets(ctx: Ctx) -> bool:
    """Whether "Same bet" and "Rebet ×2" are offered: in the bets, while someone the bets
    wait for bet last round (the others' clicks are refused, saying why)."""
    game = ctx.table.game
    if ctx.phase is not Phase.BETTING:
        return False
    return any(s.last_bet for s in game.seats if s.player in game.waiting)


def mention(user_id: int | None) -> str:
    """A user mention (renders as a name in embeds, pings nobody there)."""
    return f"<@{user_id}>" if user_id is not None else "—"


class GameRenderer:
    """The default look of a table; each game overrides what it shows differently."""

    has_private_cards = False
    #: the public events that get a message of their own (``announce``)
    announced: frozenset[str] = frozenset({ROUND_SETTLED, ROUND_CANCELLED})

    # ----------------------------------------------------------------- the embed
    def embed(self, ctx: Ctx) -> discord.Embed:
        """The public table message."""
        table = ctx.table
        title = GAMES[table.game_key].name(ctx.locale)
        if table.settings.name:
            title = f"{title} — {table.settings.name}"
        embed = discord.Embed(title=title, colour=PHASE_COLOURS.get(ctx.phase))
        lines = []
        if ctx.note:
            lines.append(f"*{ctx.note}*")
        lines.append(self.status_line(ctx))
        lines.extend(ctx.news)
        lines.extend(self.body(ctx))
        embed.description = fit_text("\n".join(line for line in lines if line), DESCRIPTION)
        add_fields(embed, self.fields(ctx))  # a long seat list goes on in more fields
        embed.set_footer(text=self.footer(ctx)[:2048])
        return embed

    def closed_embed(self, ctx: Ctx, events: list[Event]) -> discord.Embed:
        """The table message once the table is closed: it says so, with the final standings
        (the closing post's lines when the closing events are at hand), and no buttons."""
        table = ctx.table
        title = GAMES[table.game_key].name(ctx.locale)
        if table.settings.name:
            title = f"{title} — {table.settings.name}"
        embed = discord.Embed(title=title, colour=PHASE_COLOURS[Phase.FINISHED])
        final = self.final(ctx, events) if events else ""
        text = final or ctx.t("table.closed_title")
        embed.description = fit_text(text, DESCRIPTION)
        embed.set_footer(text=ctx.t("table.footer", id=table.id, version=table.version))
        return embed

    def status_line(self, ctx: Ctx) -> str:
        """Phase, whose turn, and the deadline as a relative time."""
        phase = ctx.t(f"phase.{ctx.phase.value}")
        parts = [f"**{phase}**"]
        rnd = ctx.view.round
        if rnd:
            parts.append(ctx.t("table.round", n=rnd))
        to_act = ctx.table.game.to_act
        if to_act is not None and ctx.phase is not Phase.FINISHED:
            parts.append(ctx.t("table.turn_of", player=mention(to_act)))
        due = ctx.table.deadline_due
        if due is not None and ctx.table.game.deadline is not None:
            parts.append(ctx.t("table.deadline", when=f"<t:{int(due)}:R>"))
        return " · ".join(parts)

    def body(self, ctx: Ctx) -> list[str]:
        """Lines under the status line (the dealer's or the bank's hand...)."""
        return []

    def fields(self, ctx: Ctx) -> Iterable[tuple[str, str]]:
        """(name, value) fields: the seats frame, each seat's lines then the table's own."""
        seats = ctx.view.seats
        lines = [line for s in seats for line in self.seat_lines(ctx, s)]
        lines += self.table_lines(ctx)
        yield ctx.t("table.seats", n=len(seats)), "\n".join(lines) or ctx.t("table.no_seats")

    def seat_lines(self, ctx: Ctx, seat: SeatView) -> list[str]:
        """A seat's lines in the seats frame (default: one, ``seat_line``)."""
        return [self.seat_line(ctx, seat)]

    def table_lines(self, ctx: Ctx) -> list[str]:
        """Lines under the seats (the game's own: insurance stakes...)."""
        return []

    def seat_line(self, ctx: Ctx, seat: SeatView) -> str:
        """One seat: who, stack, bet."""
        parts = [mention(seat.player), ctx.t("table.stack", amount=seat.stack)]
        if seat.bet:
            parts.append(ctx.t("table.bet", amount=seat.bet))
        return " · ".join(parts)

    def footer(self, ctx: Ctx) -> str:
        """The table's own terms on show explained, table id, version and commitments."""
        text = ctx.t("table.footer", id=ctx.table.id, version=ctx.table.version)
        return "\n".join([*self.terms(ctx), text, *self.commitment_lines(ctx)])

    def terms(self, ctx: Ctx) -> list[str]:
        """One short line per term of this game the message shows (a welcome stake, a
        guarantee fund...), in the footer: what a newcomer cannot guess."""
        return []

    def commitment_lines(self, ctx: Ctx) -> list[str]:
        """The commitment of the deck in use and of the next one when it is already drawn
        (a deck that may replace this one mid-round is committed before the round)."""
        lines = []
        commitment = self.commitment(ctx)
        if commitment:
            lines.append(ctx.t("table.commitment", commitment=commitment))
            shoe = ctx.view.shoe
            if shoe is not None and shoe.clients:
                seeds = " ".join(f"`{text}`" for _, text in shoe.clients)
                lines.append(ctx.t("table.client_seeds", shoe=shoe.number, seeds=seeds))
        upcoming = ctx.view.next_commitment
        if upcoming is not None:
            lines.append(ctx.t("table.next_commitment", commitment=upcoming))
        return lines

    @staticmethod
    def commitment(ctx: Ctx) -> str | None:
        """The commitment of the deck in use (the base's view keeps it in ``shoe``)."""
        shoe = ctx.view.shoe
        return None if shoe is None else shoe.commitment

    # ----------------------------------------------------------------- buttons
    def button_rows(self, ctx: Ctx) -> ButtonRows | None:
        """The move buttons laid out in rows, without the version their custom ids carry;
        with ``ctx.cached``, the table's last ones when what they show did not change."""
        if not ctx.cached:
            return ButtonRows.of(self.buttons(ctx))
        return cache.button_rows(
            ctx.table, ctx.locale, self.button_key(ctx), lambda: self.buttons(ctx)
        )

    def button_key(self, ctx: Ctx) -> Any:
        """Everything :meth:`buttons` reads, hashable (None: draw them every time): the
        phase, the moves any seated player has, the seats taken, the options (bets' range)
        and the cards one may draw; a renderer whose buttons read more adds it. Tables
        whose keys are equal share their buttons (``cache``)."""
        table, view = ctx.table, ctx.view
        game = table.game
        kinds = 0  # as bits: a frozenset of 5 or more kinds takes 700 bytes, kept per table
        for kind in game.seated_legal():
            kinds |= KIND_BITS[kind]
        seated = (len(game.seated()), len(view.seats))
        # the game's options (hashable, kept with the table), the most cards one draw takes
        options, most = game.options, self.max_draw(ctx)
        return (ctx.phase, table.is_open, kinds, seated, options, most, rebets(ctx))

    def buttons(self, ctx: Ctx) -> list[ButtonSpec]:
        """Move buttons for what any seated player may do now."""
        game = ctx.table.game
        if ctx.phase is Phase.FINISHED or not ctx.table.is_open:
            return []
        kinds = set(game.seated_legal())
        specs: list[ButtonSpec] = []
        seats_left = len(game.seated()) < GAMES[ctx.table.game_key].max_players  # else no Join
        if ctx.phase in (Phase.LOBBY, Phase.BETWEEN_ROUNDS) and seats_left:
            specs.append(ButtonSpec("join", ctx.t("move.join"), BLUE, row=0))
        if ActionKind.START in kinds:
            key = "move.start" if ctx.phase is Phase.LOBBY else "move.next_round"
            specs.append(ButtonSpec("start", ctx.t(key), GREEN, row=0))
        specs.extend(self.move_buttons(ctx, kinds))
        if self.has_private_cards and ctx.phase not in (Phase.LOBBY,):
            specs.append(ButtonSpec("hand", ctx.t("move.hand"), GREY, row=4, emoji="🂠"))
        if ActionKind.VOTE_STOP in kinds:
            specs.append(ButtonSpec("vote_stop", ctx.t("move.vote_stop"), GREY, row=4))
        if ctx.phase in (Phase.LOBBY, Phase.BETWEEN_ROUNDS):
            specs.extend(self.leave_buttons(ctx))
        return specs

    def leave_buttons(self, ctx: Ctx) -> list[ButtonSpec]:
        """Leave (the stack becomes a claim at the bank), and at a money table Leave and
        collect (the claim paid into the balance at once where it needs no approval)."""
        out = [ButtonSpec("leave", ctx.t("move.leave"), GREY, row=4)]
        if ctx.table.game.MONEY:
            out.append(ButtonSpec("leave_collect", ctx.t("move.leave_collect"), GREY, row=4))
        return out

    def move_buttons(self, ctx: Ctx, kinds: set[ActionKind]) -> list[ButtonSpec]:
        """Buttons for the game's own moves (rows 1-3)."""
        out: list[ButtonSpec] = []
        if ActionKind.BET in kinds:
            if rebets(ctx):
                out.append(ButtonSpec("rebet", ctx.t("move.rebet_same"), GREEN, arg=1, row=0))
                out.append(ButtonSpec("rebet", ctx.t("move.rebet_double"), GREEN, arg=2, row=0))
            out.extend(self.bet_buttons(ctx))
        if ActionKind.SIT_OUT in kinds:
            out.append(ButtonSpec("sit_out", ctx.t("move.sit_out"), GREY, row=1))
        simple = [
            (ActionKind.INSURANCE, "insurance", BLUE),
            (ActionKind.NO_INSURANCE, "no_insurance", GREY),
            (ActionKind.HIT, "hit", GREEN),
            (ActionKind.STAND, "stand", RED),
            (ActionKind.DOUBLE, "double", BLUE),
            (ActionKind.SPLIT, "split", BLUE),
            (ActionKind.SURRENDER, "surrender", GREY),
            (ActionKind.SHOW, "show", GREEN),
            (ActionKind.SWAP, "swap", BLUE),
            (ActionKind.END_TURN, "end_turn", GREY),
        ]
        for kind, move, style in simple:
            if kind in kinds:
                out.append(ButtonSpec(move, ctx.t(f"move.{move}"), style, row=2))
        if ActionKind.DRAW in kinds:
            most = self.max_draw(ctx) or 3
            out.append(ButtonSpec("draw", ctx.t("move.draw_stand"), RED, arg=0, row=2))
            for n in range(1, min(most, 4) + 1):
                out.append(ButtonSpec("draw", ctx.t("move.draw_n", n=n), GREEN, arg=n, row=2))
        if ActionKind.CHOOSE_ACE in kinds:
            out.append(ButtonSpec("ace", ctx.t("move.ace", value=1), BLUE, arg=1, row=3))
            out.append(ButtonSpec("ace", ctx.t("move.ace", value=11), BLUE, arg=11, row=3))
        return out

    def bet_buttons(self, ctx: Ctx) -> list[ButtonSpec]:
        """Quick bets (minimum, x2, x5 within the maximum) and an 'other amount' modal."""
        # the games with bets have these options (a game without has no BET move)
        options = ctx.view.options
        low = int(getattr(options, "min_bet", 0) or 1)
        high = int(getattr(options, "max_bet", 0) or low * 10)
        amounts = sorted({a for a in self.bet_ladder(low) if low <= a <= high}) or [low]
        out = [
            ButtonSpec("bet", ctx.t("move.bet_n", amount=a), GREEN, arg=a, row=1) for a in amounts
        ]
        out.append(ButtonSpec("bet_modal", ctx.t("move.bet_other"), BLUE, row=1))
        return out

    def max_draw(self, ctx: Ctx) -> int | None:
        """The most cards one draw may take (None: the game has no such draws)."""
        return None

    def bet_ladder(self, low: int) -> tuple[int, ...]:
        """The quick-bet amounts offered for a table whose minimum bet is ``low``."""
        return (low, low * 2, low * 5)

    # ----------------------------------------------------------------- announcements
    def public_posts(self, ctx: Ctx, events: list[Event]) -> list[str]:
        """Every public message for this batch: the game's announcements, then the seed of
        every deck retired (whatever retired it), added to the last announcement when it
        has room, else in a message of its own."""
        texts = self.announcements(ctx, events)
        reveals = [
            seed_reveal_line(ctx, e)
            for e in events
            if e.kind == SEED_REVEALED and e.visibility is Visibility.PUBLIC
        ]
        if not reveals:
            return texts
        block = "\n".join(reveals)
        if texts and len(texts[-1]) + 1 + len(block) <= MESSAGE_LIMIT:
            return [*texts[:-1], texts[-1] + "\n" + block]
        return [*texts, *reveal_blocks(reveals)]

    def announcements(self, ctx: Ctx, events: list[Event]) -> list[str]:
        """Separate public messages for this batch of events (the ``announced`` kinds:
        round summaries...), then the end of the table."""
        out = []
        for event in events:
            if event.visibility is not Visibility.PUBLIC:
                continue
            if event.kind in self.announced:
                out.append(self.announce(ctx, event))
        if ctx.phase is Phase.FINISHED or not ctx.table.is_open:
            final = self.final(ctx, events)
            if final:
                out.append(final)
        return [text for text in out if text]

    def announce(self, ctx: Ctx, event: Event) -> str:
        """The message of one announced event (default: the round summary; a round nobody
        bet in is said too, so the rounds' numbers never skip)."""
        if event.kind == ROUND_CANCELLED:
            return ctx.t("table.round_void", n=event.data.get("round", "?"))
        return self.summary(ctx, event) if event.kind == ROUND_SETTLED else ""

    def summary(self, ctx: Ctx, event: Event) -> str:
        """A round summary message."""
        summary = ctx.table.game.summary_of(event.data)
        lines = [ctx.t("summary.title", n=summary.round)]
        lines += [f"{mention(row.player)} {row.net:+d}" for row in summary.nets]
        return "\n".join(lines)

    def final(self, ctx: Ctx, events: list[Event]) -> str:
        """The message when the table ends: what each player left with, in seat order."""
        lines = [ctx.t("table.closed_title")]
        for e in seat_sorted(ctx, events, lambda e: e.player):
            if e.kind == LEFT and departure(e.data).reason == "close":
                lines.append(self.standing(ctx, e))
        if any(e.kind == LEFT and departure(e.data).keep for e in events):  # to collect
            lines.append(ctx.t("table.claim_hint"))
        return "\n".join(lines)

    def standing(self, ctx: Ctx, left: Event) -> str:
        """One player's line in the final standings (``left``: their ``left`` event)."""
        keep = departure(left.data).keep
        key = "table.standing" if keep else "table.standing_empty"
        return ctx.t(key, player=mention(left.player), amount=keep)

    def pings(
        self, ctx: Ctx, events: list[Event], actor: int | None
    ) -> tuple[str, list[int]] | None:
        """Forum pace: (text, users to ping) after these events; ("", []) pings nobody.
        None (the default) lets the cog ping the game's ``to_act`` after a ``turn`` event."""
        return None

    def left_text(self, ctx: Ctx, events: list[Event], player: int) -> str | None:
        """What a player who just left reads: the stack that goes to the bank (and how to
        collect it), the welcome stake returned; None when they did not leave."""
        left = next((e for e in events if e.kind == LEFT and e.player == player), None)
        gone = None if left is None else departure(left.data)
        if gone is None or gone.reason != "leave" or not ctx.table.game.MONEY:
            return None
        keep, forfeit = gone.keep, gone.forfeit
        if forfeit:
            key = "move.left.forfeit" if keep else "move.left.forfeit_all"
        else:
            key = "move.left.stack" if keep else "move.left.nothing"
        return ctx.t(key, amount=keep, forfeit=forfeit)

    # ----------------------------------------------------------------- changes
    #: a timer's move for a player, by event kind: the words that say what it did
    TIMED_OUT: ClassVar[dict[str, str]] = {
        "stand": "stand",
        "stood": "stand",
        SAT_OUT: "sat_out",
        "no_insurance": "no_insurance",
    }

    #: the event kinds :meth:`change_lines` may say something about
    news_kinds: frozenset[str] = frozenset(
        {JOINED, LEFT, SHUFFLE, TOPPED_UP, ROUND_CANCELLED, "turn_ended", *TIMED_OUT}
    )

    def change_lines(self, ctx: Ctx, events: list[Event], actor: int | None) -> list[str]:
        """The table message's lines for the changes of a batch a player needs to see
        (seats taken and freed, a removal, timers that played, a reshuffle); kinds that
        get a message of their own are not said twice. ``actor``: who made the move."""
        out: list[str] = []
        timed: dict[str, list[int]] = {}
        for e in events:
            if e.visibility is not Visibility.PUBLIC or e.kind in self.announced:
                continue
            what = self.TIMED_OUT.get(e.kind)
            if what and e.player is not None and self.by_timer(e):
                timed.setdefault(what, []).append(e.player)
                continue
            line = self.change_line(ctx, e, actor)
            if line:
                out.append(line)
        for what, players in timed.items():
            who = ", ".join(mention(p) for p in dict.fromkeys(players))
            out.append("⏱ " + ctx.t(f"news.timeout.{what}", players=who))
        return out

    @staticmethod
    def by_timer(e: Event) -> bool:
        """True when a timer made this move (each game marks it its own way)."""
        data = e.data
        return bool(data.get("timeout")) or "timeout" in (data.get("auto"), data.get("by"))

    def change_line(self, ctx: Ctx, e: Event, actor: int | None) -> str | None:
        """One change's line (None: nothing to say about this event)."""
        who = mention(e.player)
        if e.kind == JOINED:
            return "🪑 " + ctx.t("news.joined", player=who)
        if e.kind == LEFT:
            reason = departure(e.data).reason
            if reason == "empty_stack":
                return "🚪 " + ctx.t("news.out_of_chips", player=who)
            if reason != "leave":  # the close says it in its standings
                return None
            kicked = actor is not None and actor != e.player
            return "🚪 " + ctx.t("news.kicked" if kicked else "news.left", player=who)
        # a fresh deck every round says nothing
        reshuffled = e.kind == SHUFFLE and int(e.data.get("number", 1)) > 1
        if reshuffled and not ctx.table.game.SHOE_PER_ROUND:
            return "🔀 " + ctx.t("news.reshuffled")
        if e.kind == TOPPED_UP:
            return "💰 " + ctx.t("news.topped_up", player=who, amount=e.data.get("amount"))
        if e.kind == ROUND_CANCELLED:
            return "∅ " + ctx.t("news.round_cancelled", n=e.data.get("round", "?"))
        if e.kind == "turn_ended" and self.by_timer(e):
            return "⏱ " + ctx.t("news.timeout.turn")
        return None

    def host_notice(self, ctx: Ctx, events: list[Event]) -> tuple[str, int] | None:
        """The post that tells a new host they host the table (and pings them), when the
        host changed in this batch of an open table."""
        change = next((e for e in reversed(events) if e.kind == HOST_CHANGED), None)
        if change is None or change.player is None or not ctx.table.is_open:
            return None
        return "👑 " + ctx.t("news.host", player=mention(change.player)), change.player

    # ----------------------------------------------------------------- answers
    def move_answer(self, ctx: Ctx, events: list[Event], player: int) -> list[str]:
        """What a player's own move did, for the ephemeral answer to their command (their
        public events; the publisher adds their private cards)."""
        out: list[str] = []
        drawn: list[str] = []
        total: Any = None
        hand: Any = None
        for e in events:
            if e.visibility is not Visibility.PUBLIC or e.player != player:
                continue
            if e.kind == "card" and "total" in e.data:
                if drawn and e.data.get("hand") != hand:
                    out.append(self.drawn_line(ctx, drawn, total))
                    drawn = []
                drawn.append(str(e.data["card"]))
                total, hand = e.data["total"], e.data.get("hand")
                continue
            if drawn:
                out.append(self.drawn_line(ctx, drawn, total))
                drawn = []
            line = self.answer_line(ctx, e, events)
            if line:
                out.append(line)
        if drawn:
            out.append(self.drawn_line(ctx, drawn, total))
        for e in events:
            if e.kind == ROUND_SETTLED:
                summary = ctx.table.game.summary_of(e.data)
                net = self.round_net(summary, player)
                if net is not None:
                    out.append(ctx.t("answer.round_net", n=summary.round, net=f"{net:+d}"))
        return out

    def drawn_line(self, ctx: Ctx, drawn: list[str], total: Any) -> str:
        """The cards a move gave the player, with their total."""
        return ctx.t("answer.drew", cards=cards(drawn), total=total)

    def answer_line(self, ctx: Ctx, e: Event, events: list[Event]) -> str | None:
        """One of the player's own public events, as their answer says it (``events``:
        the whole batch)."""
        data, kind = e.data, e.kind
        if kind == BET:
            return ctx.t("answer.bet", amount=data.get("amount"))
        if kind == SAT_OUT:
            return ctx.t("answer.sat_out")
        if kind in ("stand", "stood"):
            total = data.get("total")
            return ctx.t("answer.stand") if total is None else ctx.t("answer.stand_on", total=total)
        if kind == "bust":
            return ctx.t("answer.bust", total=data.get("total_text", data.get("total")))
        if kind == TOPPED_UP:
            return ctx.t("answer.topped_up", amount=data.get("amount"), stack=data.get("stack"))
        if kind == VOTED_STOP:
            return ctx.t("answer.vote", votes=data.get("votes"), needed=data.get("needed"))
        if kind in ("double", "split", "surrender", "insurance", "no_insurance"):
            return ctx.t(f"answer.{kind}", **{k: v for k, v in data.items() if k != "hand"})
        return None

    def round_net(self, summary: RoundSummary, player: int) -> int | None:
        """A player's net for a settled round, from its summary (None: not in it)."""
        return summary.net_of(player)

    # ----------------------------------------------------------------- private
    def private_lines(self, ctx: Ctx, events: list[Event], player: int) -> list[str]:
        """What a player's DM says about the private events addressed to them."""
        out: list[str] = []
        for e in events:
            if e.visibility is Visibility.PRIVATE and e.player == player:
                out += self.private_event(ctx, e)
        return out

    def private_event(self, ctx: Ctx, e: Event) -> list[str]:
        """The DM's lines for one private event (default: the cards it shows)."""
        data = e.data
        shown = data.get("cards") or ([data["card"]] if "card" in data else [])
        return [ctx.t("private.cards", cards=cards(shown))] if shown else []

    def hand_text(self, ctx: Ctx, player: int) -> str:
        """``/hand``: the player's own view of their cards."""
        if ctx.view.seat(player) is None:
            return ctx.t("hand.not_seated")
        return ctx.t("hand.public_only", cards=cards([]))


_RENDERERS: dict[str, GameRenderer] = {}


def register(game_key: str, renderer: GameRenderer) -> None:
    """Use ``renderer`` for ``game_key``'s tables."""
    _RENDERERS[game_key] = renderer


def renderer_for(game_key: str) -> GameRenderer:
    """The renderer of a game (the default one when the game has none of its own)."""
    return _RENDERERS.get(game_key) or _DEFAULT


_DEFAULT = GameRenderer()
