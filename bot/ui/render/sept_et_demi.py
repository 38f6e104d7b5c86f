"""How a Sept et demi table looks: the bank (face down until its turn), every player's
shown cards and one card back for the hidden card, the guarantee fund, the round summaries
and the final ranking. Private cards go by DM (and ``/hand``), never in a public message."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from bot.engine.base import ROUND_SETTLED, ActionKind, Event, MoneyKind, Phase, Visibility
from bot.engine.hands import format_half_points
from bot.ui.buttons import ButtonSpec
from bot.ui.cards import card, cards

from .common import GREEN, Ctx, GameRenderer, mention, register

BANK = "🏦"
FUND = "🛡️"
VOTE = "✋"
TURN = "▶"


def fmt(points: int) -> str:
    """Half-points as players write them: 15 -> 7½, 1 -> ½, 4 -> 2."""
    return "½" if points == 1 else format_half_points(points)


def half(points: int | None) -> str:
    """Half-points in bold: 15 -> **7½**."""
    return "" if points is None else f"**{fmt(int(points))}**"


def signed(amount: int) -> str:
    """+20 / −10 (a true minus sign)."""
    return f"+{amount}" if amount > 0 else (f"−{-amount}" if amount < 0 else "±0")


class Renderer(GameRenderer):
    """The Sept et demi table."""

    has_private_cards = True

    # ----------------------------------------------------------------- the embed
    def body(self, ctx: Ctx) -> list[str]:
        view = ctx.view
        game = ctx.table.game
        phase = ctx.phase
        lines: list[str] = []
        options = view.get("options") or {}
        if phase is Phase.LOBBY:
            lines.append(
                ctx.t(
                    "sept.lobby",
                    buy_in=options.get("buy_in"),
                    fund=options.get("guarantee_fund"),
                    deck=options.get("deck"),
                )
            )
        bank = view.get("bank") or {}
        banker = view.get("banker")
        if phase is not Phase.LOBBY and banker is not None:
            shown = list(bank.get("shown") or [])
            hidden = int(bank.get("hidden") or 0)
            if shown or hidden:
                hand = cards([*([None] * hidden), *shown])
                total = bank.get("total")
                if total is not None:
                    hand += " · " + half(total)
                    if total > 15:
                        hand += " · " + ctx.t("sept.status.bust")
                elif hidden:
                    hand += " · " + ctx.t("sept.bank_face_down")
            else:
                hand = "—"
            last = view.get("last_round") or {}
            if phase in (Phase.BETWEEN_ROUNDS, Phase.FINISHED) and last:
                # the bank of the round just played, then who holds it next
                who = mention(last.get("banker"))
                lines.append(f"{BANK} " + ctx.t("sept.last_bank", banker=who, cards=hand))
                if phase is Phase.BETWEEN_ROUNDS:
                    lines.append(ctx.t("sept.next_banker", banker=mention(banker)))
            else:
                lines.append(f"{BANK} " + ctx.t("sept.bank", banker=mention(banker), cards=hand))
        fund = view.get("fund") or {}
        extras = [
            f"{FUND} "
            + ctx.t("sept.fund", amount=fund.get("balance", 0), initial=fund.get("initial", 0))
        ]
        limit = view.get("rounds_limit")
        if limit:
            extras.append(ctx.t("sept.rounds_of", n=view.get("round") or 0, limit=limit))
        if phase not in (Phase.LOBBY, Phase.FINISHED):  # the fund is closed at the end
            lines.append(" · ".join(extras))
        to_act = game.to_act
        if phase is Phase.BETTING and to_act is not None:
            rng = game.bet_range(to_act)  # type: ignore[union-attr, arg-type]
            if rng:
                lines.append(
                    ctx.t("sept.prompt.bet", player=mention(to_act), min=rng[0], max=rng[1])
                )
        elif phase is Phase.PLAYING and to_act is not None:
            me = self._seat(view, to_act) or {}
            key = "sept.prompt.choose" if me.get("pending") else "sept.prompt.play"
            lines.append(ctx.t(key, player=mention(to_act)))
        elif phase is Phase.BANK and to_act is not None:
            lines.append(ctx.t("sept.prompt.bank", player=mention(to_act)))
        votes = view.get("votes") or []
        if votes and phase is not Phase.FINISHED:
            lines.append(
                f"{VOTE} " + ctx.t("sept.votes", n=len(votes), needed=view.get("votes_needed"))
            )
        if view.get("stop_pending"):
            lines.append(ctx.t("sept.stop_after_round"))
        result = view.get("result")
        if phase is Phase.FINISHED and result:
            lines.append(self._reason(ctx, result))
        return lines

    def fields(self, ctx: Ctx) -> Iterable[tuple[str, str]]:
        view = ctx.view
        result = view.get("result")
        if ctx.phase is Phase.FINISHED and result:  # every stack is cashed out: the ranking
            ranking = "\n".join(self._ranking_lines(ctx, result))
            yield ctx.t("sept.ranking"), ranking or "—"
            return
        to_act = ctx.table.game.to_act
        last = view.get("last_round") or {}
        between = ctx.phase is Phase.BETWEEN_ROUNDS
        nets = {r["player"]: r for r in last.get("results", [])} if between else {}
        lines = []
        for p in view.get("players") or []:
            if not p.get("seated"):
                continue
            lines.append(self._seat_line(ctx, p, to_act, nets.get(p["id"])))
        yield (
            ctx.t("table.seats", n=len(lines)),
            "\n".join(lines) or ctx.t("table.no_seats"),
        )

    def _seat_line(
        self, ctx: Ctx, p: dict[str, Any], to_act: int | None, result: dict[str, Any] | None
    ) -> str:
        pid = p["id"]
        playing = ctx.phase not in (Phase.LOBBY, Phase.FINISHED)
        if pid == to_act and ctx.phase in (Phase.BETTING, Phase.PLAYING):
            marker = TURN
        elif p.get("banker") and playing:
            marker = BANK
        else:
            marker = "　"
        parts = [f"{marker} {mention(pid)}", ctx.t("table.stack", amount=p["stack"])]
        if p.get("banker") and playing:
            parts.append(ctx.t("sept.banker"))
        if p.get("bet"):
            parts.append(ctx.t("table.bet", amount=p["bet"]))
        shown = list(p.get("shown") or [])
        hidden = int(p.get("hidden") or 0)
        if shown or hidden:
            hand = cards([*([None] * hidden), *shown])
            if p.get("pending"):
                hand += " + " + card(None) + "?"
            if p.get("total") is not None:
                hand += " " + half(p["total"])
            elif shown:
                hand += " " + ctx.t("sept.shown_total", total=fmt(int(p["shown_total"])))
            parts.append(hand)
        status = p.get("status")
        if (
            playing
            and status in ("dealt", "sat_out", "stood", "bust")
            and not (status == "stood" and ctx.phase is Phase.BETWEEN_ROUNDS)
        ):
            parts.append(ctx.t(f"sept.status.{status}"))
        elif playing and p.get("pending"):
            parts.append(ctx.t("sept.status.choosing"))
        if result is not None:
            parts.append(
                ctx.t(f"sept.rule_short.{result['rule']}") + " " + signed(int(result["net"]))
            )
        if p.get("voted_stop") and ctx.phase is not Phase.FINISHED:
            parts.append(VOTE)
        return " · ".join(parts)

    @staticmethod
    def _seat(view: dict[str, Any], player: int) -> dict[str, Any] | None:
        for p in view.get("players") or []:
            if p.get("id") == player:
                return dict(p)
        return None

    # ----------------------------------------------------------------- buttons
    def buttons(self, ctx: Ctx) -> list[ButtonSpec]:
        specs = super().buttons(ctx)
        if ctx.phase is Phase.BANK:  # the bank's Carte ! / Servi carry the bank's mark
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
        rng = game.bet_range(to_act) if to_act is not None else None  # type: ignore[union-attr, arg-type]
        out: list[ButtonSpec] = []
        if rng:
            low, high = rng
            amounts = sorted({a for a in (low, high // 4, high // 2, high) if low <= a <= high})
            out = [
                ButtonSpec("bet", ctx.t("move.bet_n", amount=a), GREEN, arg=a, row=1)
                for a in amounts
            ]
        out.append(ButtonSpec("bet_modal", ctx.t("move.bet_other"), GREEN, row=1))
        return out

    # ----------------------------------------------------------------- announcements
    def announcements(self, ctx: Ctx, events: list[Event]) -> list[str]:
        out: list[str] = []
        public = [e for e in events if e.visibility is Visibility.PUBLIC]
        for i, event in enumerate(public):
            if event.kind == ROUND_SETTLED:
                # the showdown and the players out of this round come with it
                start = max(
                    (j + 1 for j, e in enumerate(public[:i]) if e.kind == ROUND_SETTLED),
                    default=0,
                )
                nxt = next(
                    (j for j, e in enumerate(public) if j > i and e.kind == "round_started"),
                    len(public),
                )
                out.append(self.round_text(ctx, event, public[start:nxt]))
        final = self.final(ctx, events)
        if final:
            out.append(final)
        return [text for text in out if text]

    def summary(self, ctx: Ctx, event: Event) -> str:
        return self.round_text(ctx, event, [event])

    # ----------------------------------------------------------------- forum pings
    # after these the game may wait for someone else: the deal and each bet or sit-out (the
    # bets go round one player at a time), a player's turn, the bank's card shown (its turn)
    TURN_MOVES = frozenset({"deal", "bet", "sit_out", "turn", "bank_reveal"})

    def pings(
        self, ctx: Ctx, events: list[Event], actor: int | None
    ) -> tuple[str, list[int]] | None:
        """At forum pace: ping whoever the game now waits for (a bettor, a player, the
        banker), unless they made this move themselves and simply play on."""
        to_act = ctx.table.game.to_act
        if ctx.phase not in (Phase.BETTING, Phase.PLAYING, Phase.BANK) or to_act in (None, actor):
            return "", []
        if not any(e.kind in self.TURN_MOVES for e in events):
            return "", []
        return ctx.t("table.your_turn", player=mention(to_act)), [to_act]

    def round_text(self, ctx: Ctx, event: Event, batch: list[Event]) -> str:
        """The round summary: the bank, each player with the settlement rule applied, the
        fund's payments and any shortfall, the banker's net, players out."""
        data = dict(event.data)
        showdown = {e.data["player"]: list(e.data["cards"]) for e in batch if e.kind == "showdown"}
        if ctx.view.get("round") == data.get("round"):  # busted hands are still in the view
            for p in ctx.view.get("players") or []:
                if p.get("status") == "bust" and p.get("shown"):
                    showdown.setdefault(p["id"], list(p["shown"]))
        lines = [ctx.t("summary.title", n=data.get("round", "?"))]
        bank_total = int(data.get("bank_total", 0))
        bank = f"{cards(data.get('bank_cards', []))} {half(bank_total)}"
        if bank_total > 15:
            bank += " · " + ctx.t("sept.status.bust")
        lines.append(
            f"{BANK} " + ctx.t("sept.bank", banker=mention(data.get("banker")), cards=bank)
        )
        for row in data.get("results", []):
            pid = row["player"]
            hand = cards(showdown[pid]) + " " if pid in showdown else ""
            line = (
                f"{mention(pid)} {hand}{half(row.get('total'))} — "
                + ctx.t(f"sept.rule.{row['rule']}")
                + f" · **{signed(int(row['net']))}**"
            )
            if row.get("outcome") == "win":
                bits = []
                if row.get("paid_by_fund") or row.get("shortfall"):
                    bits.append(ctx.t("sept.paid_by_bank", amount=row.get("paid_by_bank", 0)))
                if row.get("paid_by_fund"):
                    share = ctx.t("sept.paid_by_fund", amount=row["paid_by_fund"])
                    if row.get("exact_fund_share"):
                        share += f" ({ctx.t('sept.pro_rata', exact=row['exact_fund_share'])})"
                    bits.append(share)
                if row.get("shortfall"):
                    bits.append(ctx.t("sept.unpaid", amount=row["shortfall"]))
                if bits:
                    line += " (" + ", ".join(bits) + ")"
            lines.append(line)
        if not data.get("results"):
            lines.append(ctx.t("sept.nobody_played"))
        lines.append(
            f"{BANK} "
            + ctx.t(
                "sept.banker_net",
                banker=mention(data.get("banker")),
                net=signed(int(data.get("banker_net", 0))),
            )
        )
        if data.get("fund_paid") or data.get("shortfall"):
            lines.append(
                f"{FUND} "
                + ctx.t(
                    "sept.fund_paid", amount=data.get("fund_paid", 0), left=data.get("fund_left", 0)
                )
            )
        if data.get("shortfall"):
            lines.append("⚠️ " + ctx.t("sept.shortfall", amount=data["shortfall"]))
        for e in batch:
            if e.kind == "player_out":
                lines.append(ctx.t("sept.player_out", player=mention(e.data["player"])))
        return "\n".join(lines)

    def final(self, ctx: Ctx, events: list[Event]) -> str:
        over = next((e for e in events if e.kind == "game_over"), None)
        if over is None:
            return ""
        result = dict(over.data)
        lines = [ctx.t("sept.final_title"), self._reason(ctx, result)]
        lines.extend(self._ranking_lines(ctx, result))
        returned = sum(m.amount for m in over.money if m.kind is MoneyKind.FUND_CLOSE)
        if returned:
            lines.append(f"{FUND} " + ctx.t("sept.fund_returned", amount=returned))
        lines.append(ctx.t("table.closed_summary"))
        return "\n".join(lines)

    @staticmethod
    def _reason(ctx: Ctx, result: dict[str, Any]) -> str:
        return ctx.t(f"sept.end.{result.get('reason', 'closed')}", n=result.get("rounds_played", 0))

    @staticmethod
    def _ranking_lines(ctx: Ctx, result: dict[str, Any]) -> list[str]:
        medals = {1: "🥇", 2: "🥈", 3: "🥉"}
        return [
            f"{medals.get(r['rank'], str(r['rank']) + '.')} {mention(r['player'])} — "
            + ctx.t("table.stack", amount=r["stack"])
            for r in result.get("ranking", [])
        ]

    # ----------------------------------------------------------------- private
    def private_lines(self, ctx: Ctx, events: list[Event], player: int) -> list[str]:
        out: list[str] = []
        for e in events:
            if e.visibility is not Visibility.PRIVATE or e.player != player:
                continue
            data = dict(e.data)
            total = fmt(int(data.get("total", 0)))
            if e.kind == "card" and data.get("hidden"):
                out.append(
                    ctx.t(
                        "sept.dm.deal",
                        round=ctx.view.get("round", "?"),
                        card=cards([data["card"]]),
                        total=total,
                    )
                )
            elif e.kind == "card" and data.get("pending"):
                out.append(
                    ctx.t(
                        "sept.dm.drawn",
                        card=cards([data["card"]]),
                        hidden=cards([data.get("hidden_card")]),
                        total=total,
                    )
                )
            elif e.kind == "hidden_card":
                out.append(ctx.t("sept.dm.hidden_now", card=cards([data["card"]]), total=total))
        return out

    def hand_text(self, ctx: Ctx, player: int) -> str:
        game = ctx.table.game
        view = game.private_view(player)
        me = self._seat(view, player)
        you = view.get("you")
        if me is None or you is None or not me.get("seated"):
            return ctx.t("hand.not_seated")
        phase = game.phase
        lines: list[str] = []
        if me.get("banker") and phase in (Phase.BETTING, Phase.PLAYING, Phase.BANK):
            bank = view.get("bank") or {}
            shown = bank.get("shown") or []
            lines.append(
                ctx.t(
                    "sept.hand.banker",
                    cards=cards([None] * int(bank.get("hidden") or 0) + list(shown)),
                )
            )
        hidden = you.get("hidden")
        shown = me.get("shown") or []
        if hidden is None and not shown:
            if not lines:
                lines.append(ctx.t("sept.hand.none"))
            return "\n".join(lines)
        if hidden is not None:
            lines.append(ctx.t("sept.hand.hidden", card=cards([hidden])))
        if shown:
            lines.append(ctx.t("sept.hand.shown", cards=cards(shown)))
        if you.get("pending") is not None:
            lines.append(ctx.t("sept.hand.pending", card=cards([you["pending"]])))
        lines.append(ctx.t("sept.hand.total", total=half(you.get("total"))))
        return "\n".join(lines)


register("sept_et_demi", Renderer())
