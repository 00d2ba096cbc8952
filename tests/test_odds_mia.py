"""Mia odds: the rules page's table of claims, and every table against brute force."""

from __future__ import annotations

import itertools
from fractions import Fraction

import pytest

from bluffdice.games.mia.rules import PRESETS, MiaRules
from bluffdice.games.mia.values import VALUES, is_double, pips, value_of
from bluffdice.odds import mia

CLASSIC = PRESETS["classic"]
MEYER = PRESETS["meyer"]
PIPS = MiaRules(pips=True)

ROLLS = list(itertools.product(range(1, 7), repeat=2))
"""The 36 ordered rolls of two dice."""

RANKING_COMBOS = [
    MiaRules(doubles_ascending=d, little_mia=lm, halbmeier=h, pips=p)
    for d, lm, h, p in itertools.product([False, True], repeat=4)
]


def pct(p: Fraction) -> str:
    return f"{float(p) * 100:.1f} %"


# --- the seeds' figures (docs/rules/mia.md, "Figures") -------------


def test_a_fresh_roll_beats_55_three_times_in_36() -> None:
    assert mia.p_beat(CLASSIC, 55) == Fraction(3, 36)
    assert pct(mia.p_beat(CLASSIC, 55)) == "8.3 %"


def test_a_fresh_roll_beats_or_ties_55_four_times_in_36_so_889_percent_lose() -> None:
    assert mia.p_beat_or_tie(CLASSIC, 55) == Fraction(4, 36)
    assert pct(mia.p_beat_or_tie(CLASSIC, 55)) == "11.1 %"
    assert pct(mia.p_lose(CLASSIC, 55)) == "88.9 %"


def test_median_roll_is_54_and_meyers_is_61_not_62() -> None:
    assert mia.median(CLASSIC) == 54
    assert mia.p_beat(CLASSIC, 54) == Fraction(1, 2)
    assert mia.median(MEYER) == 61
    assert mia.p_beat(MEYER, 61) == Fraction(1, 2)
    assert mia.p_beat(MEYER, 62) != Fraction(1, 2)  # seed 002's median is an error


def test_62_is_the_middle_of_the_list_but_is_beaten_by_14_of_36() -> None:
    order = [row.value for row in mia.value_table(CLASSIC)]
    assert order.index(62) == 10 and len(order) - 1 - order.index(62) == 10
    assert mia.p_beat(CLASSIC, 62) == Fraction(14, 36)
    assert pct(mia.p_beat(CLASSIC, 62)) == "38.9 %"


def test_twelve_values_above_54_and_eight_below() -> None:
    rank = CLASSIC.ranking.rank
    assert sum(rank(v) > rank(54) for v in VALUES) == 12
    assert sum(rank(v) < rank(54) for v in VALUES) == 8


def pips_tiers() -> dict[int, mia.TierOdds]:
    """The pips option's tiers of non-doubles (Mia aside), by their sum of pips."""
    return {
        pips(t.values[0]): t
        for t in mia.tier_table(PIPS)
        if t.values[0] != 21 and not is_double(t.values[0])
    }


def test_pips_option_chances_to_beat_9_down_to_4_pips() -> None:
    shown = [pct(pips_tiers()[n].p_beat) for n in (9, 8, 7, 6, 5, 4)]
    assert shown == ["33.3 %", "44.4 %", "55.6 %", "72.2 %", "83.3 %", "94.4 %"]


def test_pips_option_ways_to_make_11_down_to_4_pips() -> None:
    tiers = pips_tiers()
    assert sorted(tiers, reverse=True) == list(range(11, 3, -1))
    assert [tiers[n].ways for n in range(11, 3, -1)] == [2, 2, 4, 4, 6, 4, 4, 2]


def test_pips_option_groups_ties_in_one_tier() -> None:
    tiers = {t.label: t.values for t in mia.tier_table(PIPS)}
    assert tiers["8 pips: 62 53"] == (62, 53)
    assert tiers["7 pips: 61 52 43"] == (61, 52, 43)
    rows = {r.value: r for r in mia.value_table(PIPS)}
    assert rows[62].tier == rows[53].tier and rows[62].p_beat == rows[53].p_beat
    assert rows[62].p_tie == Fraction(4, 36)


# --- brute force over the 36 rolls ---------------------------------------------------------


