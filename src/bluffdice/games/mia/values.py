"""Mia values and their ranking under every ranking option.

A value is the higher die times ten plus the lower die (5 and 3 is 53). A ranking turns
the 21 values into tiers, best first; values in one tier tie (only the pips option makes
ties). Everything that compares values (the state machine, the odds tables, the bots)
asks a `Ranking`, so no second table of the order exists anywhere.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from fractions import Fraction
from functools import cached_property, lru_cache

MIA = 21
LITTLE_MIA = 31
JOKER = 32
HALBMEIER = 42

DICE_PAIRS: tuple[tuple[int, int], ...] = tuple(
    (hi, lo) for hi in range(6, 0, -1) for lo in range(hi, 0, -1)
)
"""The 21 unordered rolls, higher die first."""

VALUES: tuple[int, ...] = tuple(hi * 10 + lo for hi, lo in DICE_PAIRS)


def value_of(die1: int, die2: int) -> int:
    """The value of two dice in either order: value_of(3, 5) == 53."""
    if not (1 <= die1 <= 6 and 1 <= die2 <= 6):
        raise ValueError(f"dice show 1 to 6, not {die1} and {die2}")
    hi, lo = max(die1, die2), min(die1, die2)
    return hi * 10 + lo


def dice_of(value: int) -> tuple[int, int]:
    """The two dice of a value, higher first."""
    if value not in VALUES:
        raise ValueError(f"{value} is not a Mia value")
    return value // 10, value % 10


def is_double(value: int) -> bool:
    return value // 10 == value % 10


def ways(value: int) -> int:
    """How many of the 36 ordered rolls give `value`: 1 for a double, else 2."""
    if value not in VALUES:
        raise ValueError(f"{value} is not a Mia value")
    return 1 if is_double(value) else 2


def probability(value: int) -> Fraction:
    """The exact chance that a fresh roll shows `value`."""
    return Fraction(ways(value), 36)


def pips(value: int) -> int:
    return value // 10 + value % 10


_VALUE_WORDS = {"mia": MIA, "meyer": MIA, "meier": MIA, "maexchen": MIA, "mäxchen": MIA}


def parse_value(text: str) -> int:
    """Read a value as people type it: `54`, `45`, `5 4`, `5,4`, `mia`.

    Raises ValueError with a sentence that says what is accepted.
    """
    word = text.strip().lower()
    if word in _VALUE_WORDS:
        return _VALUE_WORDS[word]
    digits = re.fullmatch(r"([1-6])\s*[ ,/x-]?\s*([1-6])", word)
    if digits is None:
        raise ValueError(
            f"{text.strip()!r} is not a Mia value: type two dice like 54, 5 4 or 4,5, or mia"
        )
    return value_of(int(digits.group(1)), int(digits.group(2)))


@dataclass(frozen=True)
class Ranking:
    """The order of the 21 values under the ranking options of a rule set."""

    doubles_ascending: bool = False
    little_mia: bool = False
    halbmeier: bool = False
    pips: bool = False

    @cached_property
    def tiers(self) -> tuple[tuple[int, ...], ...]:
        """Values best first; values in one tier tie."""
        return _tiers(self.doubles_ascending, self.little_mia, self.halbmeier, self.pips)

    @cached_property
    def _rank(self) -> dict[int, int]:
        top = len(self.tiers)
        return {v: top - i for i, tier in enumerate(self.tiers) for v in tier}

    def rank(self, value: int) -> int:
        """A number that is larger for better values and equal for ties (1 = worst)."""
        try:
            return self._rank[value]
        except KeyError:
            raise ValueError(f"{value} is not a Mia value") from None

    def beats(self, a: int, b: int) -> bool:
        """Whether value `a` is strictly better than `b`."""
        return self.rank(a) > self.rank(b)

    @cached_property
    def best_first(self) -> tuple[int, ...]:
        return tuple(v for tier in self.tiers for v in tier)

    @cached_property
    def worst_first(self) -> tuple[int, ...]:
        return tuple(reversed(self.best_first))

    @cached_property
    def above(self) -> dict[int, tuple[int, ...]]:
        """For each value, the values strictly better than it, worst first."""
        return {
            v: tuple(w for w in self.worst_first if self.rank(w) > self.rank(v)) for v in VALUES
        }

    @cached_property
    def at_least(self) -> dict[int, tuple[int, ...]]:
        """For each value, the values equal to or better than it, worst first."""
        return {
            v: tuple(w for w in self.worst_first if self.rank(w) >= self.rank(v)) for v in VALUES
        }

    def name(self, value: int) -> str:
        """A value as a player says it: `21 (Mia)`, `55`, `62 (8 pips)`."""
        named = self.named(value)
        if named == "mia":
            return "21 (Mia)"
        if named == "littleMia":
            return "31 (little Mia)"
        if named == "halbmeier":
            return "42 (Halbmeier)"
        if named == "pips":
            return f"{value} ({pips(value)} pips)"
        return str(value)

    def named(self, value: int) -> str | None:
        """Which name `name` gives the value (mia, littleMia, halbmeier, pips), or None
        for a plain number: a page in another language words the value from this."""
        if value == MIA:
            return "mia"
        if value == LITTLE_MIA and self.little_mia:
            return "littleMia"
        if value == HALBMEIER and self.halbmeier:
            return "halbmeier"
        if self.pips and not is_double(value):
            return "pips"
        return None


@lru_cache(maxsize=64)
def _tiers(
    doubles_ascending: bool, little_mia: bool, halbmeier: bool, by_pips: bool
) -> tuple[tuple[int, ...], ...]:
    specials = [MIA]
    if little_mia:
        specials.append(LITTLE_MIA)
    if halbmeier:
        specials.append(HALBMEIER)
    doubles = [d * 11 for d in (range(1, 7) if doubles_ascending else range(6, 0, -1))]
    doubles = [d for d in doubles if d not in specials]
    rest = [v for v in VALUES if v not in specials and not is_double(v)]  # high to low
    tiers: list[tuple[int, ...]] = [(v,) for v in specials]
    tiers.extend((d,) for d in doubles)
    if by_pips:
        for total in sorted({pips(v) for v in rest}, reverse=True):
            tiers.append(tuple(v for v in rest if pips(v) == total))
    else:
        tiers.extend((v,) for v in rest)
    return tuple(tiers)
