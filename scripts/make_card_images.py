"""Draw Croupier's card faces as PNGs: ``python scripts/make_card_images.py``.

Writes one 128x128 PNG per card code the games use (52 cards, the jokers ``XS``/``XH``)
and ``back.png`` (a face-down card) into ``bot/ui/assets/cards/``, the package data the
bot uploads as its application emojis (``bot/discord/card_emojis.py``). The running bot never
imports Pillow: run this script (``pip install pillow``) only to change the design, and
commit the PNGs. ``--sheet PATH`` also writes a contact sheet of every image at Discord's
emoji sizes (22 px inline, 48 px alone) on its dark and light themes, to look at.

Design for 22 px: the card fills the square; the rank takes the top ~55% and the suit
the bottom ~40%, both as large as they fit; hearts and diamonds red, spades and clubs
black; a dark rim so the white card stands out on a light theme too. Suits are drawn as
shapes (no font needed); ranks use DejaVu Sans Bold (``--font`` to choose another).
Everything is drawn 4x larger and scaled down, for smooth edges.
"""

from __future__ import annotations

import argparse
import math
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

SIZE = 128
SCALE = 4  # drawn at 512 px, scaled down: anti-aliased edges
OUT = Path(__file__).resolve().parent.parent / "bot" / "ui" / "assets" / "cards"
FONT = "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf"
FONT_NARROW = "/usr/share/fonts/truetype/dejavu/DejaVuSansCondensed-Bold.ttf"

RANKS = "A23456789TJQK"
SUITS = "SHDC"
RED = (200, 16, 32, 255)
BLACK = (20, 20, 24, 255)
WHITE = (255, 255, 255, 255)
RIM = (60, 60, 68, 255)
BACK_BLUE = (36, 82, 170, 255)
BACK_LINE = (120, 160, 230, 255)
GOLD = (214, 160, 20, 255)

Point = tuple[float, float]
Box = tuple[float, float, float, float]  # left, top, right, bottom


def card_codes() -> list[str]:
    """Every card code a game deals: 52 cards and the two jokers (Pirate 21)."""
    return [r + s for s in SUITS for r in RANKS] + ["XS", "XH"]


def colour_of(suit: str) -> tuple[int, int, int, int]:
    """Red for hearts and diamonds, black for spades and clubs."""
    return RED if suit in "HD" else BLACK


# ----------------------------------------------------------------- suit shapes
def heart_points(box: Box, *, flip: bool = False, steps: int = 240) -> list[Point]:
    """The classic heart curve fitted into ``box`` (point down; ``flip``: point up)."""
    pts = []
    for i in range(steps):
        t = 2 * math.pi * i / steps
        x = 16 * math.sin(t) ** 3
        y = 13 * math.cos(t) - 5 * math.cos(2 * t) - 2 * math.cos(3 * t) - math.cos(4 * t)
        pts.append((x, -y if not flip else y))
    return _fit(pts, box)


def _fit(pts: list[Point], box: Box) -> list[Point]:
    xs, ys = [p[0] for p in pts], [p[1] for p in pts]
    sx = (box[2] - box[0]) / (max(xs) - min(xs))
    sy = (box[3] - box[1]) / (max(ys) - min(ys))
    return [(box[0] + (x - min(xs)) * sx, box[1] + (y - min(ys)) * sy) for x, y in pts]


def draw_suit(draw: ImageDraw.ImageDraw, suit: str, box: Box, fill: tuple[int, ...]) -> None:
    """One suit symbol filling ``box``."""
    left, top, right, bottom = box
    w, h = right - left, bottom - top
    cx = (left + right) / 2
    if suit == "H":
        draw.polygon(heart_points(box), fill=fill)
    elif suit == "D":
        inset = -w * 0.04  # a little wider than its box: a full diamond reads at 22 px
        draw.polygon(
            [(cx, top), (right - inset, top + h / 2), (cx, bottom), (left + inset, top + h / 2)],
            fill=fill,
        )
    elif suit == "S":
        body = (left, top, right, top + h * 0.78)
        draw.polygon(heart_points(body, flip=True), fill=fill)
        _stem(draw, cx, top + h * 0.55, bottom, w, fill)
    else:  # clubs: three round leaves, notched apart (a spade has a point instead)
        r = w * 0.25
        for x, y in ((cx, top + r), (left + r, top + h * 0.55), (right - r, top + h * 0.55)):
            draw.ellipse((x - r, y - r, x + r, y + r), fill=fill)
        draw.polygon(
            [(cx, top + r), (left + r, top + h * 0.55), (right - r, top + h * 0.55)], fill=fill
        )
        _stem(draw, cx, top + h * 0.5, bottom, w, fill)


