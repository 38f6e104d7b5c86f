"""How a Casino 21 table looks: the bank's hand, every seat with its ace values, the turn,
the welcome stake and the wagering progress, the round summaries and the forum pings.

Choices:
- An ace is shown with the value its holder chose, ``A♠(11)``; an ace still waiting for
  its value is ``A♠(?)`` and the seat says who must choose.
- The bank shows its public card and a card back until it is revealed, then every card with
  its value and the total (bust / Black Jack spelled out).
- The turn is "1st turn" (bets) or "turn N" (draws), as on the forum ("1er tour", "tour 3").
- Under each seat: the welcome stake received and the wagering progress (``30/100``) or
  "free to leave" once the requirement is met, so players know when they may leave.
- Leave and Join stay on the message during a round: a player who busted or sat out may
  leave at once, and a newcomer may sit down for the next round (the engine refuses the
  others with a clear sentence).
- Forum pings: one short message per new turn naming, in one line, every player who still
  has to move (those who bet in the first turn; those still drawing afterwards), minus the
  player whose action started the turn. Nothing is pinged when a player just moved within
  a turn: that is the least noisy that still wakes up whoever the game waits for.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

from bot.engine.base import ROUND_SETTLED, ActionKind, Event, Phase
from bot.engine.events import LEFT, ROUND_CANCELLED
from bot.engine.games.casino21 import Casino21Options
from bot.engine.summaries import CasinoResult, CasinoRound, departure
from bot.engine.views import CasinoPart, CasinoSeatView, SeatView
from bot.i18n import decimal
from bot.ui.buttons import ButtonSpec
from bot.ui.cards import card, cards

from .common import (
    BLUE,
    GREY,
    Ctx,
    GameRenderer,
    checked,
    mention,
    register,
    rounded,
    seat_sorted,
)

_ROUND = (Phase.BETTING, Phase.PLAYING)


def own(ctx: Ctx) -> CasinoPart:
    """The Casino 21 part of the table's view."""
    return checked(CasinoPart, ctx.view.own)


def options(ctx: Ctx) -> Casino21Options:
    """The table's Casino 21 options."""
    return checked(Casino21Options, ctx.view.options)


def seats(ctx: Ctx) -> list[CasinoSeatView]:
    """The seats of the table's view."""
    return [checked(CasinoSeatView, s) for s in ctx.view.seats]


def own_seat(ctx: Ctx, player: int) -> CasinoSeatView | None:
    """``player``'s seat in the table's view."""
    seat = ctx.view.seat(player)
    return None if seat is None else checked(CasinoSeatView, seat)


def hand_text(codes: Iterable[str | None], values: Iterable[int | None]) -> str:
    """Cards with the chosen ace values: ``A♠(11) K♦``; a pending ace is ``A♠(?)``."""
    out = []
    for code, value in zip(codes, values, strict=False):
        text = card(code)
        if code is not None and code[0] == "A":
            text += "(?)" if value is None else f"({value})"
        out.append(text)
    return " ".join(out) or "—"


def signed(n: int) -> str:
    """``+5``, ``-10``, ``±0``."""
    return "±0" if n == 0 else f"{n:+d}"


@dataclass(frozen=True, slots=True)
class CasinoBankHand:
    """The bank's hand as a line shows it: the table's, or a round summary's."""

    cards: Sequence[str | None]
    values: Sequence[int | None]
    total: int
    blackjack: bool


# (forfeit?, something kept?) -> a closing line
CLAIM_KEYS = {
    (False, True): "casino21.claim",
    (True, True): "casino21.claim_forfeit",
    (False, False): "casino21.claim_none",
    (True, False): "casino21.claim_forfeit_all",
}