def brute_force(rules: MiaRules, value: int) -> tuple[int, Fraction, Fraction, Fraction]:
    """(ways, beat, beat or tie, worse) by looking at each of the 36 rolls."""
    ranking = rules.ranking
    rolled = [value_of(a, b) for a, b in ROLLS]
    ways = sum(r == value for r in rolled)
    better = sum(ranking.beats(r, value) for r in rolled)
    worse = sum(ranking.beats(value, r) for r in rolled)
    return ways, Fraction(better, 36), Fraction(36 - worse, 36), Fraction(worse, 36)


@pytest.mark.parametrize(
    "rules",
    [CLASSIC, PRESETS["doubles-ascending"], MEYER, MiaRules(little_mia=True), *RANKING_COMBOS],
    ids=lambda r: r.text,
)
def test_every_row_matches_brute_force_enumeration(rules: MiaRules) -> None:
    table = mia.value_table(rules)
    assert sorted(r.value for r in table) == sorted(VALUES)
    assert sum(r.ways for r in table) == 36
    for row in table:
        assert (row.ways, row.p_beat, row.p_beat_or_tie, row.p_lose) == brute_force(
            rules, row.value
        ), row.value


def test_doubles_ascending_puts_11_right_under_mia() -> None:
    table = mia.value_table(PRESETS["doubles-ascending"])
    assert [r.value for r in table[:3]] == [21, 11, 22]
    assert table[1].p_beat == Fraction(2, 36) and table[-1].value == 31


def test_little_mia_is_second_and_beaten_only_by_mia() -> None:
    row = mia.odds_of(MiaRules(little_mia=True), 31)
    assert row.tier == 2 and row.p_beat == Fraction(2, 36) and row.p_beat_or_tie == Fraction(4, 36)


def test_table_is_in_ranking_order_with_rising_chance_to_be_beaten() -> None:
    for rules in RANKING_COMBOS:
        table = mia.value_table(rules)
        assert [r.value for r in table] == list(rules.ranking.best_first)
        assert all(a.p_beat <= b.p_beat for a, b in itertools.pairwise(table))


def test_roll_distribution_comes_from_the_engine_and_sums_to_one() -> None:
    dist = mia.roll_distribution(CLASSIC)
    assert sum(dist.values()) == 1
    assert dist[21] == Fraction(2, 36) and dist[66] == Fraction(1, 36)
    dist[21] = Fraction(0)  # a copy: the cached table is not changed
    assert mia.roll_distribution(CLASSIC)[21] == Fraction(2, 36)


@pytest.mark.parametrize("rules", RANKING_COMBOS, ids=lambda r: r.text)
def test_median_is_the_tier_nearest_one_half_preferring_the_better_on_a_tie(
    rules: MiaRules,
) -> None:
    rolled = [value_of(a, b) for a, b in ROLLS]
    ranking = rules.ranking
    distance = {
        v: (abs(Fraction(sum(ranking.beats(r, v) for r in rolled), 36) - Fraction(1, 2)))
        for v in VALUES
    }
    nearest = min(distance.values())
    candidates = [v for v in VALUES if distance[v] == nearest]
    best = max(candidates, key=ranking.rank)  # the better value on a tie
    assert ranking.rank(mia.median(rules)) == ranking.rank(best)


def test_pips_median_falls_between_two_tiers_and_takes_the_better() -> None:
    # 8 pips is beaten 16/36, 7 pips 20/36: both 2/36 from a half; 8 pips is better.
    assert mia.median_tier(PIPS).label == "8 pips: 62 53"
    assert mia.median(PIPS) == 62


def test_truthful_follow_up_needs_strictly_better_unless_relaxed_raise() -> None:
    relaxed = MiaRules(relaxed_raise=True, pass_allowed=False)
    for v in VALUES:
        assert mia.p_truthful_beats(CLASSIC, v) == mia.p_beat(CLASSIC, v)
        assert mia.p_truthful_beats(relaxed, v) == mia.p_beat_or_tie(relaxed, v)
    assert mia.p_truthful_beats(CLASSIC, 21) == 0
    assert mia.p_truthful_beats(relaxed, 21) == Fraction(2, 36)


def test_a_value_that_is_not_one_is_refused() -> None:
    for bad in (77, 12, 0):
        with pytest.raises(ValueError, match="not a Mia value"):
            mia.p_beat(CLASSIC, bad)
