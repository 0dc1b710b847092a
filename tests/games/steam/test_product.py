"""Moves made on demand (games/steam/product.py) are the lists they stand for: same length, same
order, same move at every index, and a seeded random pick takes the same move."""
from __future__ import annotations

import random

import pytest

from games.steam.product import Chain, Product

TOWNS, COLOURS, SPACES = ["C3", "D8", "K2"], ["red", "blue"], [1, 4, 7, 12]


def triple(*parts):
    return parts


def test_a_product_is_the_nested_list_in_order():
    p = Product(triple, (TOWNS, COLOURS, SPACES))
    want = [(t, c, s) for t in TOWNS for c in COLOURS for s in SPACES]
    assert len(p) == len(want) and list(p) == want
    assert [p[i] for i in range(-len(want), len(want))] == want + want
    with pytest.raises(IndexError):
        p[len(want)]


def test_an_empty_part_or_no_parts_give_nothing():
    assert len(Product(triple, (TOWNS, [], SPACES))) == 0 and not Product(triple, ())
    assert list(Product(triple, ())) == []


def test_a_chain_is_the_two_lists_joined_and_picks_alike():
    a = Product(triple, (TOWNS, COLOURS, SPACES))
    b = Product(triple, (["X1"], [0, 2]))
    want = list(a) + list(b)
    chain = Chain(a, b)
    assert list(chain) == want and len(chain) == len(want) and chain[-1] == want[-1]
    for seed in range(50):
        assert random.Random(seed).choice(chain) == random.Random(seed).choice(want)
