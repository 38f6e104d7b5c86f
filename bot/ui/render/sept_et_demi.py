"""How a Sept et demi table looks: the bank (face down until its turn), every player's
shown cards and one card back for the hidden card, the guarantee fund, the round summaries
and the final ranking. Private cards go by DM (and ``/hand``), never in a public message.
The common renderer draws the frame, the seats (each seat's line from here) and the
buttons."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from bot.engine.base import ROUND_SETTLED, ActionKind, Event, MoneyKind, Phase, Visibility
from bot.engine.events import LEFT
from bot.engine.games.sept_et_demi import SeptEtDemiOptions
from bot.engine.hands import SEPT_ET_DEMI, format_half_points
from bot.engine.summaries import (
    RoundSummary,
    SeptGameOver,
    SeptResult,
    SeptRound,
    departure,
    sept_game_over,
)
from bot.engine.views import SeatView, SeptPart, SeptSeatView, SeptYou
from bot.ui.buttons import ButtonSpec
from bot.ui.cards import card, cards

from .common import GREEN, Ctx, GameRenderer, checked, mention, register, seat_sorted

BANK = "🏦"
FUND = "🛡️"
VOTE = "✋"
TURN = "▶"
# Phases read on every render, bound once (an Enum's class attribute goes through its
# metaclass's __getattr__ in Python 3.11: several times a plain attribute's cost).
_LOBBY, _BETTING, _PLAYING, _BANK = Phase.LOBBY, Phase.BETTING, Phase.PLAYING, Phase.BANK
_BETWEEN, _FINISHED = Phase.BETWEEN_ROUNDS, Phase.FINISHED
IN_ROUND = (_BETTING, _PLAYING, _BANK)
MEDALS = {1: "🥇", 2: "🥈", 3: "🥉"}


def fmt(points: int) -> str:
    """Half-points as players write them: 15 -> 7½, 1 -> ½, 4 -> 2."""
    return "½" if points == 1 else format_half_points(points)


def half(points: int | None) -> str:
    """Half-points in bold: 15 -> **7½**."""
    return "" if points is None else f"**{fmt(int(points))}**"


def signed(amount: int) -> str:
    """+20 / −10 (a true minus sign)."""
    return f"+{amount}" if amount > 0 else (f"−{-amount}" if amount < 0 else "±0")


def own(ctx: Ctx) -> SeptPart:
    """The Sept et demi part of the table's view."""
    return checked(SeptPart, ctx.view.own)


def last_round(ctx: Ctx) -> SeptRound | None:
    """The summary of the round last played at the table (None before the first)."""
    last = ctx.view.last_round
    return None if last is None else checked(SeptRound, last)


def options(ctx: Ctx) -> SeptEtDemiOptions:
    """The table's Sept et demi options."""
    return checked(SeptEtDemiOptions, ctx.view.options)


def hand_of(ctx: Ctx, shown: Sequence[str], hidden: int, total: int | None) -> str:
    """A hand: a card back per hidden card, the shown cards, the total once all is shown."""
    hand = cards([*([None] * hidden), *shown])
    if total is not None:
        hand += " · " + half(total)
        if total > SEPT_ET_DEMI:
            hand += " · " + ctx.t("sept.status.bust")
    return hand


