"""``python -m bot verify SEED COMMITMENT [DECK] [--shoe N --client-seeds A B ...]``: check a
revealed seed, print the order."""

from __future__ import annotations

import argparse

from .shuffle import verify


def main(argv: list[str]) -> int:
    """Verify a seed against its commitment and print the card order it gives."""
    parser = argparse.ArgumentParser(prog="croupier verify", description=main.__doc__)
    parser.add_argument("seed", help="the revealed seed (64 hex digits)")
    parser.add_argument("commitment", help="the SHA-256 commitment published before the deal")
    parser.add_argument(
        "deck",
        nargs="?",
        default="std52",
        help="deck spec: std52, std52*6, pirate54, sept40, sept32 (default std52)",
    )
    parser.add_argument("--shoe", type=int, default=None, help="the shoe's number (#N)")
    parser.add_argument(
        "--client-seeds",
        nargs="*",
        default=[],
        help="the players' client seeds the reveal lists, in its order (by user id)",
    )
    args = parser.parse_args(argv)
    try:
        order = verify(args.seed, args.commitment, args.deck, args.client_seeds, args.shoe)
    except ValueError as exc:
        print(f"NOT VERIFIED: {exc}")
        return 1
    print(f"verified: {len(order)} cards")
    print(" ".join(str(card) for card in order))
    return 0
