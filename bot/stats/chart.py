"""The bankroll chart: a PNG drawn with matplotlib's Agg canvas (no pyplot, no display),
called off the event loop (``asyncio.to_thread``). A solid light card with dark text and
saturated lines: the same picture reads on Discord's light and dark themes (a
transparent one would put dark text on the dark theme)."""

from __future__ import annotations

import io
from collections.abc import Sequence
from datetime import timedelta

from .store import Point

MAX_POINTS = 120  # past this, one point per day (the day's last)
BACKGROUND = "#f4f5f7"
TEXT = "#1e1f22"
GRID = "#c9ccd1"
TOTAL = "#1f5fbf"  # balance + chips
BALANCE = "#d9480f"
CHIPS = "#8fb3ea"


def per_day(points: Sequence[Point]) -> list[Point]:
    """The last point of each UTC day."""
    out: dict[object, Point] = {}
    for p in points:
        out[p.at.date()] = p
    return list(out.values())


def fitted(points: Sequence[Point]) -> tuple[list[Point], bool]:
    """The points the chart draws, and whether they are one per day."""
    if len(points) <= MAX_POINTS:
        return list(points), False
    return per_day(points), True


def short(value: float) -> str:
    """An axis figure that fits the margin: 950, 12k, 3.5M, 2.1G."""
    for least, size, unit in ((1e9, 1e9, "G"), (1e6, 1e6, "M"), (1e4, 1e3, "k")):
        if abs(value) >= least:
            return f"{value / size:.1f}".rstrip("0").rstrip(".") + unit
    return f"{value:.0f}"


def render_png(points: Sequence[Point], labels: tuple[str, str, str, str]) -> bytes:
    """The chart of ``points`` (title, total, balance and chips legends) as PNG bytes."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure
    from matplotlib.ticker import FuncFormatter

    title, total_label, balance_label, chips_label = labels
    fig = Figure(figsize=(8, 4), dpi=100, facecolor=BACKGROUND)
    FigureCanvasAgg(fig)
    ax = fig.add_subplot(facecolor=BACKGROUND)
    xs = list(range(len(points)))
    balance = [p.balance for p in points]
    total = [p.balance + p.chips for p in points]
    ax.fill_between(xs, balance, total, color=CHIPS, alpha=0.6, label=chips_label, linewidth=0)
    ax.plot(xs, total, color=TOTAL, linewidth=2.2, label=total_label, marker="o", markersize=3)
    ax.plot(xs, balance, color=BALANCE, linewidth=1.6, label=balance_label)
    ticks = sorted({0, len(points) - 1, *range(0, len(points), max(1, len(points) // 5))})
    within_a_day = points[-1].at - points[0].at < timedelta(days=1)
    form = "%H:%M" if within_a_day else "%d %b"  # UTC, like the rest of the statistics
    ax.set_xticks(ticks, [points[i].at.strftime(form) for i in ticks])
    ax.yaxis.set_major_formatter(FuncFormatter(lambda v, _: short(v)))
    ax.set_title(title, color=TEXT, fontsize=13)
    ax.set_xlabel("UTC", color=TEXT, fontsize=8)
    ax.tick_params(colors=TEXT)
    for spine in ax.spines.values():
        spine.set_color(GRID)
    ax.grid(True, color=GRID, linewidth=0.6)
    legend = ax.legend(loc="upper left", facecolor="white", edgecolor=GRID, fontsize=9)
    for text in legend.get_texts():
        text.set_color(TEXT)
    fig.subplots_adjust(left=0.09, right=0.98, top=0.9, bottom=0.14)  # tight_layout: a draw more
    out = io.BytesIO()
    fig.savefig(out, format="png", facecolor=BACKGROUND, pil_kwargs={"compress_level": 1})
    return out.getvalue()


def warm() -> None:
    """Import the drawing code (about a second, once)."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg  # noqa: F401
