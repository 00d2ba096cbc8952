"""The shipped conformance check over every Liar's Dice and common-hand preset, and over
option combinations drawn by hypothesis."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bluffdice.games import get_game, parse_rules, rules_string
from bluffdice.games.liars_dice import RAISE_RULES
from bluffdice.testing import check_rules

LIARS_DICE = get_game("liars-dice")
COMMON_HAND = get_game("common-hand")


@pytest.mark.parametrize("preset", ["liars-dice", *LIARS_DICE.presets])
@pytest.mark.parametrize("players", [2, 3, 6])
def test_liars_dice_presets_conform(preset: str, players: int) -> None:
    report = check_rules(preset, players, games=3, seed=players, probe_every=3)
    assert report.games == 3 and report.views_compared > 0


@pytest.mark.parametrize("preset", ["common-hand", *COMMON_HAND.presets])
def test_common_hand_presets_conform(preset: str) -> None:
    report = check_rules(preset, 2, games=6, seed=7, probe_every=2)
    assert report.games == 6 and report.views_compared > 0


liars_dice_rules = st.builds(
    lambda dice, faces, wild, rule, ones, calza, palifico, single, start: (
        f"liars-dice(dice={dice},faces={faces},wild={wild},raise={rule},"
        f"ones_bids={'on' if ones and wild == 'ones' else 'off'},calza={calza},"
        f"palifico={palifico},single_round={single},start={start})"
    ),
    st.integers(1, 4),
    st.integers(2, 6),
    st.sampled_from(["ones", "off", "highest"]),
    st.sampled_from(sorted(RAISE_RULES)),
    st.booleans(),
    st.sampled_from(["on", "off"]),
    st.sampled_from(["on", "off"]),
    st.sampled_from(["on", "off"]),
    st.sampled_from(["random", "first-seat"]),
)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(text=liars_dice_rules, players=st.integers(2, 5), seed=st.integers(0, 10_000))
def test_drawn_liars_dice_rules_conform(text: str, players: int, seed: int) -> None:
    rules = parse_rules(text)
    assert parse_rules(rules_string(rules)) == rules
    check_rules(rules, players, games=2, seed=seed, probe_every=2)


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    lives=st.integers(1, 3),
    straights=st.booleans(),
    reroll=st.booleans(),
    start=st.sampled_from(["random", "first-seat"]),
    seed=st.integers(0, 10_000),
)
def test_drawn_common_hand_rules_conform(
    lives: int, straights: bool, reroll: bool, start: str, seed: int
) -> None:
    on = {True: "on", False: "off"}
    text = f"common-hand(lives={lives},straights={on[straights]},reroll={on[reroll]},start={start})"
    rules = parse_rules(text)
    assert parse_rules(rules_string(rules)) == rules
    check_rules(rules, 2, games=2, seed=seed, probe_every=2)
