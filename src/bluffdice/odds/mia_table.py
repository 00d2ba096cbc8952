"""The static Mia odds: how often a fresh roll beats, ties or loses to each value.

Nothing here knows the order of the values or how often a roll shows them: the order
comes from `rules.ranking` and the roll's chances from the engine's own chance node (a
state in its roll phase), so a new ranking option changes these tables by itself.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache

from bluffdice.games.base import CHANCE
from bluffdice.games.mia.actions import Dice, FirstPlayer, Roll
from bluffdice.games.mia.rules import MiaRules
from bluffdice.games.mia.state import new_game
from bluffdice.games.mia.values import is_double, pips

HALF = Fraction(1, 2)
ROLLS = 36
"""Ordered rolls of two dice; every chance of a Mia roll is a multiple of 1/36."""


@dataclass(frozen=True)
class ValueOdds:
    """One value of a rule set and how a fresh roll fares against it.

    `tier` counts from 1 (the best tier); values in one tier tie (pips option only).
    `p_lose` is the chance a fresh roll is strictly worse: what the holder of `value`
    wins when the next roll has to beat or tie it.
    """

    value: int
    name: str
    tier: int
    ways: int
    p_beat: Fraction
    p_beat_or_tie: Fraction
    p_lose: Fraction

    @property
    def p_tie(self) -> Fraction:
        return self.p_beat_or_tie - self.p_beat


@dataclass(frozen=True)
class TierOdds:
    """A tier of tied values (one value unless the pips option groups them)."""

    tier: int
    values: tuple[int, ...]
    label: str
    ways: int
    p_beat: Fraction
    p_beat_or_tie: Fraction
    p_lose: Fraction


def roll_distribution(rules: MiaRules) -> dict[int, Fraction]:
    """The chance of each value on a fresh roll, read from the engine's roll chance node."""
    return dict(_roll_distribution(rules))


@lru_cache(maxsize=64)
def _roll_distribution(rules: MiaRules) -> dict[int, Fraction]:
    state = new_game(rules, players=2).apply(FirstPlayer(0)).state
    state = state.apply(Roll()).state
    if state.current_player != CHANCE:  # pragma: no cover - guards an engine change
        raise AssertionError("after `roll` the engine should wait for the dice")
    dist: dict[int, Fraction] = {}
    for outcome, p in state.chance_outcomes():
        assert isinstance(outcome, Dice)
        dist[outcome.value] = dist.get(outcome.value, Fraction(0)) + p
    if sum(dist.values()) != 1:  # pragma: no cover - guards an engine change
        raise AssertionError("the roll's chances do not add up to 1")
    return dist


@lru_cache(maxsize=64)
def _tier_table(rules: MiaRules) -> tuple[TierOdds, ...]:
    dist = _roll_distribution(rules)
    tiers = rules.ranking.tiers
    masses = [sum((dist.get(v, Fraction(0)) for v in tier), Fraction(0)) for tier in tiers]
    rows: list[TierOdds] = []
    above = Fraction(0)
    for index, (tier, mass) in enumerate(zip(tiers, masses, strict=True)):
        rows.append(
            TierOdds(
                tier=index + 1,
                values=tier,
                label=tier_label(rules, tier),
                ways=_ways(mass),
                p_beat=above,
                p_beat_or_tie=above + mass,
                p_lose=1 - above - mass,
            )
        )
        above += mass
    return tuple(rows)


@lru_cache(maxsize=64)
def _value_table(rules: MiaRules) -> tuple[ValueOdds, ...]:
    dist = _roll_distribution(rules)
    ranking = rules.ranking
    return tuple(
        ValueOdds(
            value=v,
            name=ranking.name(v),
            tier=row.tier,
            ways=_ways(dist.get(v, Fraction(0))),
            p_beat=row.p_beat,
            p_beat_or_tie=row.p_beat_or_tie,
            p_lose=row.p_lose,
        )
        for row in _tier_table(rules)
        for v in row.values
    )


def _ways(p: Fraction) -> int:
    ways = p * ROLLS
    if ways.denominator != 1:  # pragma: no cover - guards an engine change
        raise AssertionError(f"a chance of {p} is not a whole number of the 36 rolls")
    return int(ways)


def tier_label(rules: MiaRules, tier: tuple[int, ...]) -> str:
    """`21 (Mia)` for a tier of one value; `8 pips: 62 53` for a pips tier."""
    if len(tier) == 1:
        return rules.ranking.name(tier[0])
    first = tier[0]
    if not is_double(first) and all(pips(v) == pips(first) for v in tier):
        return f"{pips(first)} pips: " + " ".join(str(v) for v in tier)
    return " = ".join(str(v) for v in tier)  # pragma: no cover - no other option ties


def value_table(rules: MiaRules) -> list[ValueOdds]:
    """Every value, best first (ties next to each other), with its exact chances."""
    return list(_value_table(rules))


def tier_table(rules: MiaRules) -> list[TierOdds]:
    """Every tier, best first: the pips option's grouping, one row per group of ties."""
    return list(_tier_table(rules))


def odds_of(rules: MiaRules, value: int) -> ValueOdds:
    """The row of `value`; a ValueError names what a Mia value is."""
    for row in _value_table(rules):
        if row.value == value:
            return row
    raise ValueError(f"{value} is not a Mia value (two dice, higher first: 21, 31, ..., 66)")


def p_beat(rules: MiaRules, value: int) -> Fraction:
    """The chance that a fresh roll is strictly better than `value`."""
    return odds_of(rules, value).p_beat


def p_beat_or_tie(rules: MiaRules, value: int) -> Fraction:
    """The chance that a fresh roll is better than `value` or ties it."""
    return odds_of(rules, value).p_beat_or_tie


def p_lose(rules: MiaRules, value: int) -> Fraction:
    """The chance that a fresh roll is strictly worse than `value`."""
    return odds_of(rules, value).p_lose


def p_truthful_beats(rules: MiaRules, announced: int) -> Fraction:
    """The chance that a blind re-roll lets a truthful announcement follow `announced`.

    A truthful follow-up must be strictly better, or may equal it under relaxed_raise.
    """
    row = odds_of(rules, announced)
    return row.p_beat_or_tie if rules.relaxed_raise else row.p_beat


def median_tier(rules: MiaRules) -> TierOdds:
    """The tier a fresh roll beats with chance nearest to one half.

    Exactly one half if some tier has it. Otherwise the tier with the smallest distance
    |P(beat) - 1/2|; when two tiers are equally near (one just under, one just over),
    the better one, the value a fresh roll beats at most half the time.
    """
    return min(_tier_table(rules), key=lambda row: (abs(row.p_beat - HALF), row.p_beat))


def median(rules: MiaRules) -> int:
    """The median roll: 54 in classic, 61 in Meyer. In a tier of ties, its first value."""
    return median_tier(rules).values[0]