class Renderer(GameRenderer):
    """The Casino 21 table."""

    announced = frozenset({ROUND_SETTLED, LEFT, ROUND_CANCELLED})

    # ----------------------------------------------------------------- the embed
    def turn_label(self, ctx: Ctx) -> str:
        """ "1st turn" or "turn N" while a round runs, else ""."""
        turn = own(ctx).turn
        if ctx.phase not in _ROUND or turn < 1:
            return ""
        return ctx.t("casino21.turn_first") if turn == 1 else ctx.t("casino21.turn_n", n=turn)

    @staticmethod
    def waiting_for(ctx: Ctx) -> list[int]:
        """The players the current turn still waits for (ace choices first)."""
        pending = [s.player for s in seats(ctx) if s.pending_ace]
        return pending or list(ctx.view.waiting)

    def status_line(self, ctx: Ctx) -> str:
        parts = [f"**{ctx.t(f'phase.{ctx.phase.value}')}**"]
        rnd = ctx.view.round
        if rnd:
            parts.append(ctx.t("table.round", n=rnd))
        turn = self.turn_label(ctx)
        if turn:
            parts.append(turn)
        waiting = self.waiting_for(ctx)
        if waiting and ctx.phase is not Phase.FINISHED:
            players = " ".join(mention(p) for p in waiting)
            parts.append(ctx.t("casino21.waiting_for", players=players))
        due = ctx.table.deadline_due
        if due is not None and ctx.table.game.deadline is not None:
            parts.append(ctx.t("table.deadline", when=f"<t:{int(due)}:R>"))
        return " · ".join(parts)

    def bank_hand(self, ctx: Ctx, bank: CasinoBankHand, shown: bool) -> str:
        """The bank's hand; once ``shown``, its total (bust / Black Jack spelled out)."""
        text = hand_text(bank.cards, bank.values)
        if shown:
            total = bank.total
            text += f" **{total}**"
            if bank.blackjack:
                text += " · " + ctx.t("casino21.blackjack")
            elif total > 21:
                text += " · " + ctx.t("casino21.status.bust")
        return ctx.t("casino21.bank", hand=text)

    def body(self, ctx: Ctx) -> list[str]:
        host = ctx.view.host
        lines = [ctx.t("casino21.host", player=mention(host))] if host is not None else []
        bank = own(ctx).bank
        if bank.cards:  # a public card and a back until revealed
            view = CasinoBankHand(bank.cards, bank.values, bank.total, bool(bank.blackjack))
            lines.append(self.bank_hand(ctx, view, bank.revealed))
        return lines

    def seat_status(self, ctx: Ctx, seat: CasinoSeatView) -> str:
        """Where the seat stands in the round."""
        if seat.pending_ace:
            index = seat.values.index(None)
            return "⏳ " + ctx.t("casino21.status.ace", card=card(seat.cards[index]))
        status = seat.status
        if status == "stood" and seat.blackjack:
            return ctx.t("casino21.blackjack")
        if status == "playing" and ctx.phase is Phase.PLAYING:
            key = "casino21.status.moved" if seat.moved else "casino21.status.to_draw"
            return ctx.t(key)
        if status == "out" and ctx.phase not in _ROUND:
            return ""
        return ctx.t(f"casino21.status.{status}")

    def seat_lines(self, ctx: Ctx, seat: SeatView) -> list[str]:
        """Two lines: the hand, then the money (stack, welcome stake, wagering)."""
        seat = checked(CasinoSeatView, seat)
        results = {r.player: r for r in own(ctx).results}
        head = [mention(seat.player)]
        if seat.cards:
            head.append(f"{hand_text(seat.cards, seat.values)} **{seat.total}**")
        status = self.seat_status(ctx, seat)
        result = results.get(seat.player)
        if result is not None:
            outcome = "status.bust" if result.outcome == "bust" else "result." + result.outcome
            status = f"{ctx.t('casino21.' + outcome)} {signed(result.net)}"
        if status:
            head.append(status)
        money = [ctx.t("table.stack", amount=seat.stack)]
        if seat.bet:
            money.append(ctx.t("table.bet", amount=seat.bet))
        if seat.welcome:
            money.append(ctx.t("casino21.welcome", amount=seat.welcome))
        requirement = options(ctx).wager_requirement
        if seat.wager_left:
            money.append(ctx.t("casino21.wagered", wagered=seat.wagered, requirement=requirement))
        elif seat.welcome:
            money.append(ctx.t("casino21.free_to_leave"))
        return [" · ".join(head), "　" + " · ".join(money)]

    def terms(self, ctx: Ctx) -> list[str]:
        """The welcome stake and the wagering, when a seat shows them."""
        shown = seats(ctx)
        out = []
        if any(s.welcome for s in shown):
            out.append(ctx.t("terms.welcome"))
        if any(s.wager_left for s in shown):
            requirement = options(ctx).wager_requirement
            out.append(ctx.t("terms.wagered", requirement=requirement))
        return out

    # ----------------------------------------------------------------- buttons
    def buttons(self, ctx: Ctx) -> list[ButtonSpec]:
        """The common buttons, with Join (until the table is full) and Leave during a
        round too: a player who busted or sat out may leave at once, a newcomer may sit
        down for the next round (the engine refuses the others with a clear sentence)."""
        specs = [
            b for b in super().buttons(ctx) if b.move not in ("join", "leave", "leave_collect")
        ]
        if ctx.phase is Phase.FINISHED or not ctx.table.is_open:
            return specs
        taken = ctx.view.seats
        if len(taken) < (options(ctx).max_players or 8):
            specs.insert(0, ButtonSpec("join", ctx.t("move.join"), BLUE, row=0))
        if taken:
            specs.extend(self.leave_buttons(ctx))
        return specs

    def move_buttons(self, ctx: Ctx, kinds: set[ActionKind]) -> list[ButtonSpec]:
        """The common ones, with draws of at most 3 cards (and the cards left), and End
        turn after them on their row."""
        most = min(3, own(ctx).max_draw)
        out = [
            b
            for b in super().move_buttons(ctx, kinds - {ActionKind.END_TURN})
            if b.move != "draw" or (b.arg or 0) <= most
        ]
        if ActionKind.END_TURN in kinds:
            out.append(ButtonSpec("end_turn", ctx.t("move.end_turn"), GREY, row=2))
        return out

    def max_draw(self, ctx: Ctx) -> int | None:
        """The most cards a draw may take now (the cards left cap it)."""
        return own(ctx).max_draw

    def bet_ladder(self, low: int) -> tuple[int, ...]:
        """10, 25, 50 from a minimum of 10 or less (1, 2, 5 would be too small to matter)."""
        return (10, 25, 50) if low <= 10 else super().bet_ladder(low)

    # ----------------------------------------------------------------- announcements
    def announce(self, ctx: Ctx, event: Event) -> str:
        if event.kind == ROUND_SETTLED:
            return self.summary(ctx, event)
        if event.kind == ROUND_CANCELLED:  # nobody bet: said as in every game
            return super().announce(ctx, event)
        return self.left_line(ctx, event) if departure(event.data).reason != "close" else ""

    def left_line(self, ctx: Ctx, event: Event) -> str:
        """A player left: what goes back to the casino, what waits at the bank."""
        gone = departure(event.data)
        player = mention(event.player)
        if gone.reason == "empty_stack":
            return ctx.t("casino21.left_empty", player=player)
        if gone.forfeit:
            requirement = options(ctx).wager_requirement
            return ctx.t(
                "casino21.left_forfeit" if gone.keep else "casino21.left_forfeit_all",
                player=player,
                forfeit=gone.forfeit,
                keep=gone.keep,
                requirement=requirement,
            )
        if not gone.keep:
            return ctx.t("casino21.left_empty", player=player)
        return ctx.t("casino21.left", player=player, keep=gone.keep)

    def figure(self, ctx: Ctx, result: CasinoResult) -> str:
        """``+15``, ``+7 (exact 7.5)``, ``-10``, ``±0``: the exact figure only when the
        payout was rounded."""
        net, gain = result.net, result.gain_exact
        if result.outcome in ("win", "bank_bust") and gain is not None and rounded(gain):
            exact = decimal(gain, ctx.locale)
            return f"{signed(net)} ({ctx.t('summary.exact', exact=exact)})"
        return signed(net)

    def summary(self, ctx: Ctx, event: Event) -> str:
        data = checked(CasinoRound, ctx.table.game.summary_of(event.data))
        lines = [ctx.t("summary.title", n=data.round)]
        bank = data.bank
        hand = CasinoBankHand(bank.cards, bank.values, bank.total, bank.blackjack)
        lines.append(self.bank_hand(ctx, hand, True))
        for r in seat_sorted(ctx, data.results):
            outcome = r.outcome
            label = ctx.t(f"casino21.result.{outcome}")
            if r.blackjack and outcome != "bust":
                label += " · " + ctx.t("casino21.blackjack")
            lines.append(
                f"{mention(r.player)} {hand_text(r.cards, r.values)} "
                f"**{r.total}** · {ctx.t('table.bet', amount=r.bet)} · {label} "
                f"**{self.figure(ctx, r)}**"
            )
        if bank.bust:
            bonus = options(ctx).bank_bust_bonus
            if bonus == "half":
                lines.append(ctx.t("casino21.bonus_half"))
            else:
                lines.append(ctx.t("casino21.bonus_fixed", amount=bonus))
        if not data.results:
            lines.append(ctx.t("casino21.nobody"))
        return "\n".join(lines)

    def standing(self, ctx: Ctx, left: Event) -> str:
        gone = departure(left.data)
        key = CLAIM_KEYS[bool(gone.forfeit), bool(gone.keep)]
        return ctx.t(key, player=mention(left.player), amount=gone.keep, forfeit=gone.forfeit)

    # ----------------------------------------------------------------- forum pings
    def pings(
        self, ctx: Ctx, events: list[Event], actor: int | None
    ) -> tuple[str, list[int]] | None:
        """At forum pace: who to ping after these events (one message per new turn)."""
        started = [e for e in events if e.kind in ("round_started", "turn_started")]
        if not started or ctx.phase not in (Phase.BETTING, Phase.PLAYING):
            return "", []
        players = [p for p in self.waiting_for(ctx) if p != actor]
        if not players:
            return "", []
        names = " ".join(mention(p) for p in players)
        if ctx.phase is Phase.BETTING:
            text = ctx.t("casino21.ping.bets", n=ctx.view.round, players=names)
        else:
            text = ctx.t("casino21.ping.draw", n=own(ctx).turn, players=names)
        return text, players

    # ----------------------------------------------------------------- answers
    def move_answer(self, ctx: Ctx, events: list[Event], player: int) -> list[str]:
        """The common answer; the host who ended a turn reads that it is over."""
        out = super().move_answer(ctx, events, player)
        ended = [e for e in events if e.kind == "turn_ended" and e.data.get("by") == "host"]
        if ended and player == ctx.table.game.host:
            out.insert(0, ctx.t("answer.turn_ended", turn=ended[0].data.get("turn")))
        return out

    def answer_line(self, ctx: Ctx, e: Event, events: list[Event]) -> str | None:
        """A draw says its cards and the hand's total (while the hand is still on the
        table and its aces are valued); an ace to value says how."""
        data = e.data
        if e.kind in ("dealt", "drew"):  # the two cards of a bet, the cards of a draw
            drawn = cards(list(data.get("cards", [])))
            key = "answer.cards" if e.kind == "dealt" else "answer.drew"
            hand = list(data.get("hand", []))
            total = self.hand_total(ctx, events, e.player or 0, lambda held: held == hand)
            if total is None:  # an ace still to value
                return ctx.t(key + "_only", cards=drawn)
            return ctx.t(key, cards=drawn, total=total)
        if e.kind == "ace_pending":
            return ctx.t("answer.ace_pending", card=card(data.get("card")))
        if e.kind == "ace_chosen" and not data.get("auto"):
            ace = data.get("card")
            total = self.hand_total(ctx, events, e.player or 0, lambda held: ace in held)
            key = "answer.ace_chosen_only" if total is None else "answer.ace_chosen"
            return ctx.t(key, card=card(ace), value=data.get("value"), total=total)
        return super().answer_line(ctx, e, events)

    def hand_total(
        self, ctx: Ctx, events: list[Event], player: int, match: Callable[[list[str]], bool]
    ) -> int | None:
        """The total of a player's hand (the one whose cards ``match``) with its aces
        valued: from the table, else (the round ended with the move) from the round's
        summary; None while an ace waits."""
        seat = own_seat(ctx, player)
        if seat is not None and match(list(seat.cards)) and None not in seat.values:
            return seat.total
        for e in events:
            if e.kind != ROUND_SETTLED:
                continue
            for row in checked(CasinoRound, ctx.table.game.summary_of(e.data)).results:
                if row.player == player and match(list(row.cards)) and None not in row.values:
                    return row.total
        return None

    # ----------------------------------------------------------------- DMs
    def private_lines(self, ctx: Ctx, events: list[Event], player: int) -> list[str]:
        """A player whose stack reached 0 learns how to keep the seat (Casino 21 has no
        private cards)."""
        out = super().private_lines(ctx, events, player)
        for e in events:
            if e.kind == "stack_empty" and e.player == player:
                out.append(ctx.t("casino21.dm_stack_empty"))
        return out

    # ----------------------------------------------------------------- /hand
    def hand_text(self, ctx: Ctx, player: int) -> str:
        seat = own_seat(ctx, player)
        if seat is None:
            return ctx.t("hand.not_seated")
        hand = hand_text(seat.cards, seat.values) if seat.cards else "—"
        text = ctx.t("casino21.hand", hand=hand, total=seat.total, stack=seat.stack)
        if seat.leave_forfeit:
            text += "\n" + ctx.t(
                "casino21.hand_forfeit", forfeit=seat.leave_forfeit, keep=seat.leave_keep
            )
        return text


register("casino21", Renderer())
