"""The rough edges a new user ran into (issue 9), each checked where the user meets it:
messages that name what was typed, help and docs that agree with the program, tables
that explain themselves, and bad input that ends in one clear line, quickly."""

from __future__ import annotations

import json
import os
import re
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest
from typer.testing import CliRunner

from bluffdice.bots.base import available_bots
from bluffdice.cli import app
from bluffdice.games import IllegalAction, games, new_game, parse_rules
from bluffdice.games.common_hand import actions as common_hand
from bluffdice.games.liars_dice import actions as liars_dice

ROOT = Path(__file__).resolve().parent.parent
runner = CliRunner()


def refused(*args: str) -> str:
    """Run a command that must refuse its input: exit 2, one line on stderr, no traceback."""
    result = runner.invoke(app, list(args))
    assert result.exception is None or isinstance(result.exception, SystemExit), result.output
    assert result.exit_code == 2, result.output
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), result.stderr
    return lines[0]


# --- play ---------------------------------------------------------------------------------


def test_an_unknown_opponent_is_named_before_any_seat_count() -> None:
    line = refused("play", "liars-dice", "--watch", "--opponents", "foo")
    assert "unknown liars-dice bot 'foo'" in line and "--bots" not in line


def test_too_few_named_opponents_blame_the_flag_that_was_typed() -> None:
    line = refused("play", "liars-dice", "--watch", "--opponents", "odds")
    assert "--opponents names 1 bot" in line and "--bots" not in line


@pytest.mark.parametrize("pause", ["inf", "nan", "61"])
def test_a_pause_that_cannot_be_slept_is_refused(pause: str) -> None:
    assert "--pause takes 0 to 60 seconds" in refused("play", "--watch", "--pause", pause)


def test_a_huge_name_is_refused_at_once_without_echoing_it() -> None:
    line = refused("play", "--name", "x" * 100_000)
    assert "--name is at most 40 characters" in line and len(line) < 200


def test_play_help_covers_every_game() -> None:
    text = " ".join(runner.invoke(app, ["play", "--help"]).stdout.split())
    for words in ("Liar's Dice", "bid 3x5", "common hand", "reroll", "54, 5 4"):
        assert words in text


def _mia_view(rules: str) -> tuple[object, object]:
    from bluffdice.games.mia.actions import Dice, FirstPlayer, Roll
    from bluffdice.terminal import presenter_for

    parsed = parse_rules(rules)
    state = new_game(parsed, 2)
    for action in (FirstPlayer(0), Roll(), Dice(43)):
        state = state.apply(action).state
    return presenter_for(parsed), state.view(0)


def test_an_unreadable_move_suggests_only_the_moves_of_these_rules() -> None:
    presenter, view = _mia_view("classic")
    with pytest.raises(ValueError) as plain:
        presenter.parse("77", view)  # type: ignore[attr-defined]
    assert "beat" not in str(plain.value) and "cheers" not in str(plain.value)
    assert "pass 65" in str(plain.value)
    presenter, view = _mia_view("mia(beat_mia=on,joker32=on,pass=off)")
    with pytest.raises(ValueError) as rich:
        presenter.parse("77", view)  # type: ignore[attr-defined]
    assert "beat" in str(rich.value) and "cheers" in str(rich.value)
    assert "pass 65" not in str(rich.value)


def test_the_table_command_also_says_what_you_can_do() -> None:
    result = runner.invoke(app, ["play", "--seed", "7", "--opponents", "liar"], input="table\n")
    after = result.stdout.split("> ", 1)[1]  # what the `table` command printed
    assert "Lives" in after and "You can:" in after


def test_one_die_is_one_die() -> None:
    result = runner.invoke(app, ["odds", "liars-dice", "--dice", "1"])
    assert "1 die in play" in result.stdout and "1 dice" not in result.stdout


# --- rules ----------------------------------------------------------------------------------


def test_rules_lists_player_counts_as_written() -> None:
    text = runner.invoke(app, ["rules"]).stdout
    assert "2 to 2 players" not in text and "2 players" in text and "2 to 10 players" in text


