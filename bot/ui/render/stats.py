"""The statistics as Discord shows them: a player's figures, a ranking, the words beside
the bankroll chart (bot/stats computes them)."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime

import discord

from bot.engine.registry import GAMES
from bot.i18n import normalize, t
from bot.stats.results import ALL_GAMES
from bot.stats.service import Chart, PlayerStats, Top
from bot.stats.store import PlayedRound, Point, Totals
from bot.ui.render.bank import NBSP, amount, count, signed

COLOUR = discord.Colour.dark_teal()


def percent(rate: float, locale: str | None) -> str:
    """``33%`` in English, ``33 %`` in French (rounded to a whole percent)."""
    value = round(rate * 100)
    return f"{value}{NBSP}%" if normalize(locale) == "fr" else f"{value}%"


def game_name(game: str | None, locale: str | None) -> str:
    """A game's name, or "every game"."""
    return t("stats.all_games", locale) if game is None else GAMES[game].name(locale)


def totals_line(totals: Totals, locale: str | None, currency: str) -> str:
    """One game's figures (Pirate 21's without money: it plays for coins)."""
    game = None if totals.game == ALL_GAMES else totals.game
    coins = game is not None and not GAMES[game].money
    key = "stats.player.line_coins" if coins else "stats.player.line"
    return t(
        key,
        locale,
        game=game_name(game, locale),
        rounds=count("rounds", totals.rounds, locale),
        won=totals.won,
        lost=totals.lost,
        pushed=totals.pushed,
        rate=percent(totals.win_rate, locale),
        net=signed(totals.net, locale, currency),
        best=amount(totals.best, locale, currency),
        naturals=t(f"stats.naturals.{game or 'all'}", locale),
        count=totals.naturals,
    )


def player_embed(stats: PlayerStats, name: str, locale: str | None, currency: str) -> discord.Embed:
    """A player's figures: one line per game, then every game (when more than one)."""
    lines = [totals_line(g, locale, currency) for g in stats.games]
    if len(stats.games) > 1:
        lines.append(totals_line(stats.total, locale, currency))
    embed = discord.Embed(
        title=t("stats.player.title", locale, name=name),
        description="\n".join(lines),
        colour=COLOUR,
    )
    embed.set_footer(text=t("stats.player.footer", locale))
    return embed


def _table(r: PlayedRound, guild_id: int) -> str:
    if r.channel_id is None:  # the table's row is gone: its number alone
        return f"#{r.table_id}"
    return f"[#{r.table_id}](https://discord.com/channels/{guild_id}/{r.channel_id})"


def round_line(r: PlayedRound, guild_id: int, locale: str | None, currency: str) -> str:
    """One settled round: when, game, table, staked, net, outcome, a natural's marker."""
    coins = not GAMES[r.game].money  # Pirate 21 plays for coins: no money to show
    text = t(
        "stats.rounds.line_coins" if coins else "stats.rounds.line",
        locale,
        when=f"<t:{int(r.at)}:R>",
        game=GAMES[r.game].name(locale),
        table=_table(r, guild_id),
        round=r.round_no,
        staked=amount(r.staked, locale, currency),
        net=signed(r.net, locale, currency),
        outcome=t(f"stats.outcome.{r.outcome}", locale),
    )
    return text + t("stats.rounds.natural", locale) if r.natural else text


def rounds_embed(
    rounds: Sequence[PlayedRound],
    name: str,
    game: str | None,
    guild_id: int,
    locale: str | None,
    currency: str,
) -> discord.Embed:
    """A player's last settled rounds, newest first, one line each."""
    embed = discord.Embed(
        title=t("stats.rounds.title", locale, name=name, game=game_name(game, locale)),
        description="\n".join(round_line(r, guild_id, locale, currency) for r in rounds),
        colour=COLOUR,
    )
    embed.set_footer(text=t("stats.player.footer", locale))
    return embed


def _period(top: Top, locale: str | None) -> str:
    if top.since is None:
        return t("stats.period.all", locale)
    start = datetime.fromtimestamp(top.since, UTC)
    when = t("stats.top.week", locale, when=start.date().isoformat(), week=start.isocalendar()[1])
    return f"{t('stats.period.week', locale)}, {when}"


def top_embed(top: Top, game: str | None, locale: str | None, currency: str) -> discord.Embed:
    """The two rankings of a period."""
    embed = discord.Embed(
        title=t(
            "stats.top.title", locale, game=game_name(game, locale), period=_period(top, locale)
        ),
        colour=COLOUR,
    )
    net_lines = [
        t(
            "stats.top.net_line",
            locale,
            rank=i,
            user=f"<@{r.user_id}>",
            net=signed(r.net, locale, currency),
            rounds=count("rounds", r.rounds, locale),
        )
        for i, r in enumerate(top.by_net, 1)
    ]
    embed.add_field(name=t("stats.top.by_net", locale), value="\n".join(net_lines), inline=False)
    least = count("rounds", top.min_rounds, locale)
    rate_lines = [
        t(
            "stats.top.rate_line",
            locale,
            rank=i,
            user=f"<@{r.user_id}>",
            rate=percent(r.win_rate, locale),
            won=r.won,
            rounds=r.rounds,
        )
        for i, r in enumerate(top.by_rate, 1)
    ] or [t("stats.top.no_rate", locale, rounds=least)]
    name = t("stats.top.by_rate", locale, rounds=least)
    embed.add_field(name=name, value="\n".join(rate_lines), inline=False)
    return embed


def _day(p: Point) -> str:
    return p.at.date().isoformat()


def _extremes(points: Sequence[Point]) -> tuple[Point, Point]:
    total = [p.balance + p.chips for p in points]
    return points[total.index(max(total))], points[total.index(min(total))]


def chart_words(chart: Chart, user: str, locale: str | None, currency: str) -> str:
    """The chart's figures in words, for the message beside it."""
    points = chart.points
    first, last = points[0], points[-1]
    high, low = _extremes(points)
    return t(
        "stats.chart.words",
        locale,
        user=user,
        total=amount(last.balance + last.chips, locale, currency),
        balance=amount(last.balance, locale, currency),
        chips=amount(last.chips, locale, currency),
        start=amount(first.balance + first.chips, locale, currency),
        high=amount(high.balance + high.chips, locale, currency),
        high_day=_day(high),
        low=amount(low.balance + low.chips, locale, currency),
        low_day=_day(low),
        points=count("points", len(points), locale),
        per=t("stats.chart.per_day" if chart.per_day else "stats.chart.per_round", locale),
    )


def chart_alt(chart: Chart, name: str, locale: str | None, currency: str) -> str:
    """The image's alt text (Discord keeps 1,024 characters)."""
    points = chart.points
    first, last = points[0], points[-1]
    high, low = _extremes(points)
    text = t(
        "stats.chart.alt",
        locale,
        name=name,
        first_day=_day(first),
        last_day=_day(last),
        start=amount(first.balance + first.chips, locale, currency),
        total=amount(last.balance + last.chips, locale, currency),
        high=amount(high.balance + high.chips, locale, currency),
        low=amount(low.balance + low.chips, locale, currency),
    )
    return text[:1024]


def chart_labels(name: str, locale: str | None) -> tuple[str, str, str, str]:
    """The chart's title and legends."""
    return (
        t("stats.chart.title", locale, name=name),
        t("stats.chart.total", locale),
        t("stats.chart.balance", locale),
        t("stats.chart.chips", locale),
    )
