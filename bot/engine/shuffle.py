"""Provable fairness: CSPRNG seeds, SHA-256 commitments and the seeded shuffle.

Order = Fisher-Yates where each index comes from an unbiased integer stream:
block_i = SHA-256(seed || i as 8-byte big-endian), the blocks concatenated; an integer
below n takes ceil(bits(n-1)/8) bytes, masked to bits(n-1) bits, rejected if >= n.
Anyone holding the revealed seed recomputes the same order on any machine.
"""

from __future__ import annotations

import hashlib
import secrets
from collections.abc import Callable, Sequence
from functools import cache
from typing import TypeVar

from .cards import Card, Rank, Suit, build_deck

T = TypeVar("T")

SEED_BYTES = 32

#: Gives the seed of shuffle number n of a game. Production ignores n and draws fresh
#: CSPRNG bytes; tests pass a deterministic function so a game replays identically.
Entropy = Callable[[int], bytes]


def secure_entropy(_n: int) -> bytes:
    """A fresh 32-byte seed from the operating system's CSPRNG."""
    return secrets.token_bytes(SEED_BYTES)


def seeded_entropy(label: str | bytes) -> Entropy:
    """A deterministic seed source for tests and simulations (never for real tables)."""
    base = label.encode() if isinstance(label, str) else label

    def entropy(n: int) -> bytes:
        return hashlib.sha256(base + n.to_bytes(8, "big")).digest()

    return entropy


def commitment(seed: bytes) -> str:
    """The public commitment of a seed: its SHA-256 in hex."""
    return hashlib.sha256(seed).hexdigest()


class RandomStream:
    """Unbiased integers from SHA-256 in counter mode over a seed."""

    __slots__ = ("_buffer", "_counter", "_seed")

    def __init__(self, seed: bytes) -> None:
        self._seed = seed
        self._counter = 0
        self._buffer = b""

    def _take(self, n: int) -> bytes:
        while len(self._buffer) < n:
            block = hashlib.sha256(self._seed + self._counter.to_bytes(8, "big")).digest()
            self._buffer += block
            self._counter += 1
        out, self._buffer = self._buffer[:n], self._buffer[n:]
        return out

    def below(self, n: int) -> int:
        """A uniform integer in [0, n) by rejection sampling."""
        if n < 1:
            raise ValueError("n must be positive")
        if n == 1:
            return 0
        bits = (n - 1).bit_length()
        nbytes = (bits + 7) // 8
        mask = (1 << bits) - 1
        while True:
            x = int.from_bytes(self._take(nbytes), "big") & mask
            if x < n:
                return x


def shuffled(items: Sequence[T], seed: bytes) -> list[T]:
    """Fisher-Yates shuffle of a copy of ``items`` driven by ``seed``."""
    out = list(items)
    stream = RandomStream(seed)
    for i in range(len(out) - 1, 0, -1):
        j = stream.below(i + 1)
        out[i], out[j] = out[j], out[i]
    return out


def verify(seed_hex: str, expected_commitment: str, deck_spec: str) -> list[Card]:
    """Check a revealed seed against its commitment and return the card order it gives."""
    seed = bytes.fromhex(seed_hex)
    if len(seed) != SEED_BYTES:
        raise ValueError("a seed is 32 bytes (64 hex digits)")
    if commitment(seed) != expected_commitment.strip().lower():
        raise ValueError("the seed does not match the commitment")
    return shuffled(build_deck(deck_spec), seed)


# Every distinct card, so a shoe holds its order as one byte per card: a six-deck shoe is
# 312 bytes instead of 2.5 KiB of pointers, in each of thousands of open tables.
_CARDS: tuple[Card, ...] = tuple(Card.parse(r.value + s.value) for r in Rank for s in Suit)
_INDEX: dict[Card, int] = {card: n for n, card in enumerate(_CARDS)}


@cache
def _deck_size(spec: str) -> int:
    return len(build_deck(spec))


class Shoe:
    """A shuffled deck being dealt: the deck spec, the seed and how far it was dealt.

    Only (spec, seed, position) is stored in snapshots; the order is recomputed from them
    at the first draw, so loading thousands of tables at start-up shuffles none.
    """

    __slots__ = ("_order", "_size", "pos", "seed", "spec")

    def __init__(self, spec: str, seed: bytes, pos: int = 0) -> None:
        self.spec = spec
        self.seed = seed
        self.pos = pos
        self._size = _deck_size(spec)  # also checks the spec
        self._order: bytes | None = None

    def _dealing_order(self) -> bytes:
        if self._order is None:
            self._order = bytes(_INDEX[card] for card in shuffled(build_deck(self.spec), self.seed))
        return self._order

    @property
    def order(self) -> list[Card]:
        """The whole shoe in dealing order (dealt cards included)."""
        return [_CARDS[n] for n in self._dealing_order()]

    def rig(self, cards: Sequence[Card]) -> None:
        """Replace the dealing order (tests' rigged decks; the position is kept)."""
        self._order = bytes(_INDEX[card] for card in cards)
        self._size = len(self._order)

    @property
    def commitment(self) -> str:
        """SHA-256 commitment of this shoe's seed (published before dealing)."""
        return commitment(self.seed)

    @property
    def size(self) -> int:
        """Number of cards in the full shoe."""
        return self._size

    @property
    def remaining(self) -> int:
        """Cards not dealt yet."""
        return self._size - self.pos

    def draw(self) -> Card:
        """Deal the next card."""
        order = self._dealing_order()
        if self.pos >= len(order):
            raise IndexError("the shoe is empty")
        card = _CARDS[order[self.pos]]
        self.pos += 1
        return card

    def to_dict(self) -> dict[str, object]:
        """JSON-able snapshot."""
        return {"spec": self.spec, "seed": self.seed.hex(), "pos": self.pos}

    @classmethod
    def from_dict(cls, data: dict[str, object]) -> Shoe:
        """Rebuild a shoe from its snapshot."""
        return cls(str(data["spec"]), bytes.fromhex(str(data["seed"])), int(str(data["pos"])))