@pytest.mark.parametrize("spec", games(), ids=lambda s: s.name)
def test_rules_of_a_game_speak_of_that_game_and_no_colour_or_seed(spec: object) -> None:
    name = spec.name  # type: ignore[attr-defined]
    text = " ".join(runner.invoke(app, ["rules", name]).stdout.split())
    example = re.search(r"e\.g\. (\S+)\.$", text)
    assert example is not None and example.group(1).startswith(f"{name}(")
    assert parse_rules(example.group(1)) != parse_rules(name)  # a real, changed rule set
    assert "yellow" not in text and not re.search(r"seeds? \d{3}", text)


def test_a_number_of_5000_digits_is_refused_not_crashed() -> None:
    line = refused("rules", f"mia(lives={'9' * 5000})")
    assert "5000 digits" in line and len(line) < 200


# --- long input is named, not echoed -------------------------------------------------------


@pytest.mark.parametrize(
    "args",
    [
        ["rules", "x" * 100_000],
        ["rules", f"mia({'x' * 100_000}=1)"],
        ["tournament", "--bots", "y" * 100_000, "--no-store"],
        ["play", "--watch", "--opponents", "z" * 100_000],
    ],
    ids=["preset", "option", "bot", "opponent"],
)
def test_errors_do_not_echo_a_100_kb_input(args: list[str]) -> None:
    line = refused(*args)
    assert "characters" in line and len(line) < 1000


def test_the_option_parser_does_not_echo_a_100_kb_number_either() -> None:
    """The parser's own usage errors go through `bluffdice.cli.main`, which cuts values."""
    for args in (["replay", "9" * 100_000], ["tournament", "--games", "9" * 5000]):
        done = subprocess.run(
            [sys.executable, "-m", "bluffdice", *args],
            capture_output=True,
            text=True,
            stdin=subprocess.DEVNULL,
        )
        assert done.returncode == 2 and done.stdout == ""
        assert "not a valid int" in done.stderr and len(done.stderr) < 1000, done.stderr[:300]
        assert "Traceback" not in done.stderr


# --- the Python API: chance outcomes of the wrong type -------------------------------------


@pytest.mark.parametrize("module", [liars_dice, common_hand], ids=["liars-dice", "common-hand"])
@pytest.mark.parametrize("player", [1.5, None, "1", True, [0]])
def test_a_first_player_of_the_wrong_type_is_an_illegal_action(
    module: object, player: object
) -> None:
    game = "liars-dice" if module is liars_dice else "common-hand"
    state = new_game(parse_rules(game), 2)
    with pytest.raises(IllegalAction):
        state.apply(module.FirstPlayer(player))  # type: ignore[attr-defined]


@pytest.mark.parametrize("module", [liars_dice, common_hand], ids=["liars-dice", "common-hand"])
def test_dice_of_the_wrong_type_are_an_illegal_action(module: object) -> None:
    game = "liars-dice" if module is liars_dice else "common-hand"
    state = new_game(parse_rules(game), 2).apply(module.FirstPlayer(0)).state  # type: ignore[attr-defined]
    (good, _), *_ = state.chance_outcomes()
    faces = list(good.dice)
    bad = [None, faces, 5, (float(faces[0]), *faces[1:]), ([faces[0]], *faces[1:])]
    for dice in bad:
        with pytest.raises(IllegalAction):
            state.apply(module.Dice(dice))  # type: ignore[attr-defined]
    state.apply(good)  # the right type is still accepted


# --- tournaments ------------------------------------------------------------------------------


def _rows(text: str) -> list[list[str]]:
    return [
        [cell.strip() for cell in line.strip("│").split("│")]
        for line in text.splitlines()
        if line.startswith("│")
    ]


