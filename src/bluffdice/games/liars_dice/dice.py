"""Rolls of several dice as sorted hands, with exact multinomial probabilities, and
the small pieces both dice-cup games share.

A cup of five dice has 7776 ordered rolls but only 252 distinct hands once the dice are
sorted, and nobody at the table can tell the order apart. Rolling a whole hand as one
chance outcome keeps enumeration exact and small: the solver and the odds tables walk
252 branches instead of 7776 (or six nested one-die nodes).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import fields
from fractions import Fraction
from functools import cached_property, lru_cache
from itertools import combinations_with_replacement
from math import factorial
from typing import Any, ClassVar, Self, TypeVar

from bluffdice.games.rulestring import format_rules

Hand = tuple[int, ...]
_O = TypeVar("_O")


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


@lru_cache(maxsize=256)
def roll_table(
    outcome: Callable[[Hand], _O], dice: int, faces: int
) -> tuple[tuple[tuple[_O, Fraction], ...], frozenset[_O]]:
    """The chance outcomes of rolling `dice` dice, each hand wrapped by `outcome` (a
    game's `Dice` struct), and the set of them for quick legality checks."""
    outcomes = tuple((outcome(hand), p) for hand, p in hand_outcomes(dice, faces))
    return outcomes, frozenset(o for o, _ in outcomes)


class RulesValue:
    """Shared by the frozen rules dataclasses of the dice games: rules are values."""

    game_name: ClassVar[str]

    def __deepcopy__(self, memo: dict[int, Any]) -> Self:
        """Copies share an immutable rule set (and its cached tables)."""
        return self

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickle the options only, not the cached tables."""
        return (type(self), tuple(getattr(self, f.name) for f in fields(self)))  # type: ignore[arg-type]

    @cached_property
    def text(self) -> str:
        """The canonical rule string, e.g. `liars-dice(dice=3,calza=on)`."""
        return format_rules(self.game_name, self)


def zero_sum_returns(
    players: int, winners: tuple[int, ...], losers: tuple[int, ...]
) -> tuple[float, ...]:
    """The winners share +1 and the losers share -1; anyone else gets 0."""
    if not winners or not losers:
        return (0.0,) * players
    win, lose = 1.0 / len(winners), -1.0 / len(losers)
    return tuple(win if i in winners else lose if i in losers else 0.0 for i in range(players))


_Dice = TypeVar("_Dice")
_First = TypeVar("_First")


def cup_outcome(
    dice: Sequence[int],
    count: int,
    faces: int,
    seat_draw: bool,
    make_dice: Callable[[tuple[int, ...]], _Dice],
    make_first: Callable[[int], _First],
) -> _Dice | _First:
    """The chance outcome of physically rolled dice in the cup games: one sorted hand,
    whatever order the dice fell in; at the seat draw, die k of n seats picks seat k - 1."""
    from bluffdice.games.base import IllegalAction

    if len(dice) != count or not all(type(d) is int and 1 <= d <= faces for d in dice):
        raise IllegalAction(f"chance needs {count} dice showing 1 to {faces}, not {dice}")
    if seat_draw:
        return make_first(dice[0] - 1)
    return make_dice(tuple(sorted(dice)))
