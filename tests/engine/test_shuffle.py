"""Provable-fairness shuffle: golden vectors, commitments, verify(), unbiasedness."""

from __future__ import annotations

import hashlib
import json
from collections import Counter
from pathlib import Path

import pytest

from bot.engine.cards import build_deck
from bot.engine.shuffle import (
    RandomStream,
    Shoe,
    commitment,
    seeded_entropy,
    shuffled,
    verify,
)

GOLDEN = json.loads((Path(__file__).parent / "golden" / "shuffle_vectors.json").read_text())
SEED = bytes(range(32))


def reference_shuffle(items: list[str], seed: bytes) -> list[str]:
    """An independent re-implementation of the published algorithm (RULES.md)."""
    buf = bytearray()
    counter = 0

    def below(n: int) -> int:
        nonlocal counter, buf
        if n == 1:
            return 0
        bits = (n - 1).bit_length()
        nbytes = (bits + 7) // 8
        while True:
            while len(buf) < nbytes:
                buf += hashlib.sha256(seed + counter.to_bytes(8, "big")).digest()
                counter += 1
            x = int.from_bytes(bytes(buf[:nbytes]), "big") & ((1 << bits) - 1)
            del buf[:nbytes]
            if x < n:
                return x

    out = list(items)
    for i in range(len(out) - 1, 0, -1):
        j = below(i + 1)
        out[i], out[j] = out[j], out[i]
    return out


@pytest.mark.parametrize("vec", GOLDEN["shuffles"], ids=lambda v: v["name"])
def test_golden_vectors(vec: dict[str, object]) -> None:
    seed = bytes.fromhex(str(vec["seed"]))
    assert commitment(seed) == vec["commitment"]
    order = shuffled(build_deck(str(vec["spec"])), seed)
    assert [c.code for c in order[:20]] == vec["first20"]


@pytest.mark.parametrize("vec", GOLDEN["shuffles"], ids=lambda v: v["name"])
def test_golden_vectors_match_reference(vec: dict[str, object]) -> None:
    seed = bytes.fromhex(str(vec["seed"]))
    codes = [c.code for c in build_deck(str(vec["spec"]))]
    assert reference_shuffle(codes, seed)[:20] == vec["first20"]
    assert reference_shuffle(codes, seed) == [
        c.code for c in shuffled(build_deck(str(vec["spec"])), seed)
    ]


def test_first_vector_is_the_documented_one() -> None:
    vec = GOLDEN["shuffles"][0]
    assert vec["seed"] == SEED.hex() and vec["spec"] == "std52"
    assert len(vec["first20"]) == 20


def test_stream_golden() -> None:
    stream = GOLDEN["stream"]
    seed = bytes.fromhex(stream["seed"])
    for n, expected in stream["draws"]:
        assert RandomStream(seed).below(n) == expected
    rs = RandomStream(seed)
    assert [rs.below(52) for _ in range(20)] == stream["sequence_below_52"]


def test_same_seed_same_order_and_different_seed_differs() -> None:
    deck = build_deck("std52*6")
    assert shuffled(deck, SEED) == shuffled(deck, SEED)
    assert shuffled(deck, SEED) != shuffled(deck, bytes(32))
    assert Counter(shuffled(deck, SEED)) == Counter(deck)  # a permutation


def test_verify_good_commitment_reprints_order() -> None:
    order = verify(SEED.hex(), commitment(SEED), "std52")
    assert order == shuffled(build_deck("std52"), SEED)
    # upper-case and spaces around the commitment are accepted
    assert verify(SEED.hex(), " " + commitment(SEED).upper() + " ", "std52") == order


def test_verify_bad_commitment() -> None:
    with pytest.raises(ValueError, match="does not match"):
        verify(SEED.hex(), commitment(bytes(32)), "std52")


def test_verify_bad_seed_length() -> None:
    with pytest.raises(ValueError):
        verify("00" * 16, commitment(bytes(16)), "std52")


