"""Deals: the SplitMix64 generator, the Fisher–Yates shuffle and the starting layout.

The known answers below were generated once (DEAL_VERSION 1) and are pinned so that the
shuffle can never change silently: a finished game must be re-derivable from its seed for
ever. If one of these tests fails, the deal procedure changed — bump DEAL_VERSION and keep
the old procedure for old games; never edit the strings to make the test pass.
"""

from __future__ import annotations

from collections import Counter

import pytest

from games.engine import DEAL_VERSION, MAX_SEED, LayoutError, deal_layout, shuffled_deck
from games.engine.cards import full_deck
from games.engine.deal import SplitMix64, check_seed

# SplitMix64 reference outputs (Steele, Lea, Flood 2014; as in Vigna's splitmix64.c).
SPLITMIX64_SEED = 1234567
SPLITMIX64_FIRST = [6457827717110365317, 3203168211198807973, 9817491932198370423]

KNOWN_LAYOUTS = {
    (1, 1): (
        "1 6s5sJs8s6s|2s/7sTs9s9sKs|8s/JsKsJsQs3s|7s/8sJsKs3sKs|4s/KsAs5s6s|Js/"
        "7sQs3s7s|Ts/6sTs7sAs|5s/8s4sAsAs|5s/6s3s8sAs|2s/9s4s9s6s|3s "
        "8s2sJs2s9s2s5s9s5s7s3s6s2sAsTs4s9sQs4s4sQsQs2s9s4s"
        "QsKsTs7s6s5s5sAsTs2sKsQs3s8sQs3s8sTsKsJsTsJsAs4s7s -"
    ),
    (1, 2): (
        "1 TsAs8sAsAs|As/As4sKs4sTs|Qs/6sKs7sJs4s|5s/Js2s4sTsTs|3s/2sKs8s7s|3s/"
        "Qs6s9sQs|2s/5s4s7s6s|6s/3s9sKs9s|8s/7s6sKsQs|8s/As8s9s2s|4s "
        "2sQs9s5sTs2sAs5s3s3sQs2s6s3s4s8sJs7s6s6s7sTs8sQs7s"
        "5sJsJs5sAs5s9s2sJsJs3s7s4s8sKsKsQs9s5s3sJsTsTsKs9s -"
    ),
    (1, 3): (
        "1 8sAsTsAsKs|2s/Qs3s5s3s9s|6s/4sAs6s6s6s|Qs/Js5sQsKs7s|9s/7sTs2s5s|9s/"
        "Ts4s3s5s|As/4s3s8s2s|4s/As7sQs5s|3s/Js8sQsKs|8s/9s8sKs9s|5s "
        "2s8s3s4s6s3sAsJsKsTs6s6s4s8s2sAsTs5s7sKsJsQsJs6s3s"
        "4s7s7sKs2s8s9sQsJs7sTs4sJsQs9s9sAsTs2s7s2sKsJs5sTs -"
    ),
    (2, 1): (
        "2 6s5sJs8h6s|2s/7sTs9h9hKs|8s/JsKhJhQh3s|7s/8sJsKs3hKs|4h/KhAs5h6s|Jh/"
        "7hQh3h7h|Th/6hTh7hAh|5h/8s4hAsAh|5h/6s3s8hAh|2h/9s4s9s6h|3h "
        "8s2sJs2h9s2s5s9h5s7s3s6h2hAsTs4h9sQs4s4hQhQs2s9h4s"
        "QsKhTs7s6h5h5sAhTh2hKsQh3s8hQs3h8hThKhJhTsJhAs4s7h -"
    ),
    (2, 2): (
        "2 ThAh8sAhAs|As/As4hKh4sTs|Qs/6sKs7sJs4h|5h/Jh2s4hThTh|3h/2hKs8h7s|3s/"
        "Qh6h9sQh|2s/5s4s7h6h|6s/3h9sKs9h|8h/7s6hKhQs|8s/As8h9h2h|4s "
        "2sQh9h5hTs2hAh5h3s3sQs2s6h3s4s8hJs7h6s6s7sTs8sQh7h"
        "5sJsJh5sAh5h9s2hJsJh3h7h4h8sKhKhQs9h5s3hJhThTsKs9s -"
    ),
    (2, 3): (
        "2 8sAhTsAsKs|2h/Qh3h5s3h9h|6s/4hAs6h6h6s|Qs/Js5hQhKh7s|9s/7sTh2s5s|9s/"
        "Th4s3h5h|As/4h3s8s2s|4s/Ah7hQs5h|3s/Jh8sQsKs|8s/9s8hKh9h|5s "
        "2s8h3s4s6s3sAhJhKhTs6h6s4h8h2sAhTh5h7hKhJsQhJh6h3h"
        "4h7s7hKs2h8h9hQhJs7sTh4sJsQs9s9hAsTs2h7h2hKsJh5sTs -"
    ),
    (4, 1): (
        "4 6d5sJs8h6d|2s/7dTd9c9hKd|8d/JsKhJcQh3d|7s/8sJdKs3hKs|4c/KcAd5c6s|Jc/"
        "7hQc3c7h|Th/6cTc7cAc|5c/8s4hAsAh|5h/6s3s8cAc|2h/9s4s9s6h|3c "
        "8d2dJd2c9d2s5s9c5d7s3s6c2cAdTd4c9dQd4s4hQcQd2d9h4d"
        "QsKcTs7d6h5h5dAhTc2hKdQh3d8cQs3h8hThKhJhTsJhAs4d7c -"
    ),
    (4, 2): (
        "4 ThAc8sAcAs|Ad/Ad4cKc4sTd|Qs/6dKd7sJd4h|5h/Jc2s4hTcTc|3c/2hKs8c7d|3s/"
        "Qc6h9dQh|2s/5d4s7c6c|6s/3h9sKs9h|8c/7s6hKcQd|8s/As8h9c2c|4d "
        "2dQc9h5hTd2cAh5c3s3dQd2d6c3d4d8hJd7h6d6s7dTs8dQh7c"
        "5sJsJh5dAh5c9s2hJsJh3c7h4c8dKhKhQs9c5s3hJcThTsKd9d -"
    ),
    (4, 3): (
        "4 8sAcTdAsKd|2c/Qc3c5s3h9h|6s/4hAs6c6h6s|Qd/Js5cQhKh7d|9s/7sTh2d5s|9d/"
        "Tc4d3h5h|Ad/4c3s8s2s|4s/Ah7cQd5c|3s/Jc8dQsKd|8d/9d8cKc9h|5d "
        "2s8h3d4s6d3dAhJhKhTd6c6d4c8c2dAcTc5h7hKcJdQhJc6h3c"
        "4h7s7hKs2h8h9cQcJs7dTh4dJdQs9s9cAdTs2c7c2hKsJh5dTs -"
    ),
}


