"""Provable fairness: CSPRNG seeds, SHA-256 commitments and the seeded shuffle.

Order = Fisher-Yates where each index comes from an unbiased integer stream:
block_i = SHA-256(seed || i as 8-byte big-endian), the blocks concatenated; an integer
below n takes ceil(bits(n-1)/8) bytes, masked to bits(n-1) bits, rejected if >= n.
Anyone holding the revealed seed recomputes the same order on any machine.

Client seeds: a shoe shuffled with players' client seeds is driven by the shoe key
HMAC-SHA256(key = server seed, msg = :func:`shoe_message`) instead of the server seed
itself; the server seed was committed before the client seeds were read, so neither the
operator nor a player chooses the order alone. A shoe without client seeds (an older shoe)
is driven by the server seed, as before.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
import string
from collections.abc import Callable, Mapping, Sequence
from functools import cache
from typing import Any, TypeVar

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


#: A client seed: 1 to 64 of these characters (no space, so a list of them is one string).
CLIENT_SEED_MAX = 64
CLIENT_SEED_CHARS = frozenset(string.ascii_letters + string.digits + "-_.:!?@#+=~")
_SHOE_LABEL = b"croupier-shoe-v1"


def client_seed_problem(text: str) -> str | None:
    """Why ``text`` is not a valid client seed (``empty``, ``too_long``, ``bad_chars``), or
    None."""
    if not text:
        return "empty"
    if len(text) > CLIENT_SEED_MAX:
        return "too_long"
    if not CLIENT_SEED_CHARS.issuperset(text):
        return "bad_chars"
    return None


def shoe_message(number: int, client_seeds: Sequence[str]) -> bytes:
    """The canonical message of a shoe key: ``croupier-shoe-v1``, the shoe number as 8
    big-endian bytes, then each client seed (in the order given: by user id) as one length
    byte and its ASCII bytes."""
    parts = [_SHOE_LABEL, number.to_bytes(8, "big")]
    for text in client_seeds:
        if client_seed_problem(text) is not None:
            raise ValueError(f"not a client seed: {text!r}")
        raw = text.encode("ascii")
        parts += [len(raw).to_bytes(1, "big"), raw]
    return b"".join(parts)


def shoe_key(server_seed: bytes, number: int, client_seeds: Sequence[str]) -> bytes:
    """The seed that drives shoe ``number``'s order: HMAC-SHA256 keyed by the server seed
    over :func:`shoe_message`; the server seed itself when there is no client seed."""
    if not client_seeds:
        return server_seed
    return hmac.new(server_seed, shoe_message(number, client_seeds), hashlib.sha256).digest()


def commitment(seed: bytes) -> str:
    """The public commitment of a seed: its SHA-256 in hex."""
    return hashlib.sha256(seed).hexdigest()


class RandomStream:
    """Unbiased integers from SHA-256 in counter mode over a seed.

    The byte stream is SHA-256(seed || counter as 8 big-endian bytes) for counter 0, 1,
    2...; ``below`` reads the fewest whole bytes that hold n - 1 and rejects values >= n.
    Blocks are hashed several at a time and read by position: a six-deck shuffle asks for
    over 300 numbers, and that shuffle runs inside a player's move."""

    __slots__ = ("_buffer", "_counter", "_pos", "_seed")

    BLOCKS = 8  # hashed per refill (the stream is the same whatever this is)

    def __init__(self, seed: bytes) -> None:
        self._seed = seed
        self._counter = 0
        self._buffer = b""
        self._pos = 0

    def _refill(self) -> None:
        seed, counter = self._seed, self._counter
        fresh = b"".join(
            hashlib.sha256(seed + (counter + k).to_bytes(8, "big")).digest()
            for k in range(self.BLOCKS)
        )
        self._buffer = self._buffer[self._pos :] + fresh
        self._pos = 0
        self._counter = counter + self.BLOCKS

    def _take(self, n: int) -> bytes:
        while self._pos + n > len(self._buffer):
            self._refill()
        out = self._buffer[self._pos : self._pos + n]
        self._pos += n
        return out

    def below(self, n: int) -> int:
        """A uniform integer in [0, n) by rejection sampling."""
        if n < 1:
            raise ValueError("n must be positive")
        if n == 1:
            return 0
        bits = (n - 1).bit_length()
        mask = (1 << bits) - 1
        if bits <= 8:  # one byte per try: read it in place
            while True:
                if self._pos >= len(self._buffer):
                    self._refill()
                x = self._buffer[self._pos] & mask
                self._pos += 1
                if x < n:
                    return x
        nbytes = (bits + 7) // 8
        while True:
            x = int.from_bytes(self._take(nbytes), "big") & mask
            if x < n:
                return x


