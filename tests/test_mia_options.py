"""Every rule option of docs/rules/mia.md changes play exactly as documented."""

from __future__ import annotations

from fractions import Fraction

import pytest

from bluffdice.games import CHANCE, IllegalAction, RuleError, new_game, parse_rules
from bluffdice.games.mia import (
    Announce,
    BeatMia,
    Challenge,
    Cheers,
    Dice,
    FirstPlayer,
    GiveUp,
    Look,
    Pass,
    Roll,
)
from bluffdice.games.mia.actions import CheersShown, Penalty
from bluffdice.testing import check_rules
from tests.conftest import script

# Scripts use the record notation: 'first P', 'roll', 'dice 43', 'look', '52', 'pass 52'.
OPEN_52 = ["first 0", "roll", "dice 52", "look", "52"]


def penalties(events: tuple[object, ...]) -> list[tuple[int, int, str]]:
    return [(e.player, e.amount, e.reason) for e in events if isinstance(e, Penalty)]


# --- a round -------------------------------------------------------------------


def test_first_player_is_drawn_uniformly_by_chance() -> None:
    state = new_game("classic", 5)
    assert state.current_player == CHANCE
    outcomes = state.chance_outcomes()
    assert [o for o, _ in outcomes] == [FirstPlayer(i) for i in range(5)]
    assert all(p == Fraction(1, 5) for _, p in outcomes)


def test_opener_may_announce_anything_even_a_lie() -> None:
    game = script("classic", 3, ["first 1", "roll", "dice 31", "look"])
    legal = {a.value for a in game.state.legal_actions() if isinstance(a, Announce)}
    assert len(legal) == 21


def test_dice_rolls_have_exact_probabilities() -> None:
    game = script("classic", 3, ["first 0", "roll"])
    outcomes = dict((o.value, p) for o, p in game.state.chance_outcomes())
    assert outcomes[21] == Fraction(2, 36) and outcomes[66] == Fraction(1, 36)
    assert sum(outcomes.values()) == 1


def test_challenge_of_a_lie_costs_the_announcer_and_challenger_starts() -> None:
    game = script("classic", 3, ["first 0", "roll", "dice 43", "look", "54"])
    events = game.step(Challenge())
    assert penalties(events) == [(0, 1, "caught_bluffing")]
    assert game.state.current_player == 1


def test_challenge_of_the_truth_or_better_costs_the_challenger_next_starts() -> None:
    for actual in (54, 61):  # equal, and higher than announced
        game = script("classic", 3, ["first 0", "roll", f"dice {actual}", "look", "54"])
        events = game.step(Challenge())
        assert penalties(events) == [(1, 1, "see_failed")]
        assert game.state.current_player == 2


def test_believer_must_announce_strictly_higher_by_default() -> None:
    game = script("classic", 3, [*OPEN_52, "roll", "dice 31", "look"])
    with pytest.raises(IllegalAction, match="does not beat the last announcement 52"):
        game.step(Announce(52))
    game.step(Announce(53))


def test_believer_may_announce_without_looking_and_sees_nothing() -> None:
    game = script("classic", 3, [*OPEN_52, "roll", "dice 31"])
    assert game.state.view(1).my_dice is None
    assert Look() in game.state.legal_actions()
    game.step(Announce(61))
    assert game.state.view(1).my_dice is None


def test_blind_off_shows_the_dice_at_once() -> None:
    game = script("mia(blind=off)", 3, ["first 0", "roll", "dice 43"])
    assert game.state.view(0).my_dice == 43
    assert Look() not in game.state.legal_actions()


def test_pass_hands_on_the_responsibility() -> None:
    game = script("classic", 3, [*OPEN_52, "pass 52", "challenge"])
    # The dice (52) match the pass, so the challenger (2) loses, not the passer or A.
    assert game.state.lives == (6, 6, 5)
    game = script("classic", 3, ["first 0", "roll", "dice 31", "look", "52", "pass 52"])
    events = game.step(Challenge())
    assert penalties(events) == [(1, 1, "caught_bluffing")]  # the passer answers for it


