"""How a Pirate 21 table looks: treasure, pot, pile, coins, card backs and public cards.

Privacy is the point of this game. The public table message only ever shows what the
engine's ``public_view`` holds: how many hidden cards each player has (card backs), their
public extra cards, their coins and whose turn it is. No total is shown before the
showdown, and a hit that goes over 21 looks exactly like any other hit (the engine gives
both the same public events and keeps the turn; only the hitter's DM, the same one every
hitter gets, says "over 21"). The footer shows no table version.

The common renderer draws the frame, the buttons (Hit, Stand, My cards from the legal
actions) and posts the seeds; this one adds the game's lines, its seats, its lobby
buttons, its announcements (the showdown with the round, a reshuffle, a timeout, a player
out, the final ranking) and its DMs.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from bot.engine.base import ROUND_SETTLED, Event, Phase
from bot.engine.games.pirate21 import MAX_PLAYERS, Pirate21Options
from bot.engine.summaries import PirateRank, PirateRound, pirate_game_over
from bot.engine.views import PiratePart, PirateSeatView, PirateYou, SeatView
from bot.ui.buttons import ButtonSpec
from bot.ui.cards import card, cards

from .common import Ctx, GameRenderer, checked, mention, register

MEDALS = {1: "🥇", 2: "🥈", 3: "🥉"}
_PLAYER_NEWS = {"timeout": "pirate21.timeout", "eliminated": "pirate21.eliminated"}


def own(ctx: Ctx) -> PiratePart:
    """The Pirate 21 part of the table's view."""
    return checked(PiratePart, ctx.view.own)


def shared(ctx: Ctx) -> bool:
    """Whether the table plays the shared variant."""
    return own(ctx).variant == "shared"