def test_the_tournament_table_is_sorted_by_the_rate_it_shows_and_says_so() -> None:
    args = ["tournament", "--rules", "maexchen", "--games", "30", "--seed", "2", "--no-store"]
    result = runner.invoke(app, args, terminal_width=200)
    assert result.exit_code == 0, result.stderr
    rows = _rows(result.stdout)
    rates = [float(row[4]) for row in rows]
    # Every bot of the default mix (`mia-best` plays others' methods and leaves it).
    mix = [b for b in available_bots("mia").values() if getattr(b, "in_default_mix", True)]
    assert len(rows) == len(mix) and rates == sorted(rates, reverse=True)
    caption = " ".join(result.stdout.split("└", 1)[1].split())
    assert "Sorted by win %" in caption
    wins = sum(int(row[2]) for row in rows)
    assert wins > 30  # maexchen's score mode: ties for the best score share the win
    assert f"the wins add up to {100 * wins / 30:.0f} % of the games" in caption


def test_bench_cfr_names_the_extra_to_install() -> None:
    code = (
        "import sys; sys.modules['pyspiel'] = None; sys.argv = ['bench_cfr.py'];"
        f"sys.path.insert(0, {str(ROOT / 'benchmarks')!r}); import bench_cfr;"
        "raise SystemExit(bench_cfr.main([]))"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.returncode == 2 and "pip install -e '.[bench]'" in done.stdout, done.stdout


def test_ctrl_c_stops_a_tournament_and_says_what_was_stored(tmp_path: Path) -> None:
    """SIGINT to the whole process group, as a terminal sends it, with worker processes."""
    db = tmp_path / "t.db"
    child = subprocess.Popen(
        [sys.executable, "-m", "bluffdice", "tournament", "--bots", "random,honest"]
        + ["--games", "200000", "--workers", "2", "--db", str(db)],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    try:
        stored = 0
        deadline = time.monotonic() + 120
        while stored == 0 and time.monotonic() < deadline:
            time.sleep(0.5)
            try:
                with sqlite3.connect(db) as connection:
                    stored = connection.execute("SELECT count(*) FROM games").fetchone()[0]
            except sqlite3.Error:
                stored = 0
        assert stored > 0, "no game was stored in two minutes"
        os.killpg(child.pid, signal.SIGINT)
        _, err = child.communicate(timeout=120)
    finally:
        if child.poll() is None:
            os.killpg(child.pid, signal.SIGKILL)
            child.wait()
    assert child.returncode == 130, err
    assert "Traceback" not in err
    said = re.search(r"Interrupted: tournament 1 stopped after (\d+) games, stored in", err)
    assert said is not None, err
    with sqlite3.connect(db) as connection:
        kept = connection.execute("SELECT count(*) FROM games").fetchone()[0]
    assert int(said.group(1)) == kept >= stored


# --- docs that agree with the program -------------------------------------------------------


def test_docs_name_only_the_plot_formats_that_exist() -> None:
    for path in (ROOT / "docs").rglob("*.md"):
        assert not re.search(r"\bpdf\b", path.read_text(encoding="utf-8"), re.I), path.name


def test_the_liars_dice_page_says_what_play_dudo_plays() -> None:
    page = (ROOT / "docs" / "rules" / "liars-dice.md").read_text(encoding="utf-8")
    assert "`bluffdice play dudo`" in page and "play those presets" in page
    heading = runner.invoke(app, ["play", "dudo", "--watch", "--bots", "2", "--seed", "1"])
    assert "ones_bids=on" in heading.stdout.splitlines()[0]


def test_the_bots_page_names_every_bot_of_every_game() -> None:
    page = (ROOT / "docs" / "bots.md").read_text(encoding="utf-8")
    section = page.split("<!-- section: bots -->", 1)[1].split("<!-- /section", 1)[0]
    named = set(re.findall(r"`([a-z-]+)`", section))
    for game in ("mia", "liars-dice", "common-hand"):
        assert set(available_bots(game)) <= named, game


def test_json_stays_machine_readable() -> None:
    """A sanity check that --json output was not touched by the table changes."""
    args = ["tournament", "--bots", "odds,random", "--games", "2", "--no-store", "--json"]
    result = runner.invoke(app, args)
    assert set(json.loads(result.stdout)["bots"]) == {"odds", "random"}