def test_pass_option_off_removes_the_pass() -> None:
    game = script("mia(pass=off)", 3, OPEN_52)
    assert not any(isinstance(a, Pass) for a in game.state.legal_actions())
    with pytest.raises(IllegalAction, match="passing is off"):
        game.step(Pass(52))


def test_pass_limit_forces_a_roll_or_a_challenge_after_that_many_passes() -> None:
    game = script("mia(pass_limit=2)", 4, [*OPEN_52, "pass 52", "pass 53"])
    # Two passes in a row since the last roll: the third player must believe or challenge.
    assert set(game.state.legal_actions()) == {Challenge(), Roll()}
    with pytest.raises(IllegalAction, match="2 passes in a row is the limit"):
        game.step(Pass(53))
    # A roll starts the count again.
    game = script(
        "mia(pass_limit=2)", 4, [*OPEN_52, "pass 52", "pass 53", "roll", "dice 61", "look", "61"]
    )
    assert Pass(61) in game.state.legal_actions()
    game = script("mia(pass_limit=1)", 3, [*OPEN_52, "pass 52", "roll", "dice 62", "look", "62"])
    assert Pass(62) in game.state.legal_actions()
    game.step(Pass(62))
    assert not any(isinstance(a, Pass) for a in game.state.legal_actions())


def test_no_pass_limit_by_default_lets_the_cup_go_round_and_round() -> None:
    calls = [f"pass {52}"] * 12
    game = script("classic", 3, [*OPEN_52, *calls])
    assert Pass(52) in game.state.legal_actions()
    assert game.state.rules.pass_limit == 0


@pytest.mark.parametrize("players", [2, 3, 6])
@pytest.mark.parametrize("limit", [1, 2])
def test_pass_limit_passes_the_conformance_check(players: int, limit: int) -> None:
    report = check_rules(f"classic(lives=2,pass_limit={limit})", players, games=4, seed=limit)
    assert report.games == 4 and report.illegal_tried > 0


def test_relaxed_raise_allows_equal_and_forbids_pass() -> None:
    game = script("mia(relaxed_raise)", 3, [*OPEN_52, "roll", "dice 31", "look"])
    legal = game.state.legal_actions()
    assert Announce(52) in legal and Announce(51) not in legal
    game = script("mia(relaxed_raise)", 3, OPEN_52)
    assert not any(isinstance(a, Pass) for a in game.state.legal_actions())


def test_illegal_actions_change_nothing() -> None:
    game = script("classic", 3, OPEN_52)
    before = game.state
    for bad in (Announce(61), GiveUp(), Look(), Cheers(), BeatMia(), Pass(51), "junk", None):
        with pytest.raises(IllegalAction):
            game.state.apply(bad)
    assert game.state == before


# --- rankings in play ----------------------------------------------------------


def test_doubles_ascending_in_play() -> None:
    game = script("doubles-ascending", 2, ["first 0", "roll", "dice 11", "look", "22", "roll"])
    game.step(Dice(31))
    legal = {a.value for a in game.state.legal_actions() if isinstance(a, Announce)}
    assert legal == {21, 11}


def test_little_mia_only_mia_beats_31() -> None:
    game = script("mia(little_mia)", 2, ["first 0", "roll", "dice 31", "look", "31", "roll"])
    game.step(Dice(31))
    assert {a.value for a in game.state.legal_actions() if isinstance(a, Announce)} == {21}


def test_pips_ties_count_as_equal_at_a_challenge() -> None:
    game = script("mia(pips)", 3, ["first 0", "roll", "dice 53", "look", "62"])
    events = game.step(Challenge())
    assert penalties(events) == [(1, 1, "see_failed")]  # 53 and 62 are both 8 pips
    game = script("mia(pips)", 3, ["first 0", "roll", "dice 53", "look", "62", "roll", "dice 11"])
    game.step(Look())
    assert Announce(53) not in game.state.legal_actions()  # a tie is not higher


