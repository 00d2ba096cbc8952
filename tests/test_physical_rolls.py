"""Physical dice behind every chance node: rolling the dice a state names and mapping
them to an outcome must give exactly the probabilities `chance_outcomes()` lists.

Every combination of faces is enumerated (the dice are fair, so each is equally likely)
at every kind of chance node that random games of each preset reach: seat draws for
each table size, rolls, Mia's beat attempt, every cup size in Liar's Dice, every reroll
size in common hand.
"""

from __future__ import annotations

import itertools
import random
from collections import Counter
from fractions import Fraction
from typing import Any

import pytest

from bluffdice.games import CHANCE, IllegalAction, games, new_game, parse_rules


def chance_nodes(rules: Any, players: int, seed: int, games_: int) -> dict[tuple[Any, ...], Any]:
    """One state per kind of chance node (phase and physical roll) seen in random games."""
    rng = random.Random(seed)
    found: dict[tuple[Any, ...], Any] = {}
    for _ in range(games_):
        state = new_game(rules, players)
        while not state.is_terminal:
            if state.current_player == CHANCE:
                found.setdefault((state.phase, *state.physical_roll()), state)  # type: ignore[attr-defined]
                outcomes = state.chance_outcomes()
                state = state.apply(rng.choices([o for o, _ in outcomes])[0]).state
            else:
                state = state.apply(rng.choice(list(state.legal_actions()))).state
    return found


def induced(state: Any) -> dict[Any, Fraction]:
    count, faces = state.physical_roll()
    total = faces**count
    tally = Counter(
        state.outcome_of_roll(dice) for dice in itertools.product(range(1, faces + 1), repeat=count)
    )
    return {outcome: Fraction(n, total) for outcome, n in tally.items()}


CASES = [
    (preset, players)
    for spec in games()
    for preset in sorted(spec.presets)
    for players in sorted({spec.min_players, min(spec.max_players, 4), spec.max_players})
] + [("liars-dice(faces=3,dice=4)", 3), ("liars-dice(faces=9,dice=2)", 2)]


@pytest.mark.parametrize(("rules", "players"), CASES, ids=str)
def test_rolled_dice_induce_exactly_the_chance_probabilities(rules: str, players: int) -> None:
    nodes = chance_nodes(parse_rules(rules), players, seed=players, games_=4)
    phases = {phase for phase, *_ in nodes}
    assert "roll" in phases
    for key, state in nodes.items():
        expected = dict(state.chance_outcomes())
        assert induced(state) == expected, key


def test_every_cup_size_and_reroll_size_is_checked() -> None:
    """Longer random games reach every cup size and every reroll size."""
    liars = chance_nodes(parse_rules("dudo"), 3, seed=1, games_=4)
    assert {n for phase, n, _ in liars if phase == "roll"} == {1, 2, 3, 4, 5}
    common = chance_nodes(parse_rules("common-hand-round"), 2, seed=2, games_=20)
    assert {n for phase, n, _ in common if phase == "reroll"} == {1, 2, 3, 4, 5}
    mia = chance_nodes(parse_rules("mia(beat_mia=on)"), 3, seed=3, games_=8)
    assert {phase for phase, *_ in mia} == {"seat", "roll", "beat"}
    for nodes in (liars, common, mia):
        for key, state in nodes.items():
            assert induced(state) == dict(state.chance_outcomes()), key


def test_a_seat_draw_is_one_die_with_a_face_per_player() -> None:
    state = new_game("classic", 5)
    assert state.physical_roll() == (1, 5)
    assert str(state.outcome_of_roll([3])) == "first 2"
    mia = state.apply(state.outcome_of_roll([1])).state.apply(parse_action("mia", "roll")).state
    assert mia.physical_roll() == (2, 6)
    assert str(mia.outcome_of_roll([3, 5])) == str(mia.outcome_of_roll([5, 3])) == "dice 53"


@pytest.mark.parametrize("dice", [[], [1, 2, 3], [0, 4], [7, 1], [2.0, 3]])
def test_dice_that_the_roll_cannot_show_are_refused(dice: list[Any]) -> None:
    state = new_game("classic", 2)
    state = state.apply(state.outcome_of_roll([1])).state.apply(parse_action("mia", "roll")).state
    with pytest.raises(IllegalAction):
        state.outcome_of_roll(dice)


def test_no_dice_are_rolled_where_a_player_acts() -> None:
    state = new_game("classic", 2)
    state = state.apply(state.outcome_of_roll([2])).state
    assert state.current_player == 1
    with pytest.raises(IllegalAction, match="no dice"):
        state.physical_roll()


def parse_action(game: str, text: str) -> Any:
    from bluffdice.games import get_game

    return get_game(game).parse_action(text)