class Renderer(GameRenderer):
    """The Sept et demi table."""

    has_private_cards = True

    # ----------------------------------------------------------------- the embed
    def body(self, ctx: Ctx) -> list[str]:
        view, phase = own(ctx), ctx.phase
        opts = options(ctx)
        lines: list[str] = []
        if phase is _LOBBY:
            lines.append(
                ctx.t("sept.lobby", buy_in=opts.buy_in, fund=opts.guarantee_fund, deck=opts.deck)
            )
        elif view.banker is not None:
            lines += self._bank_lines(ctx)
        if phase not in (_LOBBY, _FINISHED):  # the fund is closed at the end
            lines.append(self._fund_line(ctx))
        lines.append(self._prompt(ctx))
        votes = view.votes
        if votes and phase is not _FINISHED:
            needed = view.votes_needed
            lines.append(f"{VOTE} " + ctx.t("sept.votes", n=len(votes), needed=needed))
        if view.stop_pending:
            lines.append(ctx.t("sept.stop_after_round"))
        result = view.result
        if phase is _FINISHED and result:
            lines.append(self._reason(ctx, result))
        return lines

    def _bank_lines(self, ctx: Ctx) -> list[str]:
        """The bank's hand (face down until its turn); between rounds, the bank of the
        round just played, then who holds it next."""
        bank = own(ctx).bank
        shown, hidden = bank.shown, bank.hidden
        hand = hand_of(ctx, shown, hidden, bank.total) if shown or hidden else "—"
        if hidden and bank.total is None:
            hand += " · " + ctx.t("sept.bank_face_down")
        last = last_round(ctx)
        banker = mention(bank.banker)
        if ctx.phase not in (_BETWEEN, _FINISHED) or last is None:
            return [f"{BANK} " + ctx.t("sept.bank", banker=banker, cards=hand)]
        lines = [f"{BANK} " + ctx.t("sept.last_bank", banker=mention(last.banker), cards=hand)]
        if ctx.phase is _BETWEEN:
            lines.append(ctx.t("sept.next_banker", banker=banker))
        return lines

    @staticmethod
    def _fund_line(ctx: Ctx) -> str:
        view = own(ctx)
        fund = view.fund
        amount, initial = fund.balance, fund.initial
        parts = [f"{FUND} " + ctx.t("sept.fund", amount=amount, initial=initial)]
        if view.rounds_limit:
            limit = view.rounds_limit
            parts.append(ctx.t("sept.rounds_of", n=ctx.view.round, limit=limit))
        return " · ".join(parts)

    @staticmethod
    def _prompt(ctx: Ctx) -> str:
        """What the player (or banker) whose turn it is has to do."""
        game, phase = ctx.table.game, ctx.phase
        to_act = game.to_act
        if to_act is None:
            return ""
        player = mention(to_act)
        if phase is _BETTING:
            low, high = game.bet_limits(to_act)
            return ctx.t("sept.prompt.bet", player=player, min=low, max=high)
        if phase is _PLAYING:
            me = ctx.view.seat(to_act)
            pending = me is not None and checked(SeptSeatView, me).pending
            key = "sept.prompt.choose" if pending else "sept.prompt.play"
            return ctx.t(key, player=player)
        return ctx.t("sept.prompt.bank", player=player) if phase is _BANK else ""

    def fields(self, ctx: Ctx) -> Iterable[tuple[str, str]]:
        result = own(ctx).result
        if ctx.phase is _FINISHED and result:  # every stack is cashed out: the ranking
            yield ctx.t("sept.ranking"), "\n".join(self._ranking_lines(ctx, result)) or "—"
            return
        yield from super().fields(ctx)

    def seat_lines(self, ctx: Ctx, seat: SeatView) -> list[str]:
        """Turn or bank mark, stack, bet, the hand (hidden card as a card back), status,
        and between rounds the last round's result."""
        seat = checked(SeptSeatView, seat)
        pid, phase = seat.player, ctx.phase
        playing = phase not in (_LOBBY, _FINISHED)
        banker = seat.banker and playing
        if pid == ctx.table.game.to_act and phase in (_BETTING, _PLAYING):
            marker = TURN
        else:
            marker = BANK if banker else "　"
        parts = [f"{marker} {mention(pid)}", ctx.t("table.stack", amount=seat.stack)]
        if banker:
            parts.append(ctx.t("sept.banker"))
        if seat.bet:
            parts.append(ctx.t("table.bet", amount=seat.bet))
        parts += self._hand_part(ctx, seat)
        status = seat.status
        if playing and status in ("dealt", "sat_out", "bust"):
            parts.append(ctx.t(f"sept.status.{status}"))
        elif playing and status == "stood" and phase is not _BETWEEN:
            parts.append(ctx.t("sept.status.stood"))
        elif playing and seat.pending:
            parts.append(ctx.t("sept.status.choosing"))
        last = last_round(ctx)
        if phase is _BETWEEN and last is not None:
            row = next((r for r in last.results if r.player == pid), None)
            if row is not None:
                rule = ctx.t(f"sept.rule_short.{row.rule}")
                parts.append(f"{rule} {signed(row.net)}")
        if seat.voted_stop and phase is not _FINISHED:
            parts.append(VOTE)
        return [" · ".join(parts)]

    @staticmethod
    def _hand_part(ctx: Ctx, seat: SeptSeatView) -> list[str]:
        shown, hidden = seat.shown, seat.hidden
        if not shown and not hidden:
            return []
        hand = cards([*([None] * hidden), *shown])
        if seat.pending:
            hand += " + " + card(None) + "?"
        if seat.total is not None:
            hand += " " + half(seat.total)
        elif shown:
            hand += " " + ctx.t("sept.shown_total", total=fmt(seat.shown_total))
        return [hand]

    def terms(self, ctx: Ctx) -> list[str]:
        """The guarantee fund, while the message shows it (the lobby, the rounds)."""
        fund = options(ctx).guarantee_fund
        return [ctx.t("terms.fund")] if fund and ctx.phase is not _FINISHED else []

    # ----------------------------------------------------------------- buttons
    def button_key(self, ctx: Ctx) -> Any:
        """The common key, with the range of the quick bets while there are bets (who is
        to bet changes at each bet: the buttons do only when the range does)."""
        game = ctx.table.game
        if ActionKind.BET not in game.seated_legal():
            return (super().button_key(ctx), None)
        to_act = game.to_act
        return (super().button_key(ctx), None if to_act is None else game.bet_limits(to_act))

    def buttons(self, ctx: Ctx) -> list[ButtonSpec]:
        specs = super().buttons(ctx)
        if ctx.phase is _BANK:  # the bank's Hit / Stand carry the bank's mark
            specs = [
                ButtonSpec(s.move, s.label, s.style, s.arg, s.row, BANK)
                if s.move in ("hit", "stand")
                else s
                for s in specs
            ]
        return specs

    def move_buttons(self, ctx: Ctx, kinds: set[ActionKind]) -> list[ButtonSpec]:
        # Show / Hide first: they are what the player must do after a new card.
        # Sit out goes below the bet row (four quick bets and "Other amount" fill it).
        out = [
            ButtonSpec(s.move, s.label, s.style, s.arg, 2, s.emoji) if s.move == "sit_out" else s
            for s in super().move_buttons(ctx, kinds)
        ]
        order = {"show": 0, "swap": 1}
        return sorted(out, key=lambda s: order.get(s.move, 2))

    def bet_buttons(self, ctx: Ctx) -> list[ButtonSpec]:
        """Quick bets for the player to bet: the minimum, a quarter, half and all of the
        maximum (half the stack), and an 'other amount' modal."""
        game = ctx.table.game
        to_act = game.to_act
        out: list[ButtonSpec] = []
        if to_act is not None:
            low, high = game.bet_limits(to_act)
            amounts = sorted({a for a in (low, high // 4, high // 2, high) if low <= a <= high})
            out = [
                ButtonSpec("bet", ctx.t("move.bet_n", amount=a), GREEN, arg=a, row=1)
                for a in amounts
            ]
        out.append(ButtonSpec("bet_modal", ctx.t("move.bet_other"), GREEN, row=1))
        return out

    # ----------------------------------------------------------------- announcements
    def announcements(self, ctx: Ctx, events: list[Event]) -> list[str]:
        """Each round's summary, with the showdown and the players out of that round;
        then the end of the game."""
        public = [e for e in events if e.visibility is Visibility.PUBLIC]
        out: list[str] = []
        start = 0
        for i, event in enumerate(public):
            if event.kind != ROUND_SETTLED:
                continue
            ends = (j for j in range(i + 1, len(public)) if public[j].kind == "round_started")
            out.append(self.round_text(ctx, event, public[start : next(ends, len(public))]))
            start = i + 1
        out.append(self.final(ctx, events))
        return [text for text in out if text]

    def summary(self, ctx: Ctx, event: Event) -> str:
        return self.round_text(ctx, event, [event])

    # ----------------------------------------------------------------- forum pings
    # after these the game may wait for someone else: the deal and each bet or sit-out (the
    # bets go round one player at a time), a player's turn, the bank's card shown (its turn)
    TURN_MOVES = frozenset({"deal", "bet", "sat_out", "turn", "bank_reveal"})

    def pings(
        self, ctx: Ctx, events: list[Event], actor: int | None
    ) -> tuple[str, list[int]] | None:
        """At forum pace: ping whoever the game now waits for (a bettor, a player, the
        banker), unless they made this move themselves and simply play on."""
        to_act = ctx.table.game.to_act
        if ctx.phase not in IN_ROUND or to_act in (None, actor):
            return "", []
        if not any(e.kind in self.TURN_MOVES for e in events):
            return "", []
        return ctx.t("table.your_turn", player=mention(to_act)), [to_act]

    def round_text(self, ctx: Ctx, event: Event, batch: list[Event]) -> str:
        """The round summary: the bank, each player with the settlement rule applied, the
        fund's payments and any shortfall, the banker's net, players out."""
        data = checked(SeptRound, ctx.table.game.summary_of(event.data))
        showdown = {e.data["player"]: list(e.data["cards"]) for e in batch if e.kind == "showdown"}
        for row in data.results:  # a bust's hand, shown when it went over
            if row.cards:
                showdown.setdefault(row.player, list(row.cards))
        bank_total = data.bank_total
        bank = f"{cards(data.bank_cards)} {half(bank_total)}"
        if bank_total > SEPT_ET_DEMI:
            bank += " · " + ctx.t("sept.status.bust")
        banker = mention(data.banker)
        lines = [
            ctx.t("summary.title", n=data.round),
            f"{BANK} " + ctx.t("sept.bank", banker=banker, cards=bank),
        ]
        results = seat_sorted(ctx, data.results)
        lines += [self._result_line(ctx, row, showdown) for row in results]
        if not data.results:
            lines.append(ctx.t("sept.nobody_played"))
        net = signed(data.banker_net)
        lines.append(f"{BANK} " + ctx.t("sept.banker_net", banker=banker, net=net))
        if data.fund_paid or data.shortfall:
            paid, left = data.fund_paid, data.fund_left
            lines.append(f"{FUND} " + ctx.t("sept.fund_paid", amount=paid, left=left))
        if data.shortfall:
            lines.append("⚠️ " + ctx.t("sept.shortfall", amount=data.shortfall))
        for e in batch:
            if e.kind == LEFT and departure(e.data).reason == "empty_stack":
                lines.append(ctx.t("sept.player_out", player=mention(e.player)))
        return "\n".join(lines)

    @staticmethod
    def _result_line(ctx: Ctx, row: SeptResult, showdown: dict[int, list[str]]) -> str:
        """One player's result: hand, total, rule, net; who paid a win when the bank ran
        short (the fund, pro rata), and what stayed unpaid."""
        pid = row.player
        hand = cards(showdown[pid]) + " " if pid in showdown else ""
        rule, net = ctx.t(f"sept.rule.{row.rule}"), signed(row.net)
        line = f"{mention(pid)} {hand}{half(row.total)} — {rule} · **{net}**"
        if row.outcome != "win":
            return line
        bits = []
        if row.paid_by_fund or row.shortfall:
            bits.append(ctx.t("sept.paid_by_bank", amount=row.paid_by_bank))
        if row.paid_by_fund:
            share = ctx.t("sept.paid_by_fund", amount=row.paid_by_fund)
            if row.exact_fund_share:
                share += f" ({ctx.t('sept.pro_rata', exact=row.exact_fund_share)})"
            bits.append(share)
        if row.shortfall:
            bits.append(ctx.t("sept.unpaid", amount=row.shortfall))
        return line + (" (" + ", ".join(bits) + ")" if bits else "")

    def final(self, ctx: Ctx, events: list[Event]) -> str:
        over = next((e for e in events if e.kind == "game_over"), None)
        if over is None:
            return ""
        result = sept_game_over(over.data)
        lines = [ctx.t("sept.final_title"), self._reason(ctx, result)]
        lines.extend(self._ranking_lines(ctx, result))
        returned = sum(m.amount for m in over.money if m.kind is MoneyKind.FUND_CLOSE)
        if returned:
            lines.append(f"{FUND} " + ctx.t("sept.fund_returned", amount=returned))
        lines.append(ctx.t("table.closed_summary"))
        return "\n".join(lines)

    @staticmethod
    def _reason(ctx: Ctx, result: SeptGameOver) -> str:
        reason, n = result.reason, result.rounds_played
        if reason == "closed" and n == 0:  # during the first round, or before it
            started = ctx.view.round >= 1
            return ctx.t("sept.end.during_first" if started else "sept.end.before_start")
        rounds = ctx.t("count.rounds.one") if n == 1 else ctx.t("count.rounds.other", n=n)
        return ctx.t(f"sept.end.{reason}", n=n, rounds=rounds)

    @staticmethod
    def _ranking_lines(ctx: Ctx, result: SeptGameOver) -> list[str]:
        return [
            f"{MEDALS.get(r.rank, str(r.rank) + '.')} {mention(r.player)} — "
            + ctx.t("table.stack", amount=r.stack)
            for r in result.ranking
        ]

    # ----------------------------------------------------------------- changes, answers
    news_kinds = GameRenderer.news_kinds | {"bank_stand", ROUND_SETTLED}

    def change_lines(self, ctx: Ctx, events: list[Event], actor: int | None) -> list[str]:
        """The common changes, the bank standing when its timer ran out, and the bank
        passing on after a round."""
        out = super().change_lines(ctx, events, actor)
        for e in events:
            if e.kind == "bank_stand" and self.by_timer(e):
                who = mention(e.data.get("banker"))
                out.append("⏱ " + ctx.t("news.timeout.bank", player=who))
            elif e.kind == ROUND_SETTLED and ctx.table.is_open:
                banker = own(ctx).banker
                settled = checked(SeptRound, ctx.table.game.summary_of(e.data))
                if banker is not None and banker != settled.banker:
                    out.append(f"{BANK} " + ctx.t("news.banker", player=mention(banker)))
        return out

    def move_answer(self, ctx: Ctx, events: list[Event], player: int) -> list[str]:
        """The banker's own moves (the bank's cards, public), then the common answer."""
        out: list[str] = []
        for e in events:
            if e.data.get("banker") != player or e.kind not in ("bank_hit", "bank_stand"):
                continue
            total = half(e.data.get("total"))
            if e.kind == "bank_hit":
                drawn = cards([e.data.get("card")])
                out.append(ctx.t("answer.sept.bank_hit", card=drawn, total=total))
                if int(e.data.get("total", 0)) > SEPT_ET_DEMI:
                    out.append(ctx.t("answer.sept.bank_bust"))
            elif not self.by_timer(e):
                out.append(ctx.t("answer.sept.bank_stand", total=total))
        return out + super().move_answer(ctx, events, player)

    def round_net(self, summary: RoundSummary, player: int) -> int | None:
        """A player's net, or the banker's: what the bank took and paid."""
        settled = checked(SeptRound, summary)
        if settled.banker == player:
            return settled.banker_net
        return super().round_net(summary, player)

    def answer_line(self, ctx: Ctx, e: Event, events: list[Event]) -> str | None:
        """The card a player showed (or showed instead of the new one), a bust's card."""
        data = e.data
        if e.kind in ("show", "swap"):
            shown = cards([data.get("card")])
            return ctx.t(f"answer.sept.{e.kind}", card=shown, total=half(data.get("shown_total")))
        if e.kind == "bust":
            drawn, total = cards([data.get("card")]), half(data.get("total"))
            return ctx.t("answer.sept.bust", card=drawn, total=total, bet=data.get("bet"))
        return super().answer_line(ctx, e, events)

    # ----------------------------------------------------------------- private
    def private_event(self, ctx: Ctx, e: Event) -> list[str]:
        """The DM: the card dealt face down, a new card drawn, the card hidden now."""
        data = e.data
        mine, total = cards([data["card"]]), fmt(int(data.get("total", 0)))
        if e.kind == "hidden_card":
            return [ctx.t("sept.dm.hidden_now", card=mine, total=total)]
        if data.get("hidden"):
            n = ctx.view.round
            return [ctx.t("sept.dm.deal", round=n, card=mine, total=total)]
        if data.get("pending"):
            other = cards([data.get("hidden_card")])
            return [ctx.t("sept.dm.drawn", card=mine, hidden=other, total=total)]
        return []

    def hand_text(self, ctx: Ctx, player: int) -> str:
        game = ctx.table.game
        view = game.private_view(player)
        seat = view.table.seat(player)
        if seat is None:
            return ctx.t("hand.not_seated")
        me, you = checked(SeptSeatView, seat), checked(SeptYou, view.you.own)
        lines: list[str] = []
        if me.banker and game.phase in IN_ROUND:
            bank = checked(SeptPart, view.table.own).bank
            back: list[str | None] = [None] * bank.hidden
            lines.append(ctx.t("sept.hand.banker", cards=cards(back + list(bank.shown))))
        hidden, shown = you.hidden, me.shown
        if hidden is None and not shown:
            return "\n".join(lines or [ctx.t("sept.hand.none")])
        if hidden is not None:
            lines.append(ctx.t("sept.hand.hidden", card=cards([hidden])))
        if shown:
            lines.append(ctx.t("sept.hand.shown", cards=cards(shown)))
        if you.pending is not None:
            lines.append(ctx.t("sept.hand.pending", card=cards([you.pending])))
        lines.append(ctx.t("sept.hand.total", total=half(you.total)))
        return "\n".join(lines)


register("sept_et_demi", Renderer())