# --- Mia -----------------------------------------------------------------------

MIA_ANNOUNCED = ["first 0", "roll", "dice {d}", "look", "21"]


def mia_game(rules: str, dice: int, players: int = 3):  # type: ignore[no-untyped-def]
    return script(rules, players, [s.format(d=dice) for s in MIA_ANNOUNCED])


def test_mia_receiver_can_give_up_or_look_but_not_roll_or_pass() -> None:
    game = mia_game("classic", 21)
    assert list(game.state.legal_actions()) == [GiveUp(), Challenge()]


def test_mia_give_up_costs_one_and_the_loser_starts() -> None:
    game = mia_game("classic", 43)
    events = game.step(GiveUp())
    assert penalties(events) == [(1, 1, "gave_up")]
    assert game.state.current_player == 1


def test_mia_starter_next_lets_the_player_after_the_loser_start() -> None:
    game = mia_game("mia(mia_starter=next)", 43)
    game.step(GiveUp())
    assert game.state.current_player == 2


def test_looking_at_a_real_mia_costs_two_lives() -> None:
    game = mia_game("classic", 21)
    assert penalties(game.step(Challenge())) == [(1, 2, "mia_found")]


def test_looking_at_a_false_mia_costs_the_announcer_one() -> None:
    game = mia_game("classic", 65)
    assert penalties(game.step(Challenge())) == [(0, 1, "lied_about_mia")]


def test_mia_doubled_makes_every_mia_loss_cost_two() -> None:
    assert penalties(mia_game("mia(mia_doubled)", 43).step(GiveUp())) == [(1, 2, "gave_up")]
    lie = mia_game("mia(mia_doubled)", 65).step(Challenge())
    assert penalties(lie) == [(0, 2, "lied_about_mia")]
    found = mia_game("mia(mia_doubled)", 21).step(Challenge())
    assert penalties(found) == [(1, 2, "mia_found")]
    # A challenge that finds a real 21 under a lower announcement involves Mia too.
    game = script("mia(mia_doubled)", 3, ["first 0", "roll", "dice 21", "look", "65"])
    assert penalties(game.step(Challenge())) == [(1, 2, "see_failed_mia")]
    game = script("classic", 3, ["first 0", "roll", "dice 21", "look", "65"])
    assert penalties(game.step(Challenge())) == [(1, 1, "see_failed_mia")]


def test_beat_mia_reading_the_roll_must_be_beaten() -> None:
    game = mia_game("mia(beat_mia)", 21)
    assert BeatMia() in game.state.legal_actions()
    game.step(BeatMia())
    assert game.state.current_player == CHANCE
    win = game.state.apply(Dice(21))
    assert penalties(win.events) == [(0, 1, "mia_beaten")]
    lose = game.state.apply(Dice(66))
    assert penalties(lose.events) == [(1, 1, "beat_failed")]
    assert BeatMia() not in mia_game("classic", 21).state.legal_actions()


def test_instant_mia_reveals_at_once() -> None:
    game = mia_game("mia(mia_end=instant)", 21, players=4)
    assert game.state.round == 2
    summary = game.state.last_round
    assert summary is not None and summary.revealed == 21
    assert [(p.player, p.reason) for p in summary.penalties] == [(1, "mia"), (2, "mia"), (3, "mia")]
    game = mia_game("mia(mia_end=instant)", 54, players=4)
    assert [(p.player, p.reason) for p in game.state.last_round.penalties] == [
        (0, "lied_about_mia")
    ]


def test_joker32_cheers_resets_the_round_without_penalty() -> None:
    game = script("meyer", 3, ["first 0", "roll", "dice 53", "look", "53", "roll", "dice 32"])
    assert Cheers() not in game.state.legal_actions()  # not looked yet
    game.step(Look())
    assert Cheers() in game.state.legal_actions()
    events = game.step(Cheers())
    assert CheersShown(player=1) in events and penalties(events) == []
    assert game.state.lives == (6, 6, 6) and game.state.round == 2
    assert game.state.current_player == 1
    plain = script("classic", 3, ["first 0", "roll", "dice 32", "look"])
    assert Cheers() not in plain.state.legal_actions()