def shuffled(items: Sequence[T], seed: bytes) -> list[T]:
    """Fisher-Yates shuffle of a copy of ``items`` driven by ``seed``: ``j =
    RandomStream(seed).below(i + 1)`` for i from the last index down to 1."""
    out = list(items)
    stream = RandomStream(seed)
    # below()'s one- and two-byte cases inlined, the stream's buffer held in locals: a
    # six-deck shoe shuffles at a table's first deal after a load (a replayed deal: at the
    # load itself), and the method call per card was 44 % of the shuffle (156 -> 88 us).
    # Same draws, same order: tests/engine/test_shuffle.py checks it against an independent
    # reference for every size to 600 and for 70,000 cards
    buf, pos = stream._buffer, stream._pos
    for i in range(len(out) - 1, 0, -1):
        n = i + 1
        mask = (1 << i.bit_length()) - 1  # (n - 1).bit_length() bits
        if n > 65536:  # three bytes or more per try: below() itself
            stream._buffer, stream._pos = buf, pos
            j = stream.below(n)
            buf, pos = stream._buffer, stream._pos
        elif n > 256:  # two bytes per try, big-endian
            while True:
                if pos + 2 > len(buf):
                    stream._buffer, stream._pos = buf, pos
                    stream._refill()
                    buf, pos = stream._buffer, stream._pos
                j = ((buf[pos] << 8) | buf[pos + 1]) & mask
                pos += 2
                if j < n:
                    break
        else:  # one byte per try
            while True:
                if pos >= len(buf):
                    stream._buffer, stream._pos = buf, pos
                    stream._refill()
                    buf, pos = stream._buffer, stream._pos
                j = buf[pos] & mask
                pos += 1
                if j < n:
                    break
        out[i], out[j] = out[j], out[i]
    return out


def verify(
    seed_hex: str,
    expected_commitment: str,
    deck_spec: str,
    client_seeds: Sequence[str] = (),
    shoe: int | None = None,
) -> list[Card]:
    """Check a revealed seed against its commitment and return the card order it gives
    with these client seeds (in user-id order) for shoe number ``shoe``."""
    seed = bytes.fromhex(seed_hex)
    if len(seed) != SEED_BYTES:
        raise ValueError("a seed is 32 bytes (64 hex digits)")
    if commitment(seed) != expected_commitment.strip().lower():
        raise ValueError("the seed does not match the commitment")
    if client_seeds and (shoe is None or shoe < 1):
        raise ValueError("client seeds need the shoe's number (1 or more)")
    return shuffled(build_deck(deck_spec), shoe_key(seed, shoe or 0, client_seeds))


# Every distinct card, so a shoe holds its order as one byte per card: a six-deck shoe is
# 312 bytes instead of 2.5 KiB of pointers, in each of thousands of open tables.
_CARDS: tuple[Card, ...] = tuple(Card.parse(r.value + s.value) for r in Rank for s in Suit)
_INDEX: dict[Card, int] = {card: n for n, card in enumerate(_CARDS)}


@cache
def _deck_indices(spec: str) -> bytes:
    """The unshuffled deck of ``spec`` as indices into ``_CARDS`` (also checks the spec)."""
    return bytes(_INDEX[card] for card in build_deck(spec))


class Shoe:
    """A shuffled deck being dealt: the deck spec, the server seed, the client seeds
    ((user id, seed) by user id) and the shoe's number they were mixed with, and how far
    it was dealt.

    Only those are stored in snapshots; the order is recomputed from them at the first
    draw, so loading thousands of tables at start-up shuffles none.
    """

    __slots__ = ("_commitment", "_order", "_size", "clients", "number", "pos", "seed", "spec")

    def __init__(
        self,
        spec: str,
        seed: bytes,
        pos: int = 0,
        *,
        number: int = 0,
        clients: tuple[tuple[int, str], ...] = (),
    ) -> None:
        self.spec = spec
        self.seed = seed
        self.pos = pos
        self.number = number
        self.clients = clients
        self._size = len(_deck_indices(spec))  # also checks the spec
        self._order: bytes | None = None
        self._commitment: str | None = None

    def _dealing_order(self) -> bytes:
        if self._order is None:
            # shuffling the indices gives the same order as shuffling the cards
            key = shoe_key(self.seed, self.number, [text for _, text in self.clients])
            self._order = bytes(shuffled(_deck_indices(self.spec), key))
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
        """SHA-256 commitment of this shoe's seed (published before dealing); hashed once:
        every view of the table shows it."""
        if self._commitment is None:
            self._commitment = commitment(self.seed)
        return self._commitment

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
        out: dict[str, object] = {"spec": self.spec, "seed": self.seed.hex(), "pos": self.pos}
        if self.clients:  # an older shoe has none: its order is the server seed's
            out["number"] = self.number
            out["clients"] = [[user, text] for user, text in self.clients]
        return out

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Shoe:
        """Rebuild a shoe from its snapshot."""
        clients = tuple((int(u), str(t)) for u, t in data.get("clients", ()))
        return cls(
            str(data["spec"]),
            bytes.fromhex(str(data["seed"])),
            int(str(data["pos"])),
            number=int(data.get("number", 0)),
            clients=clients,
        )


class Retired:
    """A shoe out of use whose server seed is still secret: what its reveal will show."""

    __slots__ = ("clients", "number", "seed", "spec")

    def __init__(
        self, seed: bytes, spec: str, number: int = 0, clients: tuple[tuple[int, str], ...] = ()
    ) -> None:
        self.seed = seed
        self.spec = spec
        self.number = number
        self.clients = clients

    def to_dict(self) -> dict[str, Any]:
        """JSON-able snapshot (the shoe number and client seeds only when it had some)."""
        out: dict[str, Any] = {"seed": self.seed.hex(), "spec": self.spec}
        if self.clients:
            out["number"] = self.number
            out["clients"] = [[user, text] for user, text in self.clients]
        return out

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Retired:
        """Rebuild from :meth:`to_dict` (or an older snapshot's seed and spec)."""
        clients = tuple((int(u), str(t)) for u, t in data.get("clients", ()))
        return cls(
            bytes.fromhex(data["seed"]), str(data["spec"]), int(data.get("number", 0)), clients
        )