def test_deal_version_is_one() -> None:
    assert DEAL_VERSION == 1


def test_splitmix64_matches_the_reference_vector() -> None:
    rng = SplitMix64(SPLITMIX64_SEED)
    assert [rng.next() for _ in SPLITMIX64_FIRST] == SPLITMIX64_FIRST


def test_splitmix64_outputs_are_64_bit() -> None:
    rng = SplitMix64(MAX_SEED)  # the state wraps around modulo 2**64
    assert all(0 <= rng.next() <= MAX_SEED for _ in range(1000))


class _Scripted(SplitMix64):
    """A generator that returns fixed outputs, to pin the bounded-integer procedure."""

    def __init__(self, outputs: list[int]) -> None:
        super().__init__(0)
        self.outputs = list(outputs)

    def next(self) -> int:
        return self.outputs.pop(0)


def test_bounded_draw_rejects_the_biased_top_of_the_range() -> None:
    # For n = 3 the limit is 2**64 - (2**64 mod 3) = 2**64 - 1: that one value is redrawn.
    rng = _Scripted([2**64 - 1, 5])
    assert rng.below(3) == 5 % 3
    assert rng.outputs == []
    # The largest accepted value is kept, reduced modulo n.
    assert _Scripted([2**64 - 2]).below(3) == (2**64 - 2) % 3
    # A power of two never rejects.
    assert _Scripted([MAX_SEED]).below(8) == 7


def test_bounded_draw_stays_in_range() -> None:
    rng = SplitMix64(99)
    for n in (1, 2, 3, 10, 104):
        assert all(0 <= rng.below(n) < n for _ in range(200))


@pytest.mark.parametrize(("suits", "seed"), sorted(KNOWN_LAYOUTS))
def test_known_layouts_never_change(suits: int, seed: int) -> None:
    assert deal_layout(suits, seed).notation() == KNOWN_LAYOUTS[(suits, seed)]


@pytest.mark.parametrize("suits", [1, 2, 4])
def test_the_shuffle_is_fisher_yates_over_splitmix64(suits: int) -> None:
    """Re-derive a deal from the documented procedure, independently of shuffled_deck."""
    seed = 0xDEADBEEF
    deck = full_deck(suits)
    rng = SplitMix64(seed)
    for i in range(103, 0, -1):
        j = rng.below(i + 1)
        deck[i], deck[j] = deck[j], deck[i]
    assert shuffled_deck(suits, seed) == deck


@pytest.mark.parametrize("suits", [1, 2, 4])
@pytest.mark.parametrize("seed", [0, 1, 2**63, MAX_SEED])
def test_a_shuffle_is_a_permutation_of_the_deck(suits: int, seed: int) -> None:
    deck = shuffled_deck(suits, seed)
    assert Counter(deck) == Counter(full_deck(suits))
    assert deck != full_deck(suits)
    assert shuffled_deck(suits, seed) == deck  # deterministic


def test_different_seeds_give_different_deals() -> None:
    deals = {tuple(shuffled_deck(2, seed)) for seed in range(50)}
    assert len(deals) == 50


@pytest.mark.parametrize("seed", [-1, MAX_SEED + 1, 1.0, "7", True, None])
def test_bad_seeds_are_refused(seed: object) -> None:
    with pytest.raises(LayoutError) as info:
        deal_layout(2, seed)  # type: ignore[arg-type]
    assert info.value.code == "bad_seed"
    with pytest.raises(LayoutError):
        check_seed(seed)  # type: ignore[arg-type]


def test_bad_suit_mode_is_refused() -> None:
    with pytest.raises(LayoutError) as info:
        deal_layout(3, 1)
    assert info.value.code == "bad_suits"


@pytest.mark.parametrize("suits", [1, 2, 4])
def test_starting_layout_shape(suits: int) -> None:
    layout = deal_layout(suits, 12345)
    assert [len(d) + len(u) for d, u in layout.columns] == [6, 6, 6, 6, 5, 5, 5, 5, 5, 5]
    assert [len(u) for _, u in layout.columns] == [1] * 10  # only the last card is face up
    assert sum(len(d) for d, _ in layout.columns) == 44
    assert len(layout.stock) == 50
    assert layout.removed == ()
    assert layout.total_cards() == 104


def test_cards_are_dealt_round_robin_then_the_stock_in_order() -> None:
    deck = shuffled_deck(4, 77)
    layout = deal_layout(4, 77)
    for i in range(54):
        down, up = layout.columns[i % 10]
        assert (down + up)[i // 10] == deck[i]
    assert list(layout.stock) == deck[54:]