# --- game ends and scoring ---------------------------------------------------------


def test_lives_are_configurable_and_last_standing_plays_on() -> None:
    game = script("mia(lives=1)", 3, ["first 0", "roll", "dice 43", "look", "54", "challenge"])
    assert game.state.lives == (0, 1, 1)
    assert game.state.out == (True, False, False)
    assert not game.state.is_terminal and game.state.current_player == 1
    game.step(Roll())
    game.step(Dice(43))
    game.step(Announce(54))
    assert game.state.current_player == 2  # the eliminated player 0 is skipped
    game.step(Challenge())
    assert game.state.is_terminal
    assert game.state.result is not None and game.state.result.winners == (2,)
    assert game.state.result.standings == (2, 1, 0)
    assert game.state.returns() == (-0.5, -0.5, 1.0)


def test_first_out_ends_the_game_at_the_first_elimination() -> None:
    game = script(
        "mia(lives=1,end=first_out)", 3, ["first 0", "roll", "dice 43", "look", "54", "challenge"]
    )
    assert game.state.is_terminal
    assert game.state.result is not None and game.state.result.losers == (0,)


def test_lives_never_go_below_zero() -> None:
    game = script("mia(lives=1)", 2, ["first 0", "roll", "dice 21", "look", "21", "challenge"])
    assert game.state.lives == (1, 0)  # lost 2 with 1 life left
    assert game.state.result is not None and game.state.result.winners == (0,)


def test_drinking_mode_sips_and_a_stiff_drink_for_mia() -> None:
    game = script("drinking", 3, ["first 0", "roll", "dice 43", "look", "54", "challenge"])
    assert game.state.lost == (1, 0, 0) and game.state.drinks == (0, 0, 0)
    game.step(Roll())
    game.step(Dice(21))
    game.step(Announce(21))
    events = game.step(Challenge())
    assert [(e.player, e.stiff) for e in events if isinstance(e, Penalty)] == [(2, True)]
    assert game.state.drinks == (0, 0, 1)
    assert not any(game.state.out)


def test_drinking_mode_never_eliminates_and_ends_after_its_rounds() -> None:
    steps = ["first 0"]
    for _ in range(3):
        steps += ["roll", "dice 43", "look", "54", "challenge"]
    game = script("drinking(rounds=3)", 2, steps)
    assert game.state.is_terminal
    assert game.state.result is not None and game.state.result.winners == (1,)


def test_score_mode_plus_one_per_round_minus_one_per_loss() -> None:
    game = script(
        "maexchen(rounds=2)",
        3,
        ["first 0", "roll", "dice 43", "54", "challenge", "roll", "dice 21", "21"],
    )
    # Round 1: player 0 caught bluffing; player 1 starts round 2 and shows a true Mia at
    # once, so players 2 and 0 lose. Both rounds joined by all: +2 each.
    assert game.state.is_terminal
    assert game.state.scores == (0, 2, 1)
    assert game.state.result is not None and game.state.result.winners == (1,)


def test_tables_offer_two_to_ten_players_and_a_contest_round_seats_up_to_200() -> None:
    from bluffdice.games.registry import get_game

    spec = get_game("mia")
    assert (spec.min_players, spec.max_players) == (2, 10)  # the lobby, play, tournaments
    assert new_game("classic", 2).num_players == 2
    assert new_game("classic", 200).num_players == 200  # a Mäxchen round of every bot
    with pytest.raises(RuleError, match="2 to 200 players"):
        new_game("classic", 201)


def test_the_batch_simulator_refuses_a_pass_limit_it_cannot_count() -> None:
    from bluffdice.sim.mia_tables import table_for

    with pytest.raises(ValueError, match="pass_limit"):
        table_for("honest", parse_rules("classic(pass_limit=2)"))
    assert table_for("honest", parse_rules("classic")) is not None