def _stem(
    draw: ImageDraw.ImageDraw, cx: float, top: float, bottom: float, w: float, fill: tuple[int, ...]
) -> None:
    half_foot, half_neck = w * 0.22, w * 0.05
    draw.polygon(
        [
            (cx - half_neck, top),
            (cx + half_neck, top),
            (cx + half_foot, bottom),
            (cx - half_foot, bottom),
        ],
        fill=fill,
    )


def star_points(cx: float, cy: float, outer: float, inner: float) -> list[Point]:
    """A five-pointed star, one point up."""
    pts = []
    for i in range(10):
        r = outer if i % 2 == 0 else inner
        a = -math.pi / 2 + i * math.pi / 5
        pts.append((cx + r * math.cos(a), cy + r * math.sin(a)))
    return pts


# ----------------------------------------------------------------- the card
def blank(fill: tuple[int, ...] = WHITE) -> tuple[Image.Image, ImageDraw.ImageDraw]:
    """A card filling the square: rounded corners and a dark rim."""
    big = SIZE * SCALE
    image = Image.new("RGBA", (big, big), (0, 0, 0, 0))
    draw = ImageDraw.Draw(image)
    rim = 3 * SCALE
    radius = 14 * SCALE
    draw.rounded_rectangle((0, 0, big - 1, big - 1), radius=radius, fill=RIM)
    draw.rounded_rectangle((rim, rim, big - 1 - rim, big - 1 - rim), radius=radius - rim, fill=fill)
    return image, draw


def finish(image: Image.Image) -> Image.Image:
    """Scale the 4x drawing down to the emoji size."""
    return image.resize((SIZE, SIZE), Image.Resampling.LANCZOS)


def fitted_font(text: str, box: Box, fonts: tuple[str, str]) -> ImageFont.FreeTypeFont:
    """The largest font whose ink of ``text`` fits ``box`` (the narrow face for 10)."""
    path = fonts[1] if len(text) > 1 else fonts[0]
    width, height = box[2] - box[0], box[3] - box[1]
    size = int(height * 1.6)
    while size > 8:
        font = ImageFont.truetype(path, size)
        left, top, right, bottom = font.getbbox(text)
        if right - left <= width and bottom - top <= height:
            return font
        size -= 2
    return ImageFont.truetype(path, size)


def draw_text(
    draw: ImageDraw.ImageDraw, text: str, box: Box, fill: tuple[int, ...], fonts: tuple[str, str]
) -> None:
    """``text`` as large as fits, its ink centred in ``box``."""
    font = fitted_font(text, box, fonts)
    left, top, right, bottom = font.getbbox(text)
    x = (box[0] + box[2]) / 2 - (left + right) / 2
    y = (box[1] + box[3]) / 2 - (top + bottom) / 2
    draw.text((x, y), text, font=font, fill=fill)


def face(code: str, fonts: tuple[str, str]) -> Image.Image:
    """One card face: the rank above, the suit below."""
    rank, suit = code[0], code[1]
    image, draw = blank()
    s = SCALE
    colour = colour_of(suit)
    if rank == "X":
        return joker(image, draw, colour, fonts)
    label = "10" if rank == "T" else rank
    draw_text(draw, label, (10 * s, 7 * s, 118 * s, 60 * s), colour, fonts)
    draw_suit(draw, suit, (29 * s, 65 * s, 99 * s, 122 * s), colour)
    return finish(image)


