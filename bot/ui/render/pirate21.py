"""How a Pirate 21 table looks: treasure, pot, pile, coins, card backs and public cards.

Privacy is the point of this game. The public table message only ever shows what the
engine's ``public_view`` holds: how many hidden cards each player has (card backs), their
public extra cards, their coins and whose turn it is. No total is shown before the
showdown, and a hit that goes over 21 looks exactly like any other hit (the engine gives
both the same public events and keeps the turn; only the hitter's DM, the same one every
hitter gets, says "over 21"). The footer shows no table version.

Private cards go by DM (``private_lines``), or ephemerally with ``/hand`` / "My cards".
Round results and the final ranking are separate public messages (``announcements``).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from bot.engine.base import ROUND_SETTLED, ActionKind, Event, Phase, Visibility
from bot.engine.games.pirate21 import MAX_PLAYERS
from bot.ui.buttons import ButtonSpec
from bot.ui.cards import FACE_DOWN, card, cards

from .common import BLUE, GREEN, GREY, RED, Ctx, GameRenderer, mention, register

MEDALS = {1: "🥇", 2: "🥈", 3: "🥉"}


def _backs(n: int) -> str:
    return card(None) * n


class Renderer(GameRenderer):
    """The Pirate 21 table."""

    has_private_cards = True

    # ----------------------------------------------------------------- the embed
    def embed(self, ctx: Ctx) -> Any:
        embed = super().embed(ctx)
        if ctx.view.get("variant") == "shared":
            embed.title = f"{embed.title} · {ctx.t('pirate21.variant.shared')}"
        return embed

    def body(self, ctx: Ctx) -> list[str]:
        view = ctx.view
        shared = view.get("variant") == "shared"
        options = view.get("options") or {}
        lines: list[str] = []
        if ctx.phase is Phase.LOBBY:
            n = len(view.get("players") or [])
            lines.append(ctx.t("pirate21.lobby", n=n, max=MAX_PLAYERS))
            if shared and options.get("coins_per_player") is None:
                treasure = options.get("treasure")
                lines.append(ctx.t("pirate21.rules.shared_split", treasure=treasure))
                if isinstance(treasure, int) and treasure < n:  # why there is no Start
                    lines.append(ctx.t("illegal.treasure_too_small", treasure=treasure, players=n))
            elif shared:
                lines.append(ctx.t("pirate21.rules.shared", coins=options.get("coins_per_player")))
            else:
                lines.append(ctx.t("pirate21.rules.standard", treasure=options.get("treasure")))
            return lines
        if shared:
            lines.append(
                ctx.t("pirate21.pot_shared", pot=view.get("pot", 0), pile=view.get("pile", 0))
            )
        else:
            lines.append(
                ctx.t(
                    "pirate21.treasure",
                    treasure=view.get("treasure", 0),
                    pot=view.get("pot", 0),
                    pile=view.get("pile", 0),
                )
            )
        last = view.get("last_result")
        if isinstance(last, dict) and ctx.phase is Phase.PLAYING:
            lines.append(ctx.t("pirate21.last_round", text=self._outcome_text(ctx, last)))
        if ctx.phase is Phase.FINISHED and view.get("ranking"):
            lines.append(self._reason_text(ctx, view.get("end_reason")))
        return lines

    def fields(self, ctx: Ctx) -> Iterable[tuple[str, str]]:
        view = ctx.view
        seats = view.get("seats") or []
        if ctx.phase is Phase.FINISHED and view.get("ranking"):
            yield ctx.t("pirate21.ranking"), "\n".join(self._ranking_lines(ctx, view["ranking"]))
            return
        lines = [self._seat_line(ctx, seat) for seat in seats]
        yield ctx.t("table.seats", n=len(seats)), "\n".join(lines) or ctx.t("table.no_seats")

    def _seat_line(self, ctx: Ctx, seat: dict[str, Any]) -> str:
        view = ctx.view
        pid = seat["player"]
        playing = ctx.phase is Phase.PLAYING
        marker = "▶ " if playing and pid == view.get("to_act") else ""
        parts = [f"{marker}{mention(pid)}"]
        if seat.get("dealer"):
            parts.append(ctx.t("pirate21.dealer"))
        elif ctx.phase is Phase.LOBBY and pid == view.get("host"):
            parts.append(ctx.t("pirate21.host"))
        if ctx.phase is not Phase.LOBBY:
            parts.append(ctx.t("pirate21.coins", n=seat.get("coins", 0)))
        if seat.get("out"):
            parts.append(ctx.t("pirate21.out"))
        elif seat.get("in_round"):
            hand = _backs(int(seat.get("hidden", 0)))
            if seat.get("extra"):
                hand += " " + cards(seat["extra"])
            parts.append(hand)
            if seat.get("done"):
                parts.append(ctx.t("pirate21.done"))
        return " · ".join(parts)

    def footer(self, ctx: Ctx) -> str:
        text = ctx.t("pirate21.footer", id=ctx.table.id)
        return "\n".join([text, *self.commitment_lines(ctx)])

    # ----------------------------------------------------------------- buttons
    def buttons(self, ctx: Ctx) -> list[ButtonSpec]:
        game = ctx.table.game
        view = ctx.view
        if ctx.phase is Phase.FINISHED or not ctx.table.is_open:
            return []
        specs: list[ButtonSpec] = []
        if ctx.phase is Phase.LOBBY:
            players = view.get("players") or []
            if len(players) < MAX_PLAYERS:
                specs.append(ButtonSpec("join", ctx.t("move.join"), BLUE, row=0))
            host = view.get("host")
            if isinstance(host, int) and ActionKind.START in game.legal_actions(host):
                specs.append(ButtonSpec("start", ctx.t("move.start"), GREEN, row=0))
            if len(players) > 1:
                specs.append(ButtonSpec("leave", ctx.t("move.leave"), GREY, row=0))
            return specs
        to_act = view.get("to_act")
        if isinstance(to_act, int):
            kinds = game.legal_actions(to_act)
            if ActionKind.HIT in kinds:
                specs.append(ButtonSpec("hit", ctx.t("move.hit"), GREEN, row=1))
            if ActionKind.STAND in kinds:
                specs.append(ButtonSpec("stand", ctx.t("move.stand"), RED, row=1))
        specs.append(ButtonSpec("hand", ctx.t("move.hand"), GREY, row=1, emoji=FACE_DOWN))
        return specs

    # ----------------------------------------------------------------- announcements
    def announcements(self, ctx: Ctx, events: list[Event]) -> list[str]:
        out: list[str] = []
        showdown: dict[str, Any] | None = None
        ending = any(e.kind == "game_over" for e in events)
        for event in events:
            if event.visibility is not Visibility.PUBLIC:
                continue
            data = dict(event.data)
            if event.kind == "showdown":
                showdown = data
            elif event.kind == ROUND_SETTLED:
                out.append(self.round_text(ctx, data, showdown))
                showdown = None
            elif event.kind == "shuffle" and int(data.get("number", 1)) > 1:
                out.append(
                    ctx.t(
                        "pirate21.reshuffle",
                        size=data.get("size", 0),
                        commitment=data.get("commitment"),
                    )
                )
            elif event.kind == "timeout":
                out.append(ctx.t("pirate21.timeout", player=mention(event.player)))
            elif event.kind == "eliminated":
                out.append(ctx.t("pirate21.eliminated", player=mention(event.player)))
            elif event.kind == "pot_collected":
                out.append(
                    ctx.t(
                        "pirate21.pot_collected",
                        player=mention(event.player),
                        coins=data.get("coins", 0),
                    )
                )
        if ending or not ctx.table.is_open:
            final = self.final(ctx, events)
            if final:
                out.append(final)
        return [text[:2000] for text in out if text]

    def summary(self, ctx: Ctx, event: Event) -> str:
        return self.round_text(ctx, dict(event.data), None)

    def round_text(self, ctx: Ctx, result: dict[str, Any], showdown: dict[str, Any] | None) -> str:
        """The showdown of a round: every hand turned up, who took what, the pot."""
        lines = [ctx.t("pirate21.round_title", n=result.get("round", "?"))]
        for hand in (showdown or {}).get("hands", []):
            shown = cards(hand.get("hidden", []))
            if hand.get("extra"):
                shown += " · " + cards(hand["extra"])
            line = f"{mention(hand['player'])} {shown} = **{hand['total']}**"
            if hand.get("bust"):
                line += " · " + ctx.t("pirate21.bust")
            elif hand.get("blackjack"):
                line += " · " + ctx.t("pirate21.blackjack")
            lines.append(line)
        lines.append(self._outcome_text(ctx, result))
        lines.append(self._purse_text(ctx, result))
        return "\n".join(lines)

    def _outcome_text(self, ctx: Ctx, result: dict[str, Any]) -> str:
        outcome = result.get("outcome")
        shared = ctx.view.get("variant") == "shared"
        payouts = [p for p in result.get("payouts", []) if isinstance(p, dict)]
        pot = result.get("pot", 0)
        if outcome == "win" and payouts:
            first = payouts[0]
            return ctx.t(
                "pirate21.outcome.win", player=mention(first["player"]), coins=first["coins"]
            )
        if outcome == "tie21":
            paid = ", ".join(f"{mention(p['player'])} +{p['coins']}" for p in payouts)
            key = "pirate21.outcome.tie21_shared" if shared else "pirate21.outcome.tie21"
            return ctx.t(key, paid=paid or "—", pot=pot)
        if outcome == "all_bust":
            return ctx.t("pirate21.outcome.all_bust", pot=pot)
        if outcome == "tie":
            tied = ", ".join(mention(p) for p in result.get("winners", []))
            return ctx.t("pirate21.outcome.tie", players=tied, pot=pot)
        return ctx.t("pirate21.outcome.none")

    def _purse_text(self, ctx: Ctx, result: dict[str, Any]) -> str:
        coins = result.get("coins") or {}
        held = ", ".join(f"{mention(int(p))} {n}" for p, n in coins.items())
        if ctx.view.get("variant") == "shared":
            return ctx.t("pirate21.purse_shared", pot=result.get("pot", 0), coins=held)
        return ctx.t(
            "pirate21.purse",
            treasure=result.get("treasure", 0),
            pot=result.get("pot", 0),
            coins=held,
        )

    def _reason_text(self, ctx: Ctx, reason: Any) -> str:
        return ctx.t(f"pirate21.end.{reason or 'closed'}")

    def _ranking_lines(self, ctx: Ctx, ranking: list[dict[str, Any]]) -> list[str]:
        lines = []
        for row in ranking:
            rank = int(row["rank"])
            medal = MEDALS.get(rank, f"{rank}.")
            lines.append(
                ctx.t(
                    "pirate21.rank_line",
                    medal=medal,
                    rank=rank,
                    player=mention(row["player"]),
                    coins=row["coins"],
                )
            )
        return lines

    def final(self, ctx: Ctx, events: list[Event]) -> str:
        game_over = next((dict(e.data) for e in events if e.kind == "game_over"), None)
        ranking = (game_over or {}).get("ranking") or ctx.view.get("ranking") or []
        reason = (game_over or {}).get("reason") or ctx.view.get("end_reason")
        if not ctx.view.get("round"):
            return ctx.t("pirate21.closed_before_start")
        lines = [ctx.t("pirate21.final_title"), self._reason_text(ctx, reason)]
        lines.extend(self._ranking_lines(ctx, ranking))
        winners = [r["player"] for r in ranking if int(r["rank"]) == 1]
        if len(winners) == 1:
            lines.append(ctx.t("pirate21.winner", player=mention(winners[0])))
        elif winners:
            lines.append(
                ctx.t("pirate21.winners_tie", players=", ".join(mention(p) for p in winners))
            )
        return "\n".join(lines)

    # ----------------------------------------------------------------- private
    def private_lines(self, ctx: Ctx, events: list[Event], player: int) -> list[str]:
        out: list[str] = []
        for e in events:
            if e.visibility is not Visibility.PRIVATE or e.player != player:
                continue
            data = dict(e.data)
            if e.kind == "cards":
                out.append(
                    ctx.t(
                        "pirate21.dm.cards",
                        n=ctx.view.get("round", "?"),
                        cards=cards(data.get("cards", [])),
                        total=data.get("total"),
                    )
                )
                if data.get("blackjack"):
                    out.append(ctx.t("pirate21.dm.blackjack"))
            elif e.kind == "hand":
                extra = list(data.get("extra", []))
                out.append(
                    ctx.t(
                        "pirate21.dm.drew",
                        card=cards(extra[-1:]),
                        cards=cards(data.get("cards", [])),
                        extra=cards(extra),
                        total=data.get("total"),
                    )
                )
                if data.get("bust"):
                    out.append(ctx.t("pirate21.dm.bust"))
        return out

    def hand_text(self, ctx: Ctx, player: int) -> str:
        view = ctx.table.game.private_view(player)
        if player not in (view.get("players") or []):
            return ctx.t("hand.not_seated")
        you = view.get("you")
        if not isinstance(you, dict):
            return ctx.t("pirate21.hand.none")
        extra = list(you.get("extra", []))
        lines = [
            ctx.t(
                "pirate21.hand.cards_extra" if extra else "pirate21.hand.cards",
                cards=cards(you.get("cards", [])),
                extra=cards(extra),
                total=you.get("total"),
            )
        ]
        if you.get("bust"):
            lines.append(ctx.t("pirate21.hand.bust"))
        elif you.get("blackjack"):
            lines.append(ctx.t("pirate21.dm.blackjack"))
        return "\n".join(lines)


register("pirate21", Renderer())
