"""How a Black Jack table looks: the dealer's hand, then every player's hands."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from bot.engine.base import Event
from bot.i18n import decimal
from bot.ui.cards import cards

from .common import Ctx, GameRenderer, mention, register


def _total(ctx: Ctx, total: int | None, soft: bool) -> str:
    if total is None:
        return ""
    return ctx.t("classic.soft_total", total=f"**{total}**") if soft else f"**{total}**"


class Renderer(GameRenderer):
    """The Black Jack table."""

    def body(self, ctx: Ctx) -> list[str]:
        dealer = ctx.view.get("dealer") or {}
        if not dealer.get("cards"):
            return []
        total = _total(ctx, dealer.get("total"), bool(dealer.get("soft")))
        return [ctx.t("classic.dealer", cards=cards(dealer["cards"]), total=total)]

    def fields(self, ctx: Ctx) -> Iterable[tuple[str, str]]:
        view = ctx.view
        hands_by_player: dict[int, list[dict[str, Any]]] = {}
        for hand in view.get("hands") or []:
            hands_by_player.setdefault(hand["player"], []).append(hand)
        current = view.get("current_hand")
        lines = []
        for seat in view.get("seats") or []:
            pid = seat["player"]
            head = f"{mention(pid)} · " + ctx.t("table.stack", amount=seat["stack"])
            if seat.get("bet"):
                head += " · " + ctx.t("table.bet", amount=seat["bet"])
            elif pid in (view.get("pending_bets") or []):
                head += " · " + ctx.t("classic.betting")
            lines.append(head)
            for hand in hands_by_player.get(pid, []):
                marker = "▶ " if hand["index"] == current else "　"
                status = ctx.t(f"classic.status.{hand['status']}") if hand.get("status") else ""
                line = f"{marker}{cards(hand['cards'])} {_total(ctx, hand['total'], hand['soft'])}"
                extras = [ctx.t("table.bet", amount=hand["bet"])]
                if hand.get("doubled"):
                    extras.append(ctx.t("classic.doubled"))
                if status:
                    extras.append(status)
                if hand.get("result"):
                    extras.append(f"{ctx.t('classic.result.' + hand['result'])} {hand['net']:+d}")
                lines.append(line + " · " + " · ".join(extras))
        for ins in view.get("insurance") or []:
            lines.append(
                ctx.t("classic.insured", player=mention(ins["player"]), amount=ins["amount"])
            )
        yield (
            ctx.t("table.seats", n=len(view.get("seats") or [])),
            ("\n".join(lines) or ctx.t("table.no_seats")),
        )

    def hand_text(self, ctx: Ctx, player: int) -> str:
        """``/hand``: the player's hands (all public at Black Jack)."""
        hands = [h for h in ctx.view.get("hands") or [] if h["player"] == player]
        if not any(s["player"] == player for s in ctx.view.get("seats") or []):
            return ctx.t("hand.not_seated")
        shown = " | ".join(
            f"{cards(h['cards'])} {_total(ctx, h['total'], h['soft'])}" for h in hands
        )
        return ctx.t("hand.public_only", cards=shown or "—")

    def summary(self, ctx: Ctx, event: Event) -> str:
        data = dict(event.data)
        lines = [ctx.t("summary.title", n=data.get("round", "?"))]
        dealer = ctx.t(
            "classic.dealer",
            cards=cards(data.get("dealer", [])),
            total=f"**{data.get('dealer_total')}**",
        )
        if data.get("dealer_blackjack"):
            dealer += " · " + ctx.t("classic.status.blackjack")
        elif data.get("dealer_bust"):
            dealer += " · " + ctx.t("classic.status.bust")
        lines.append(dealer)
        for hand in data.get("hands", []):
            net = int(hand.get("net", 0))
            exact = hand.get("exact_net")
            figure = f"{net:+d}" + (
                f" ({ctx.t('summary.exact', exact=decimal(exact, ctx.locale))})" if exact else ""
            )
            result = ctx.t("classic.result." + hand["result"]) if hand.get("result") else ""
            lines.append(
                f"{mention(hand['player'])} {cards(hand['cards'])} "
                f"**{hand['total']}** · {result} {figure}"
            )
        for ins in data.get("insurance", []):
            lines.append(
                ctx.t(
                    "classic.insurance_result",
                    player=mention(ins["player"]),
                    net=f"{int(ins['net']):+d}",
                )
            )
        return "\n".join(lines)


register("classic", Renderer())