def joker(
    image: Image.Image, draw: ImageDraw.ImageDraw, colour: tuple[int, ...], fonts: tuple[str, str]
) -> Image.Image:
    """A joker: a big star in the suit's colour and the word JOKER."""
    s = SCALE
    draw.polygon(star_points(64 * s, 50 * s, 44 * s, 18 * s), fill=colour)
    draw.polygon(star_points(64 * s, 52 * s, 18 * s, 7.5 * s), fill=GOLD)
    draw_text(draw, "JOKER", (12 * s, 96 * s, 116 * s, 119 * s), colour, (fonts[1], fonts[1]))
    return finish(image)


def back() -> Image.Image:
    """A face-down card: a blue back with a lattice and a white frame."""
    image, draw = blank(BACK_BLUE)
    s = SCALE
    big = SIZE * s
    step = 16 * s
    for k in range(-big, 2 * big, step):
        draw.line((k, 0, k + big, big), fill=BACK_LINE, width=3 * s)
        draw.line((k, big, k + big, 0), fill=BACK_LINE, width=3 * s)
    frame = 11 * s
    draw.rounded_rectangle(
        (frame, frame, big - frame, big - frame), radius=8 * s, outline=WHITE, width=5 * s
    )
    # the lattice ran over the rim: draw the rim again
    rim = 3 * s
    mask = Image.new("L", image.size, 0)
    ImageDraw.Draw(mask).rounded_rectangle(
        (rim, rim, big - 1 - rim, big - 1 - rim), radius=14 * s - rim, fill=255
    )
    framed, _ = blank(RIM)
    framed.paste(image, (0, 0), mask)
    return finish(framed)


# ----------------------------------------------------------------- files
def images(fonts: tuple[str, str]) -> dict[str, Image.Image]:
    """Every image by file stem: the card codes and ``back``."""
    out = {code: face(code, fonts) for code in card_codes()}
    out["back"] = back()
    return out


def write(out: Path, drawn: dict[str, Image.Image]) -> None:
    """Save the PNGs (optimised; a few KB each, far under Discord's 256 KiB)."""
    out.mkdir(parents=True, exist_ok=True)
    for stem, image in drawn.items():
        image.save(out / f"{stem}.png", optimize=True)


def sheet(drawn: dict[str, Image.Image], path: Path) -> None:
    """Every image at 22 px and 48 px, on Discord's dark and light backgrounds."""
    stems = list(drawn)
    rows = []
    for size in (22, 48):
        for bg in ((49, 51, 56, 255), (255, 255, 255, 255)):
            per_row = 14
            gap = size // 4
            lines = math.ceil(len(stems) / per_row)
            row = Image.new("RGBA", (per_row * (size + gap) + gap, lines * (size + gap) + gap), bg)
            for i, stem in enumerate(stems):
                small = drawn[stem].resize((size, size), Image.Resampling.LANCZOS)
                x = gap + (i % per_row) * (size + gap)
                y = gap + (i // per_row) * (size + gap)
                row.paste(small, (x, y), small)
            rows.append(row)
    width = max(r.width for r in rows)
    out = Image.new("RGBA", (width, sum(r.height for r in rows)), (128, 128, 128, 255))
    y = 0
    for row in rows:
        out.paste(row, (0, y))
        y += row.height
    out.save(path)


def main() -> None:
    """Draw the cards; optionally a contact sheet."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=OUT, help="folder for the PNGs")
    parser.add_argument("--font", default=FONT, help="bold font for the ranks")
    parser.add_argument("--narrow-font", default=FONT_NARROW, help="narrow bold font for 10")
    parser.add_argument("--sheet", type=Path, help="also write a contact sheet here")
    args = parser.parse_args()
    drawn = images((args.font, args.narrow_font))
    write(args.out, drawn)
    if args.sheet:
        sheet(drawn, args.sheet)
    print(f"wrote {len(drawn)} images to {args.out}")


if __name__ == "__main__":
    main()