def test_below_is_unbiased_chi_square() -> None:
    """Deterministic (fixed seed) chi-square check for n = 52 and a rejection-heavy n."""
    for n, draws in ((52, 52_000), (33, 33_000)):  # 33 rejects almost half of 6-bit draws
        rs = RandomStream(SEED)
        counts = Counter(rs.below(n) for _ in range(draws))
        assert set(counts) == set(range(n))
        expected = draws / n
        chi2 = sum((counts[i] - expected) ** 2 / expected for i in range(n))
        # df = n - 1; mean n - 1, sd sqrt(2(n-1)): allow ~4 sd
        df = n - 1
        assert chi2 < df + 4 * (2 * df) ** 0.5, chi2


def test_first_card_position_uniform_over_seeds() -> None:
    """Across seeds, the ace of spades lands in each 13-card quarter about equally."""
    entropy = seeded_entropy("uniform")
    deck = build_deck("std52")
    quarters = Counter()
    for k in range(2000):
        order = shuffled(deck, entropy(k))
        quarters[order.index(deck[0]) // 13] += 1
    for q in range(4):
        assert 400 < quarters[q] < 600


def test_below_rejects_non_positive() -> None:
    with pytest.raises(ValueError):
        RandomStream(SEED).below(0)


def test_shoe_snapshot_round_trip() -> None:
    shoe = Shoe("std52*2", SEED)
    first = [shoe.draw() for _ in range(10)]
    again = Shoe.from_dict(json.loads(json.dumps(shoe.to_dict())))
    assert again.pos == 10 and again.commitment == shoe.commitment
    assert [again.draw() for _ in range(5)] == [shoe.draw() for _ in range(5)]
    assert first == shuffled(build_deck("std52*2"), SEED)[:10]
    assert shoe.size == 104 and shoe.remaining == 104 - 15


def test_seeded_entropy_is_deterministic() -> None:
    a, b = seeded_entropy("x"), seeded_entropy("x")
    assert a(3) == b(3) and a(3) != a(4) and len(a(0)) == 32


@pytest.mark.parametrize("spec", ["std52*6", "std52*8", "sept40", "pirate54"])
def test_a_shoe_deals_the_reference_order(spec: str) -> None:
    # the shoe shuffles card indices, the stream reads hashed blocks by position: both
    # must give exactly the published algorithm's order (1- and 2-byte draws, refills)
    codes = [c.code for c in build_deck(spec)]
    for n in range(5):
        seed = hashlib.sha256(f"{spec}/{n}".encode()).digest()
        shoe = Shoe(spec, seed)
        assert [c.code for c in shoe.order] == reference_shuffle(codes, seed)


def test_a_long_shuffle_matches_the_reference() -> None:
    items = [str(n) for n in range(70_000)]  # 3-byte draws too
    assert shuffled(items, SEED) == reference_shuffle(items, SEED)


def test_pirate_deck_specs_name_every_pile_verify_can_rebuild() -> None:
    from bot.engine.cards import build_pirate_deck, pirate54, pirate_spec

    assert pirate_spec(36, 14, 4) == "pirate54"
    assert build_deck("pirate:36/14/4") == pirate54()
    for counts in ((8, 0, 0), (40, 15, 5), (360, 140, 40)):
        spec = pirate_spec(*counts)
        assert spec == "pirate:{}/{}/{}".format(*counts) and len(spec) <= 20  # /verify's limit
        deck = build_pirate_deck(dict(zip(("numbers", "pirates", "flags"), counts, strict=True)))
        assert build_deck(spec) == deck
        assert verify(SEED.hex(), commitment(SEED), spec) == shuffled(deck, SEED)
    for bad in ("pirate:36/14", "pirate:a/b/c", "pirate:", "pirate:٣/1/1"):
        with pytest.raises(ValueError):
            build_deck(bad)


def test_every_size_shuffles_as_the_reference() -> None:
    # the inlined one- and two-byte draws, the refills
    # in between: every size to 600 (70,000 above: three-byte draws), several seeds each
    for size in range(600):
        items = [str(k) for k in range(size)]
        for n in range(3):
            seed = hashlib.sha256(f"size/{size}/{n}".encode()).digest()
            assert shuffled(items, seed) == reference_shuffle(items, seed), size
