"""Findings of a review of the Mia engine against docs/rules/mia.md.

Each test pins one rule or one refusal that the other Mia tests left open; the first few
failed before the fix that came with them.
"""

from __future__ import annotations

import pytest

from bluffdice.dealer import Game
from bluffdice.games import IllegalAction, parse_rules
from bluffdice.games.mia import (
    Announce,
    Challenge,
    Dice,
    FirstPlayer,
    GiveUp,
    Pass,
    Roll,
)
from bluffdice.games.mia.actions import Penalty
from tests.conftest import script


def penalties(events: tuple[object, ...]) -> list[tuple[int, int, str]]:
    return [(e.player, e.amount, e.reason) for e in events if isinstance(e, Penalty)]


# --- refusals say what is wrong ------------------------------------------------------


@pytest.mark.parametrize("rules", ["classic", "mia(relaxed_raise)"])
def test_announcing_a_number_that_is_no_mia_value_says_so(rules: str) -> None:
    opener = script(rules, 3, ["first 0", "roll", "dice 52", "look"])
    # Before: "77 does not beat the last announcement 0" (there was none).
    with pytest.raises(IllegalAction, match="77 is not a Mia value"):
        opener.state.apply(Announce(77))
    with pytest.raises(IllegalAction, match="12 is not a Mia value.*21"):
        opener.state.apply(Announce(12))  # the dice of 21, written low die first


def test_passing_a_number_that_is_no_mia_value_says_so() -> None:
    game = script("classic", 3, ["first 0", "roll", "dice 52", "look", "52"])
    with pytest.raises(IllegalAction, match="70 is not a Mia value"):
        game.state.apply(Pass(70))


def test_dice_offered_on_a_players_turn_say_whose_turn_it_is() -> None:
    game = script("classic", 3, ["first 2"])
    with pytest.raises(IllegalAction, match="chance outcome.*player 2"):
        game.state.apply(Dice(43))


@pytest.mark.parametrize(
    ("steps", "bad"),
    [
        (["first 0", "roll", "dice 52", "look"], Announce(52.0)),  # type: ignore[arg-type]
        (["first 0", "roll", "dice 52", "look", "52"], Pass(52.0)),  # type: ignore[arg-type]
        (["first 0", "roll"], Dice(21.0)),  # type: ignore[arg-type]
        ([], FirstPlayer(True)),
    ],
)
def test_values_that_are_not_whole_numbers_are_refused(steps: list[str], bad: object) -> None:
    """Such an action compared equal to a legal one, and its record text ('52.0',
    'first True') would not replay."""
    game = script("classic", 3, steps)
    with pytest.raises(IllegalAction, match="whole number"):
        game.state.apply(bad)


# --- drinking: fewest stiff drinks first, however many sips ------------------------


def test_drinking_winner_has_fewest_stiff_drinks_even_after_a_thousand_sips() -> None:
    rules = parse_rules("drinking(rounds=1002)")
    game = Game.new(rules, 2)
    state = game.state.apply(FirstPlayer(1)).state
    for _ in range(1001):  # player 1 tells the truth, player 0 challenges and sips
        for step in (Roll(), Dice(54), Announce(54), Challenge()):
            state = state.apply(step).state
        assert state.current_player == 1
    for step in (Roll(), Dice(43), Announce(21)):  # a lie about Mia: a stiff drink
        state = state.apply(step).state
    state = state.apply(Challenge()).state
    assert state.is_terminal
    assert (state.lost, state.drinks) == ((1001, 0), (0, 1))
    assert state.result is not None
    assert state.result.winners == (0,) and state.result.losers == (1,)
    assert state.result.standings == (0, 1)


# --- rules the other tests did not pin ---------------------------------------------


def test_mia_loser_who_is_out_hands_the_opening_to_the_next_living_player() -> None:
    game = script("mia(lives=1)", 3, ["first 0", "roll", "dice 43", "look", "21"])
    events = game.step(GiveUp())
    assert penalties(events) == [(1, 1, "gave_up")]
    assert game.state.out == (False, True, False)
    assert game.state.current_player == 2  # the loser (1) would open, but is out


def test_challenger_who_is_out_is_followed_by_the_next_living_player() -> None:
    steps = ["first 1", "roll", "dice 43", "look", "54", "challenge"]  # 1 lies, 2 catches
    game = script("mia(lives=1)", 4, [*steps, "roll", "dice 54", "54"])  # 1 out, 2 opens
    assert game.state.current_player == 3
    game.step(Challenge())  # 54 is true: player 3 loses and is out
    assert game.state.out == (False, True, False, True)
    assert game.state.current_player == 0  # after 3 comes 0
    assert game.state.result is None


def test_a_pass_with_mia_makes_the_passer_answer_for_it() -> None:
    game = script("classic", 3, ["first 0", "roll", "dice 65", "look", "65", "pass 21"])
    assert game.state.phase == "mia" and game.state.current_player == 2
    assert penalties(game.step(Challenge())) == [(1, 1, "lied_about_mia")]
    assert game.state.current_player == 1  # the loser opens


def test_two_players_the_roller_gets_the_cup_back_and_still_sees_the_dice() -> None:
    game = script("classic", 2, ["first 0", "roll", "dice 43", "look", "54", "pass 54"])
    assert game.state.current_player == 0
    assert game.state.view(0).my_dice == 43
    assert game.state.view(1).my_dice is None
    assert penalties(game.step(Challenge())) == [(1, 1, "caught_bluffing")]
    assert game.state.current_player == 0


def test_first_out_with_an_instant_mia_can_end_with_several_losers() -> None:
    game = script(
        "mia(lives=1,end=first_out,mia_end=instant)",
        4,
        ["first 2", "roll", "dice 21", "21"],
    )
    assert game.state.is_terminal and game.state.result is not None
    assert game.state.result.winners == (2,)
    assert game.state.result.losers == (0, 1, 3)
    assert game.state.returns() == (-1 / 3, -1 / 3, 1.0, -1 / 3)


def test_mia_doubled_also_doubles_an_instant_true_mia() -> None:
    game = script("mia(mia_end=instant,mia_doubled)", 3, ["first 0", "roll", "dice 21", "21"])
    assert game.state.lives == (6, 4, 4)
    assert game.state.current_player == 1  # the player after the announcer opens


def test_players_out_in_the_same_round_are_ranked_by_seat_highest_first() -> None:
    game = script("mia(lives=1,mia_end=instant)", 4, ["first 2", "roll", "dice 21", "21"])
    assert game.state.result is not None
    assert game.state.result.standings == (2, 3, 1, 0)


@pytest.mark.parametrize("mode", ["score", "drinking"])
def test_a_cheers_round_counts_as_one_of_the_rounds(mode: str) -> None:
    rules = f"meyer(mode={mode},rounds=1)"
    game = script(rules, 2, ["first 0", "roll", "dice 32", "look", "cheers"])
    assert game.state.is_terminal
    assert game.state.lost == (0, 0)
    if mode == "score":
        assert game.state.scores == (1, 1)


def test_a_record_with_every_kind_of_step_replays() -> None:
    game = script(
        "meyer(beat_mia)",
        3,
        [
            "first 0", "roll", "dice 32", "look", "cheers",  # round 2, 0 opens again
            "roll", "dice 52", "52", "pass 53", "roll", "dice 11", "look", "21",
            "beat", "dice 43",  # 0 fails to beat Mia: gives up a life
            "roll", "dice 61", "21", "give-up",
            "roll", "dice 21", "21", "challenge",
        ],
    )  # fmt: skip
    assert game.state.lives == (5, 5, 4)
    assert game.record.replay() == game.state
