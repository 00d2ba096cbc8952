"""Rolls of several dice as sorted hands, with exact multinomial probabilities.

A cup of five dice has 7776 ordered rolls but only 252 distinct hands once the dice are
sorted, and nobody at the table can tell the order apart. Rolling a whole hand as one
chance outcome keeps enumeration exact and small: the solver and the odds tables walk
252 branches instead of 7776 (or six nested one-die nodes).
"""

from __future__ import annotations

from collections import Counter
from fractions import Fraction
from functools import lru_cache
from itertools import combinations_with_replacement
from math import factorial

Hand = tuple[int, ...]


def hand_weight(hand: Hand) -> int:
    """How many ordered rolls give this sorted hand: n! / (m1! m2! ...)."""
    weight = factorial(len(hand))
    for multiplicity in Counter(hand).values():
        weight //= factorial(multiplicity)
    return weight


@lru_cache(maxsize=128)
def hand_outcomes(dice: int, faces: int) -> tuple[tuple[Hand, Fraction], ...]:
    """Every sorted hand of `dice` dice with `faces` faces and its exact probability."""
    total = faces**dice
    return tuple(
        (hand, Fraction(hand_weight(hand), total))
        for hand in combinations_with_replacement(range(1, faces + 1), dice)
    )


def is_hand(hand: object, dice: int, faces: int) -> bool:
    """Whether `hand` is a sorted tuple of `dice` faces from 1 to `faces`."""
    return (
        isinstance(hand, tuple)
        and len(hand) == dice
        and all(isinstance(d, int) and 1 <= d <= faces for d in hand)
        and all(a <= b for a, b in zip(hand, hand[1:], strict=False))
    )
