"""How a Black Jack table looks: the dealer's hand, then every player's hands."""

from __future__ import annotations

from bot.engine.base import ActionKind, Event, Phase
from bot.engine.events import ROUND_STARTED
from bot.engine.summaries import BlackjackRound
from bot.engine.views import BlackjackPart, HandView, SeatView
from bot.i18n import decimal
from bot.ui.cards import cards

from .common import Ctx, GameRenderer, checked, mention, register, rounded, seat_sorted


def own(ctx: Ctx) -> BlackjackPart:
    """The Black Jack part of the table's view."""
    return checked(BlackjackPart, ctx.view.own)


def _total(ctx: Ctx, total: int | None, soft: bool) -> str:
    if total is None:
        return ""
    return ctx.t("blackjack.soft_total", total=f"**{total}**") if soft else f"**{total}**"


class Renderer(GameRenderer):
    """The Black Jack table."""

    def body(self, ctx: Ctx) -> list[str]:
        dealer = own(ctx).dealer
        if not dealer.cards:
            return []
        total = _total(ctx, dealer.total, dealer.soft)
        return [ctx.t("blackjack.dealer", cards=cards(dealer.cards), total=total)]

    def seat_lines(self, ctx: Ctx, seat: SeatView) -> list[str]:
        """The seat (stack, bet or "betting…"), then each of its hands."""
        view, part = ctx.view, own(ctx)
        pid = seat.player
        head = f"{mention(pid)} · " + ctx.t("table.stack", amount=seat.stack)
        if seat.bet:
            head += " · " + ctx.t("table.bet", amount=seat.bet)
        elif ctx.phase is Phase.BETTING and pid in view.waiting:
            head += " · " + ctx.t("blackjack.betting")
        current = part.current_hand
        lines = [head]
        for hand in part.hands:
            if hand.player == pid:
                lines.append(self.hand_line(ctx, hand, hand.index == current))
        return lines

    @staticmethod
    def hand_line(ctx: Ctx, hand: HandView, current: bool) -> str:
        """One hand: its cards and total, bet, doubled, status, result."""
        marker = "▶ " if current else "　"
        status = ctx.t(f"blackjack.status.{hand.status}") if hand.status else ""
        line = f"{marker}{cards(hand.cards)} {_total(ctx, hand.total, hand.soft)}"
        extras = [ctx.t("table.bet", amount=hand.bet)]
        if hand.doubled:
            extras.append(ctx.t("blackjack.doubled"))
        result = ctx.t("blackjack.result." + hand.result) if hand.result else ""
        if status and status != result:  # "bust · bust -10" says it twice
            extras.append(status)
        if result:
            extras.append(f"{result} {hand.net:+d}")
        return line + " · " + " · ".join(extras)

    def table_lines(self, ctx: Ctx) -> list[str]:
        """Who is insured, for how much."""
        return [
            ctx.t("blackjack.insured", player=mention(ins.player), amount=ins.amount)
            for ins in own(ctx).insurance
        ]

    def hand_text(self, ctx: Ctx, player: int) -> str:
        """``/hand``: the player's hands (all public at Black Jack)."""
        hands = [h for h in own(ctx).hands if h.player == player]
        if ctx.view.seat(player) is None:
            return ctx.t("hand.not_seated")
        shown = " | ".join(f"{cards(h.cards)} {_total(ctx, h.total, h.soft)}" for h in hands)
        return ctx.t("hand.public_only", cards=shown or "—")

    def summary(self, ctx: Ctx, event: Event) -> str:
        data = checked(BlackjackRound, ctx.table.game.summary_of(event.data))
        lines = [ctx.t("summary.title", n=data.round)]
        dealer = ctx.t(
            "blackjack.dealer", cards=cards(data.dealer), total=f"**{data.dealer_total}**"
        )
        if data.dealer_blackjack:
            dealer += " · " + ctx.t("blackjack.status.blackjack")
        elif data.dealer_bust:
            dealer += " · " + ctx.t("blackjack.status.bust")
        lines.append(dealer)
        for hand in seat_sorted(ctx, data.hands):
            exact = hand.exact_net
            figure = f"{hand.net:+d}" + (
                f" ({ctx.t('summary.exact', exact=decimal(exact, ctx.locale))})"
                if rounded(exact)
                else ""
            )
            result = ctx.t("blackjack.result." + hand.result) if hand.result else ""
            lines.append(
                f"{mention(hand.player)} {cards(hand.cards)} **{hand.total}** · {result} {figure}"
            )
        for ins in data.insurance:
            net = f"{ins.net:+d}"
            lines.append(ctx.t("blackjack.insurance_result", player=mention(ins.player), net=net))
        return "\n".join(lines)

    # ----------------------------------------------------------------- forum pings
    def pings(
        self, ctx: Ctx, events: list[Event], actor: int | None
    ) -> tuple[str, list[int]] | None:
        """At forum pace: everyone who may bet when the bets open, everyone asked about
        insurance when the dealer shows an ace; then (None) the player whose turn begins."""
        kinds = {e.kind for e in events}
        if ctx.phase is Phase.BETTING and ROUND_STARTED in kinds:
            key, move = "blackjack.ping.bets", ActionKind.BET
        elif ctx.phase is Phase.INSURANCE and "insurance_offered" in kinds:
            key, move = "blackjack.ping.insurance", ActionKind.INSURANCE
        else:
            return None
        game = ctx.table.game
        players = [p for p in game.seated() if p != actor and move in game.legal_actions(p)]
        if not players:
            return "", []
        return ctx.t(key, players=" ".join(mention(p) for p in players)), players


register("blackjack", Renderer())
