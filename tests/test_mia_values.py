"""Values and rankings: docs/rules/mia.md, 'Dice and values' and the ranking options."""

from __future__ import annotations

import pytest

from bluffdice.games.mia.values import (
    VALUES,
    Ranking,
    parse_value,
    probability,
    value_of,
    ways,
)


def test_value_is_higher_die_times_ten_plus_lower() -> None:
    assert value_of(5, 3) == 53
    assert value_of(3, 5) == 53
    assert value_of(1, 2) == 21


def test_36_rolls_give_21_values_doubles_one_way_others_two() -> None:
    assert len(VALUES) == 21
    rolls = [value_of(a, b) for a in range(1, 7) for b in range(1, 7)]
    for v in VALUES:
        assert rolls.count(v) == ways(v)
        assert ways(v) == (1 if v % 11 == 0 else 2)
    assert sum(probability(v) for v in VALUES) == 1


def test_default_ranking_matches_rules_md() -> None:
    expected = "21 66 55 44 33 22 11 65 64 63 62 61 54 53 52 51 43 42 41 32 31"
    assert Ranking().best_first == tuple(int(v) for v in expected.split())
    assert all(len(tier) == 1 for tier in Ranking().tiers)


def test_doubles_ascending_puts_11_first_among_doubles() -> None:
    order = Ranking(doubles_ascending=True).best_first
    assert order[:7] == (21, 11, 22, 33, 44, 55, 66)
    assert order[7:] == Ranking().best_first[7:]


def test_little_mia_is_second_best() -> None:
    order = Ranking(little_mia=True).best_first
    assert order[:3] == (21, 31, 66)
    assert order[-1] == 32


def test_halbmeier_ranks_right_under_mia_and_little_mia() -> None:
    assert Ranking(halbmeier=True).best_first[:3] == (21, 42, 66)
    assert Ranking(halbmeier=True, little_mia=True).best_first[:4] == (21, 31, 42, 66)


def test_pips_groups_non_doubles_by_sum_with_ties() -> None:
    r = Ranking(pips=True)
    assert r.rank(62) == r.rank(53)  # both 8 pips
    assert r.beats(54, 62)  # 9 pips beat 8 pips
    assert r.beats(11, 65)  # doubles still beat every non-double
    assert not r.beats(62, 53) and not r.beats(53, 62)
    assert r.name(62) == "62 (8 pips)"


@pytest.mark.parametrize(
    ("text", "value"),
    [("54", 54), ("45", 54), ("5 4", 54), ("4,5", 54), ("mia", 21), (" 66 ", 66), ("1 2", 21)],
)
def test_parse_value_accepts_what_people_type(text: str, value: int) -> None:
    assert parse_value(text) == value


@pytest.mark.parametrize("text", ["", "7", "77", "5", "abc", "0 1", "555"])
def test_parse_value_refuses_nonsense_with_a_reason(text: str) -> None:
    with pytest.raises(ValueError, match="not a Mia value"):
        parse_value(text)
