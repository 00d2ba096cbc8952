"""Liar's Dice counts: the binomial formulas against enumerating every roll of the dice."""

from __future__ import annotations

import itertools
from collections import Counter
from fractions import Fraction

import pytest

from bluffdice.games.registry import parse_rules
from bluffdice.odds import binomial


def enumerate_counts(
    dice: int, face: int, own: tuple[int, ...], faces: int, wild: int | None
) -> dict[int, Fraction]:
    """P(exactly q) by rolling every combination of the unknown dice."""
    unknown = dice - len(own)
    counts: Counter[int] = Counter()
    for roll in itertools.product(range(1, faces + 1), repeat=unknown):
        counts[sum(d == face or (d == wild and face != wild) for d in own + roll)] += 1
    total = faces**unknown
    return {q: Fraction(counts[q], total) for q in range(dice + 1)}


CASES = [
    (3, (), 6, 1),
    (4, (), 6, None),
    (4, (1,), 6, 1),
    (5, (1, 3), 6, 1),
    (5, (2, 2), 6, None),
    (6, (1, 4, 4), 4, 1),
    (5, (), 4, 4),  # the highest face wild, as OpenSpiel's liars_dice
    (1, (), 6, 6),
    (2, (6, 6), 6, 1),  # no unknown dice at all
]


@pytest.mark.parametrize(("dice", "own", "faces", "wild"), CASES)
def test_counts_match_enumeration_of_all_dice(
    dice: int, own: tuple[int, ...], faces: int, wild: int | None
) -> None:
    for face in range(1, faces + 1):
        odds = binomial.face_odds(dice, face, own=own, faces=faces, wild=wild)
        truth = enumerate_counts(dice, face, own, faces, wild)
        assert [c.p_exactly for c in odds.counts] == [truth[q] for q in range(dice + 1)]
        for q in range(dice + 2):
            assert odds.p_at_least(q) == sum((p for k, p in truth.items() if k >= q), Fraction(0))
        assert odds.expected == sum(q * p for q, p in truth.items())
        holding = [q for q in range(dice + 1) if odds.p_at_least(q) >= Fraction(1, 2)]
        assert odds.best_bid == max(holding)


def test_per_die_chance_is_one_sixth_or_one_third_with_wild_ones() -> None:
    assert binomial.die_probability(3, wild=False) == Fraction(1, 6)
    assert binomial.die_probability(3) == Fraction(1, 3)
    assert binomial.die_probability(1) == Fraction(1, 6)  # ones count only as ones
    assert binomial.die_probability(5, faces=8) == Fraction(2, 8)
    assert binomial.die_probability(6, wild=6) == Fraction(1, 6)


def test_own_dice_count_for_sure_wild_ones_included() -> None:
    own = (1, 3, 3, 5, 6)
    assert [binomial.matches(own, f) for f in range(1, 7)] == [1, 1, 3, 1, 2, 2]
    assert [binomial.matches(own, f, wild=False) for f in range(1, 7)] == [1, 0, 2, 0, 1, 1]
    odds = binomial.face_odds(10, 3, own=own)
    assert odds.unknown == 5 and odds.own_matches == 3
    assert odds.p_at_least(3) == 1 and odds.expected == 3 + Fraction(5, 3)


@pytest.mark.parametrize("wild", [1, None])
def test_expected_count_rounded_down_holds_at_least_half_the_time(wild: int | None) -> None:
    # docs/rules/liars-dice.md: "the expected count rounded down has over 50 % chance to hold".
    for dice in range(1, 41):
        for face in (1, 4):
            odds = binomial.face_odds(dice, face, wild=wild)
            floor = odds.expected.numerator // odds.expected.denominator
            assert odds.p_at_least(floor) >= Fraction(1, 2)
            assert odds.best_bid >= floor


def test_binomial_formula_edges() -> None:
    p = Fraction(1, 3)
    assert binomial.p_exactly(4, 5, p) == 0 and binomial.p_exactly(4, -1, p) == 0
    assert binomial.p_at_least(4, 0, p) == 1
    assert sum(binomial.p_exactly(7, k, p) for k in range(8)) == 1
    with pytest.raises(ValueError):
        binomial.p_exactly(-1, 0, p)


def test_rules_objects_give_dice_faces_and_wild_face() -> None:
    dudo = binomial.dice_rules(parse_rules("dudo"))
    assert (dudo.dice_per_player, dudo.faces, dudo.wild) == (5, 6, 1)
    openspiel = binomial.dice_rules(parse_rules("openspiel"))
    assert (openspiel.dice_per_player, openspiel.wild) == (1, openspiel.faces)
    no_wild = binomial.dice_rules(parse_rules("liars-dice(wild=off,faces=4)"))
    assert (no_wild.faces, no_wild.wild) == (4, None)
    with pytest.raises(ValueError, match="not Liar's Dice"):
        binomial.dice_rules(parse_rules("classic"))


def test_parse_dice_reads_what_people_type() -> None:
    assert binomial.parse_dice("1,3,3,5,6") == (1, 3, 3, 5, 6)
    assert binomial.parse_dice("1 3 3") == (1, 3, 3)
    assert binomial.parse_dice("133") == (1, 3, 3)
    for bad in ("1,7", "a,b", "0"):
        with pytest.raises(ValueError):
            binomial.parse_dice(bad)


def test_bad_input_is_refused_with_a_reason() -> None:
    with pytest.raises(ValueError, match="only 2 are in play"):
        binomial.face_odds(2, 3, own=(1, 2, 3))
    with pytest.raises(ValueError, match="1 to 6"):
        binomial.face_odds(5, 7)
    with pytest.raises(ValueError, match="at least one die"):
        binomial.face_odds(0, 3)
    with pytest.raises(ValueError, match="at least 2 faces"):
        binomial.odds_table(3, faces=1)
    with pytest.raises(ValueError, match="1 to 6"):
        binomial.face_odds(5, 3, own=(9,))
