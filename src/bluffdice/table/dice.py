"""Where a table's dice come from.

The rules core never rolls: a state whose turn belongs to chance lists its outcomes with
exact probabilities. A `DiceSource` picks one of them for the table. Sources are
pluggable so that how dice are made (a seed for reproducible runs, the operating
system's generator for live play, a verifiable commit-reveal stream) is the table's
choice and never the game's.
"""

from __future__ import annotations

import bisect
import math
import random
import secrets
from collections.abc import Sequence
from fractions import Fraction
from typing import Any, Protocol

from bluffdice.games.base import GameState


class DiceSource(Protocol):
    """Chooses the chance outcome of a state whose current player is chance."""

    def draw(self, state: GameState) -> Any: ...


def sample(outcomes: Sequence[tuple[Any, Fraction]], rng: random.Random) -> Any:
    """Draw one outcome with its exact probability (integer arithmetic, no float drift)."""
    denominator, cumulative = _cumulative(outcomes)
    return outcomes[bisect.bisect_right(cumulative, rng.randrange(denominator))][0]


_TABLES: dict[int, tuple[Sequence[tuple[Any, Fraction]], int, list[int]]] = {}


def _cumulative(outcomes: Sequence[tuple[Any, Fraction]]) -> tuple[int, list[int]]:
    """Common denominator and cumulative integer weights, cached per outcomes object.

    Games hand out the same tuple for every roll, so the table is built once; the cache
    keeps a reference to the tuple, so its id cannot be reused while it is cached.
    """
    cached = _TABLES.get(id(outcomes))
    if cached is not None and cached[0] is outcomes:
        return cached[1], cached[2]
    denominator = math.lcm(*(p.denominator for _, p in outcomes))
    cumulative: list[int] = []
    total = 0
    for _, p in outcomes:
        total += p.numerator * (denominator // p.denominator)
        cumulative.append(total)
    if total != denominator:
        raise ValueError("chance probabilities do not sum to 1")
    if isinstance(outcomes, tuple):
        if len(_TABLES) > 1024:
            _TABLES.clear()
        _TABLES[id(outcomes)] = (outcomes, denominator, cumulative)
    return denominator, cumulative


class RandomDice:
    """Samples each outcome with its exact probability from a `random.Random`."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def draw(self, state: GameState) -> Any:
        return sample(state.chance_outcomes(), self.rng)


def seeded(seed: int | random.Random) -> RandomDice:
    """Reproducible dice: the same seed gives the same games (tests, tournaments, --seed)."""
    return RandomDice(seed if isinstance(seed, random.Random) else random.Random(seed))


def system() -> RandomDice:
    """Dice nobody can predict: the operating system's cryptographic generator."""
    return RandomDice(secrets.SystemRandom())