class Renderer(GameRenderer):
    """The Pirate 21 table."""

    has_private_cards = True
    announced = frozenset({ROUND_SETTLED, "shuffle", "timeout", "eliminated", "pot_collected"})

    # ----------------------------------------------------------------- the embed
    def embed(self, ctx: Ctx) -> Any:
        embed = super().embed(ctx)
        if shared(ctx):
            embed.title = f"{embed.title} · {ctx.t('pirate21.variant.shared')}"
        return embed

    def body(self, ctx: Ctx) -> list[str]:
        view = ctx.view
        if ctx.phase is Phase.LOBBY:
            return self._lobby_lines(ctx)
        part = own(ctx)
        pot, pile = view.pot, part.pile
        if part.variant == "shared":
            lines = [ctx.t("pirate21.pot_shared", pot=pot, pile=pile)]
        else:
            lines = [ctx.t("pirate21.treasure", treasure=part.treasure, pot=pot, pile=pile)]
        last = view.last_round
        if last is not None and ctx.phase is Phase.PLAYING:
            text = self._outcome_text(ctx, checked(PirateRound, last))
            lines.append(ctx.t("pirate21.last_round", text=text))
        if ctx.phase is Phase.FINISHED and part.ranking:
            lines.append(self._reason_text(ctx, part.end_reason))
        return lines

    def _lobby_lines(self, ctx: Ctx) -> list[str]:
        """Who is aboard, and the treasure the game will be played for."""
        options = checked(Pirate21Options, ctx.view.options)
        n = len(ctx.view.seats)
        lines = [ctx.t("pirate21.lobby", n=n, max=MAX_PLAYERS)]
        if not shared(ctx):
            lines.append(ctx.t("pirate21.rules.standard", treasure=options.treasure))
        elif options.coins_per_player is not None:
            lines.append(ctx.t("pirate21.rules.shared", coins=options.coins_per_player))
        else:
            treasure = options.treasure
            lines.append(ctx.t("pirate21.rules.shared_split", treasure=treasure))
            if treasure < n:  # why there is no Start
                lines.append(ctx.t("illegal.treasure_too_small", treasure=treasure, players=n))
        return lines

    def fields(self, ctx: Ctx) -> Iterable[tuple[str, str]]:
        ranking = own(ctx).ranking
        if ctx.phase is Phase.FINISHED and ranking:
            yield ctx.t("pirate21.ranking"), "\n".join(self._ranking_lines(ctx, ranking))
            return
        yield from super().fields(ctx)

    def seat_line(self, ctx: Ctx, seat: SeatView) -> str:
        """Who, dealer or host, coins, card backs and public cards, stood or out."""
        seat = checked(PirateSeatView, seat)
        view = ctx.view
        pid = seat.player
        playing = ctx.phase is Phase.PLAYING
        marker = "▶ " if playing and pid == view.to_act else ""
        parts = [f"{marker}{mention(pid)}"]
        if seat.dealer:
            parts.append(ctx.t("pirate21.dealer"))
        elif ctx.phase is Phase.LOBBY and pid == view.host:
            parts.append(ctx.t("pirate21.host"))
        if ctx.phase is not Phase.LOBBY:
            parts.append(ctx.t("pirate21.coins", n=seat.stack))
        if seat.out:
            parts.append(ctx.t("pirate21.out"))
        elif seat.in_round:
            hand = card(None) * seat.hidden
            if seat.extra:
                hand += " " + cards(seat.extra)
            parts.append(hand)
            if seat.done:
                parts.append(ctx.t("pirate21.done"))
        return " · ".join(parts)

    def footer(self, ctx: Ctx) -> str:
        text = ctx.t("pirate21.footer", id=ctx.table.id)
        return "\n".join([text, *self.commitment_lines(ctx)])

    # ----------------------------------------------------------------- buttons
    def buttons(self, ctx: Ctx) -> list[ButtonSpec]:
        """The common buttons; in the lobby no Join at a full table, and no Leave for a
        host alone (the host closes the table instead)."""
        specs = super().buttons(ctx)
        if ctx.phase is not Phase.LOBBY:
            return specs
        n = len(ctx.view.seats)
        hidden = {"join"} if n >= MAX_PLAYERS else set()
        hidden |= {"leave"} if n < 2 else set()
        return [b for b in specs if b.move not in hidden]

    # ----------------------------------------------------------------- announcements
    def announce(self, ctx: Ctx, event: Event) -> str:
        data, kind = event.data, event.kind
        if kind == ROUND_SETTLED:  # with the hands of its showdown, the view's last round
            result, last = self.settled(ctx, event), ctx.view.last_round
            if not isinstance(last, PirateRound) or last.round != result.round:
                last = None
            return self.round_text(ctx, result, last)
        if kind == "shuffle":  # the first pile's commitment is in the footer
            if int(data.get("number", 1)) <= 1:
                return ""
            return ctx.t(
                "pirate21.reshuffle", size=data.get("size", 0), commitment=data.get("commitment")
            )
        if kind == "pot_collected":
            who = mention(event.player)
            return ctx.t("pirate21.pot_collected", player=who, coins=data.get("coins", 0))
        return ctx.t(_PLAYER_NEWS[kind], player=mention(event.player))

    def summary(self, ctx: Ctx, event: Event) -> str:
        return self.round_text(ctx, self.settled(ctx, event), None)

    @staticmethod
    def settled(ctx: Ctx, event: Event) -> PirateRound:
        """A ``round_settled`` event's summary."""
        return checked(PirateRound, ctx.table.game.summary_of(event.data))

    def round_text(self, ctx: Ctx, result: PirateRound, showdown: PirateRound | None) -> str:
        """The showdown of a round: every hand turned up, who took what, the pot."""
        lines = [ctx.t("pirate21.round_title", n=result.round)]
        for hand in showdown.hands if showdown is not None else ():
            shown = cards(hand.hidden)
            if hand.extra:
                shown += " · " + cards(hand.extra)
            line = f"{mention(hand.player)} {shown} = **{hand.total}**"
            if hand.bust:
                line += " · " + ctx.t("pirate21.bust")
            elif hand.blackjack:
                line += " · " + ctx.t("pirate21.blackjack")
            lines.append(line)
        lines.append(self._outcome_text(ctx, result))
        lines.append(self._purse_text(ctx, result))
        return "\n".join(lines)

    def _outcome_text(self, ctx: Ctx, result: PirateRound) -> str:
        outcome = result.outcome
        is_shared = shared(ctx)
        payouts, pot = result.payouts, result.pot
        if outcome == "win" and payouts:
            first = payouts[0]
            return ctx.t("pirate21.outcome.win", player=mention(first.player), coins=first.coins)
        if outcome == "tie21":
            paid = ", ".join(f"{mention(p.player)} +{p.coins}" for p in payouts)
            key = "pirate21.outcome.tie21_shared" if is_shared else "pirate21.outcome.tie21"
            return ctx.t(key, paid=paid or "—", pot=pot)
        if outcome == "all_bust":
            return ctx.t("pirate21.outcome.all_bust", pot=pot)
        if outcome == "tie":
            tied = ", ".join(mention(p) for p in result.winners)
            return ctx.t("pirate21.outcome.tie", players=tied, pot=pot)
        return ctx.t("pirate21.outcome.none")

    def _purse_text(self, ctx: Ctx, result: PirateRound) -> str:
        held = ", ".join(f"{mention(p)} {n}" for p, n in result.coins)
        pot = result.pot
        if shared(ctx):
            return ctx.t("pirate21.purse_shared", pot=pot, coins=held)
        treasure = result.treasure
        return ctx.t("pirate21.purse", treasure=treasure, pot=pot, coins=held)

    def _reason_text(self, ctx: Ctx, reason: Any) -> str:
        return ctx.t(f"pirate21.end.{reason or 'closed'}")

    def _ranking_lines(self, ctx: Ctx, ranking: Iterable[PirateRank]) -> list[str]:
        lines = []
        for row in ranking:
            rank = row.rank
            medal = MEDALS.get(rank, f"{rank}.")
            player = mention(row.player)
            key = "pirate21.rank_line"
            lines.append(ctx.t(key, medal=medal, rank=rank, player=player, coins=row.coins))
        return lines

    def final(self, ctx: Ctx, events: list[Event]) -> str:
        over = next((pirate_game_over(e.data) for e in events if e.kind == "game_over"), None)
        part = own(ctx)
        ranking = (over.ranking if over is not None else ()) or part.ranking or ()
        reason = (over.reason if over is not None else None) or part.end_reason
        if not ctx.view.round:
            return ctx.t("pirate21.closed_before_start")
        lines = [ctx.t("pirate21.final_title"), self._reason_text(ctx, reason)]
        lines.extend(self._ranking_lines(ctx, ranking))
        winners = [mention(r.player) for r in ranking if r.rank == 1]
        if len(winners) == 1:
            lines.append(ctx.t("pirate21.winner", player=winners[0]))
        elif winners:
            lines.append(ctx.t("pirate21.winners_tie", players=", ".join(winners)))
        return "\n".join(lines)

    # ----------------------------------------------------------------- private
    def private_event(self, ctx: Ctx, e: Event) -> list[str]:
        """The DM: the cards dealt face down, then each card drawn."""
        data = e.data
        total = data.get("total")
        out: list[str] = []
        if e.kind == "cards":
            shown = cards(data.get("cards", []))
            n = ctx.view.round
            out.append(ctx.t("pirate21.dm.cards", n=n, cards=shown, total=total))
            if data.get("blackjack"):
                out.append(ctx.t("pirate21.dm.blackjack"))
        elif e.kind == "hand":
            extra = list(data.get("extra", []))
            hidden = cards(data.get("cards", []))
            out.append(
                ctx.t(
                    "pirate21.dm.drew",
                    card=cards(extra[-1:]),
                    cards=hidden,
                    extra=cards(extra),
                    total=total,
                )
            )
            if data.get("bust"):
                out.append(ctx.t("pirate21.dm.bust"))
        return out

    def hand_text(self, ctx: Ctx, player: int) -> str:
        you = ctx.table.game.private_view(player).you
        if not you.seated:
            return ctx.t("hand.not_seated")
        if you.own is None:
            return ctx.t("pirate21.hand.none")
        mine = checked(PirateYou, you.own)
        extra = list(mine.extra)
        key = "pirate21.hand.cards_extra" if extra else "pirate21.hand.cards"
        shown = cards(mine.cards)
        lines = [ctx.t(key, cards=shown, extra=cards(extra), total=mine.total)]
        if mine.bust:
            lines.append(ctx.t("pirate21.hand.bust"))
        elif mine.blackjack:
            lines.append(ctx.t("pirate21.dm.blackjack"))
        return "\n".join(lines)


register("pirate21", Renderer())
