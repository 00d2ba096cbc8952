"""`bluffdice play` driven through the CLI: a scripted person, --watch, and bad input."""

from __future__ import annotations

import re

from typer.testing import CliRunner

from bluffdice.bots import available_bots
from bluffdice.cli import app

runner = CliRunner()

# One of these moves is legal in every phase of a lives game under the default rules
# (open: roll, holding dice: announce Mia, after an announcement: challenge), so a
# person who types them in turn always gets the game on; refused lines change nothing.
EVERY_PHASE = "roll\nmia\nchallenge\n" * 200


def play(*args: str, stdin: str = "") -> tuple[int, str, str]:
    result = runner.invoke(app, ["play", *args], input=stdin)
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise result.exception  # a crash, not a refusal: show its traceback
    return result.exit_code, result.stdout, result.stderr


def test_scripted_game_refuses_an_illegal_move_with_the_engines_reason_and_goes_on() -> None:
    # 'give-up' is only the answer to a Mia announcement: refused, and the game goes on.
    stdin = "give-up\n" + EVERY_PHASE
    code, out, err = play("--rules", "mia(lives=2)", "--bots", "1", "--seed", "4", stdin=stdin)
    assert code == 0, err
    refusal = "Not allowed: giving up is only the answer to a Mia announcement"
    assert refusal in out
    after = out[out.index(refusal) :]
    assert re.search(r"You (roll|announce|challenge|look under)", after)
    assert "Game over after" in after
    assert "Traceback" not in out + err


def test_text_that_is_no_move_is_explained_and_asked_again() -> None:
    code, out, _ = play(
        "--rules", "mia(lives=1)", "--bots", "1", "--seed", "2", stdin="banana\n" + EVERY_PHASE
    )
    assert code == 0
    assert "Not understood: 'banana' is not a Mia action" in out
    assert "Game over after" in out


def test_the_person_sees_their_table_hint_and_a_result() -> None:
    code, out, _ = play("--bots", "2", "--seed", "11", "--name", "Ada", stdin=EVERY_PHASE)
    assert code == 0
    assert "Ada (you)" in out
    assert "You can:" in out
    assert "This round:" in out
    assert re.search(r"Winners?: ", out)
    assert "Cup:" not in out  # the dice reveal is for --watch only


def test_plain_play_with_no_arguments_starts_an_interactive_mia_game() -> None:
    code, out, err = play(stdin="quit\n")
    assert code == 0, err
    assert out.startswith("Mia (classic)")
    assert "Lives" in out
    assert "You left the table" in out


def test_end_of_input_stops_cleanly_with_a_message_and_failure_status() -> None:
    code, out, err = play("--seed", "3", stdin="roll\n")
    assert code != 0
    assert "Input ended: the game is abandoned" in err and "--watch" in err
    assert "Traceback" not in out + err


def test_same_seed_and_input_give_the_same_transcript() -> None:
    args = ("--bots", "3", "--seed", "21", "--rules", "mia(lives=2)")
    first = play(*args, stdin=EVERY_PHASE)
    second = play(*args, stdin=EVERY_PHASE)
    assert first[0] == 0
    assert first == second


def test_watch_is_reproducible_and_names_the_winner() -> None:
    args = ("--watch", "--seed", "5", "--rules", "mia(lives=2)", "--bots", "4")
    first = play(*args)
    second = play(*args)
    assert first == second
    code, out, _ = first
    assert code == 0
    assert re.search(r"Winner: \w+", out)
    assert "Round 2" in out
    assert "Cup:" in out  # every round ends by showing the dice under the cup
    assert "\x1b[" not in out  # plain text when not a terminal


def test_watch_with_another_seed_plays_another_game() -> None:
    base = ("--watch", "--rules", "mia(lives=2)", "--bots", "3")
    assert play(*base, "--seed", "1")[1] != play(*base, "--seed", "2")[1]


def test_watch_score_mode_plays_the_set_number_of_rounds() -> None:
    code, out, _ = play("--watch", "--seed", "8", "--rules", "maexchen(rounds=3)")
    assert code == 0
    assert "Round 3 of 3" in out
    assert "Round 4" not in out
    assert "Game over after 3 rounds." in out
    assert "Score" in out


def test_opponents_are_repeated_to_fill_the_seats_with_unique_names() -> None:
    code, out, _ = play(
        "--watch",
        "--seed",
        "1",
        "--bots",
        "4",
        "--opponents",
        "honest,bluffer",
        "--rules",
        "mia(lives=1)",
    )
    assert code == 0
    assert out.splitlines()[0].endswith("Honest, Bluffer, Honest 2, Bluffer 2")


def test_default_opponents_come_from_the_bot_registry() -> None:
    code, out, _ = play("--watch", "--seed", "2", "--bots", "10", "--rules", "mia(lives=1)")
    assert code == 0
    seated = out.splitlines()[0].split(" · ", 1)[1].split(", ")
    known = {name.title() for name in available_bots("mia")}
    assert {re.sub(r" \d+$", "", n) for n in seated} <= known
    assert len(set(seated)) == 10


def test_bad_rules_are_refused_with_the_parsers_reason() -> None:
    code, out, err = play("--rules", "mia(lifes=3)", stdin="quit\n")
    assert code == 2
    assert "did you mean lives" in err
    assert out == ""


def test_bot_counts_outside_the_player_limits_are_refused() -> None:
    code, _, err = play("--bots", "0")
    assert code == 2 and "--bots must be from 1 to 9" in err
    code, _, err = play("--watch", "--bots", "1")
    assert code == 2 and "--bots must be from 2 to 10" in err
    code, _, err = play("--bots", "2", "--opponents", "honest,bluffer,honest")
    assert code == 2 and "3 opponents named for 2 bot seats" in err


def test_unknown_opponents_and_games_are_refused() -> None:
    code, _, err = play("--opponents", "nobody")
    assert code == 2 and "unknown mia bot 'nobody'" in err and "honest" in err
    code, _, err = play("chess")
    assert code == 2 and "unknown preset or game 'chess'" in err


def test_play_help_explains_the_options() -> None:
    result = runner.invoke(app, ["play", "--help"])
    assert result.exit_code == 0
    for option in ("--rules", "--bots", "--opponents", "--seed", "--name", "--watch"):
        assert option in result.stdout


def test_a_preset_named_as_the_game_plays_that_preset() -> None:
    from bluffdice.cli.app import game_rules
    from bluffdice.games import parse_rules

    assert game_rules("dudo", None) == parse_rules("dudo")
    assert game_rules("meyer", None) == parse_rules("meyer")
    assert game_rules("mia", None) == parse_rules("classic")
