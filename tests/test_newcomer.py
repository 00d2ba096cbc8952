"""The rough edges a newcomer met on a fresh clone (issue 33), each checked where the user
meets it: replays that read right whatever the seats are called, the games you played in
`replay --list`, one `error:` line for every usage error, an honest ETA, one way to
choose a game, bot names that say what the bot plays, the end of a game you are out of,
and plots that say where they went and agree with their table."""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from bluffdice.cli import app, main

runner = CliRunner()
EVERY_PHASE = "roll\nmia\nchallenge\n" * 200


def invoke(*args: str, stdin: str = "") -> Any:
    result = runner.invoke(app, list(args), input=stdin)
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise result.exception
    return result


def run_main(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], *args: str
) -> tuple[int, str, str]:
    """`bluffdice ARGS` as the installed command runs it (`bluffdice.cli.main`)."""
    monkeypatch.setattr(sys, "argv", ["bluffdice", *args])
    with pytest.raises(SystemExit) as done:
        main()
    captured = capsys.readouterr()
    code = done.value.code
    return (code if isinstance(code, int) else 0), captured.out, captured.err


def played_game(db: Path, name: str = "You") -> None:
    """A game of `bluffdice play` against two bots, stored in `db`."""
    result = invoke(
        "play", "--bots", "2", "--opponents", "honest,liar", "--seed", "5", "--rules",
        "mia(lives=1)", "--name", name, "--db", str(db), stdin=EVERY_PHASE,
    )  # fmt: skip
    assert result.exit_code == 0, result.stderr


# --- replay --------------------------------------------------------------------------------


def test_a_replay_of_your_game_speaks_to_you_and_tells_the_bots_dice_in_third_person(
    tmp_path: Path,
) -> None:
    db = tmp_path / "p.db"
    played_game(db)
    text = invoke("replay", "1", "--db", str(db)).stdout
    assert "played by you" in text
    assert re.search(r"\bYou (roll|announce|challenge)\b", text)
    assert not re.search(r"\bYou (rolls|announces|starts|challenges|looks)\b", text), text
    looks = re.findall(r"(Honest|Liar) looks at the dice: \w+\. \(only \1 saw this\)", text)
    assert looks, text
    assert "only:" not in text and "only You" not in text


def test_a_seat_called_you_in_a_tournament_is_not_read_as_the_viewer(tmp_path: Path) -> None:
    from bluffdice.bots import load_bot
    from bluffdice.games import parse_rules
    from bluffdice.store import Store
    from bluffdice.table import Table, seeded
    from bluffdice.table.runners import run_sync

    rules = parse_rules("mia(lives=1)")
    table = Table(rules, 2, dice=seeded(3), names=["You", "Honest"])
    run_sync(table, [load_bot("honest", "mia"), load_bot("liar", "mia")])
    store = Store(str(tmp_path / "t.db"))
    tid = store.start_tournament(
        game="mia", rules="mia(lives=1)", bots=["honest", "liar"], names=["You", "Honest"],
        seats=2, games=1, seed=3,
    )  # fmt: skip
    outcome = table.outcome()
    assert outcome is not None
    store.add_games(
        tid,
        [{"index": 0, "seed": 3, "record": table.record, "bots": ["You", "Honest"],
          "result": {"winners": list(outcome.winners)}}],
    )  # fmt: skip
    store.close()
    text = invoke("replay", "1", "--db", str(tmp_path / "t.db")).stdout
    assert "You (seat 0) rolls" in text or "You (seat 0) announces" in text, text
    assert not re.search(r"\bYou (rolls|announces|starts|looks)\b", text), text


def test_replay_list_shows_the_games_you_played(tmp_path: Path) -> None:
    db = tmp_path / "p.db"
    played_game(db, name="Ada")
    listed = invoke("replay", "--list", "--db", str(db))
    assert listed.exit_code == 0
    assert "Games you played" in listed.stdout and "Ada, Honest, Liar" in listed.stdout
    (entry,) = json.loads(invoke("replay", "--list", "--db", str(db), "--json").stdout)
    assert entry["kind"] == "played" and entry["id"] == 1 and entry["person_seat"] == 0
    assert entry["bots"] == ["Ada", "Honest", "Liar"] and entry["seed"] == 5


# --- usage errors ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (["replay", "abc"], "Invalid value for 'GAME_ID': 'abc' is not a valid int"),
        (["tournament", "--nope"], "No such option: --nope"),
        (["nosuch"], "No such command 'nosuch'"),
        (["play", "--bots", "x"], "'x' is not a valid int"),
        (["tournament", "--games"], "Option '--games' requires an argument"),
    ],
)
def test_a_usage_error_is_one_error_line_and_exit_2(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], args: list[str], said: str
) -> None:
    code, out, err = run_main(monkeypatch, capsys, *args)
    assert code == 2 and out == ""
    lines = err.splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: ") and said in lines[0], err


def test_the_bare_command_still_shows_its_whole_help(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = run_main(monkeypatch, capsys)
    assert "Commands:" in out + err and "characters)" not in out + err


# --- the tournament's ETA ------------------------------------------------------------------


def _eta_after_a_burst(column: Any) -> str:
    """Where the ETA stands after results came in two batches 10 ms apart, 10 s in."""
    from rich.progress import Progress

    now = [0.0]
    progress = Progress(column, get_time=lambda: now[0], auto_refresh=False)
    task = progress.add_task("games", total=1200)
    progress.start_task(task)
    for at in (10.0, 10.01):
        now[0] = at
        progress.advance(task, 100)
    return str(column.render(progress.tasks[0]))


def test_the_tournament_eta_goes_by_the_whole_run_not_the_last_burst() -> None:
    from rich.progress import TimeRemainingColumn

    from bluffdice.cli.tournament import progress_columns

    (column,) = [c for c in progress_columns() if "Remaining" in type(c).__name__]
    assert _eta_after_a_burst(column) == "eta 0:00:50"  # 1000 games left at 20 games/s
    assert _eta_after_a_burst(TimeRemainingColumn()) == "0:00:01"  # the burst's speed


def test_the_eta_waits_for_the_first_result() -> None:
    from bluffdice.cli.progress import eta_seconds, eta_text

    assert eta_text(eta_seconds(5.0, 0, 100)) == "eta -:--:--"
    assert eta_text(eta_seconds(3600.0, 1, 3)) == "eta 2:00:00"


# --- one way to choose a game ----------------------------------------------------------------


@pytest.mark.parametrize(
    "args",
    [
        ["tournament", "liars-dice"],
        ["tournament", "--game", "liars-dice"],  # the older spelling still runs
        ["tournament", "--rules", "liars-dice(dice=2)"],
        ["simulate", "liars-dice", "--rules", "liars-dice(single_round=on,dice=2)"],
    ],
)
def test_every_command_takes_the_game_the_same_way(args: list[str]) -> None:
    extra = ["--bots", "odds,random", "--seed", "1", "--json", "--games", "4"]
    if args[0] == "tournament":
        extra.append("--no-store")
    result = invoke(*args, *extra)
    assert result.exit_code == 0, result.stderr
    data = json.loads(result.stdout)
    game = data["tournament"]["game"] if args[0] == "tournament" else data["game"]
    assert game == "liars-dice"


@pytest.mark.parametrize("command", ["play", "tournament", "simulate", "solve"])
def test_every_command_that_plays_a_game_takes_it_as_its_first_word(command: str) -> None:
    text = invoke(command, "--help").stdout
    assert re.search(rf"Usage: .*{command} \[OPTIONS\] [\[{{]?GAME\b", text), text


# --- bot names say what the bot plays at the table ------------------------------------------


@pytest.mark.parametrize(
    ("rules", "players", "name"),
    [
        ("liars-dice", 3, "Cfr (odds)"),  # no policy for three cups of five: odds plays
        ("liars-dice", 2, "Cfr (odds)"),  # heads-up, but five dice each: too large to solve
        ("openspiel", 2, "Cfr"),  # the shipped equilibrium
        ("classic", 3, "Cfr"),  # the heads-up Mia policy, played against the next player
    ],
)
def test_a_cfr_seat_says_when_another_bot_plays_for_it(rules: str, players: int, name: str) -> None:
    from bluffdice.bots.base import table_name
    from bluffdice.bots.cfr import CfrBot
    from bluffdice.games import parse_rules

    assert table_name("Cfr", CfrBot, parse_rules(rules), players) == name


# --- after you are out -----------------------------------------------------------------------


def test_once_you_are_out_you_are_told_you_may_leave_and_the_bots_speed_up() -> None:
    import io
    import itertools

    from rich.console import Console

    from bluffdice.games import parse_rules
    from bluffdice.table import Table, seeded
    from bluffdice.terminal import presenter_for
    from bluffdice.terminal.session import OUT_PAUSE, Seat, Session, make_seats

    rules = parse_rules("mia(lives=1)")
    seats = [Seat("You"), *make_seats("mia", ["honest", "liar", "honest"], None, 1)]
    moves = itertools.cycle(["roll", "mia", "challenge"])  # a Mia announced blind is caught
    stdout = io.StringIO()
    session = Session(
        table=Table(rules, 4, dice=seeded(5), names=[s.name for s in seats]),
        presenter=presenter_for(rules),
        seats=seats,
        console=Console(file=stdout, width=200),
        errors=Console(file=io.StringIO()),
        read=lambda prompt: next(moves),
    )
    session.run()
    text = stdout.getvalue()
    said = "The bots play on to the end (faster now); press Ctrl-C to leave"
    assert text.count(said) == 1, text
    assert text.index("You are out of the game.") < text.index(said) < text.index("Winner")
    slow = Session(
        table=Table(rules, 4, dice=seeded(1), names=[s.name for s in seats]),
        presenter=presenter_for(rules),
        seats=seats,
        console=Console(file=io.StringIO()),
        errors=Console(file=io.StringIO()),
        read=lambda prompt: "q",
        pause=0.8,
    )
    slow._out_of_the_game()
    assert slow.pause == OUT_PAUSE < 0.8


def test_a_cfr_seat_at_a_three_player_liars_dice_table_is_named_for_the_bot_that_plays() -> None:
    result = invoke(
        "play", "liars-dice", "--watch", "--opponents", "cfr,odds,random", "--seed", "1"
    )
    assert result.exit_code == 0
    assert "Cfr (odds), Odds, Random" in result.stdout.splitlines()[0]


# --- plots agree with their tables -----------------------------------------------------------


def test_the_ratings_plot_has_the_tables_order(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import bluffdice.tournament.plot as plot_module

    drawn: list[list[str]] = []
    monkeypatch.setattr(
        plot_module, "plot_standings", lambda lines, *rest: drawn.append(list(lines))
    )
    result = invoke(
        "tournament", "--bots", "odds,honest,liar,random", "--games", "40", "--seed", "2",
        "--no-store", "--plot", str(tmp_path / "r.png"),
    )  # fmt: skip
    assert result.exit_code == 0, result.stderr
    rows = [line.split("│")[1].strip() for line in result.stdout.splitlines() if "│" in line]
    shown = [name for name in rows if name in {"odds", "honest", "liar", "random"}]
    assert drawn == [shown]


# --- shell completion ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("typed", "offered", "not_offered"),
    [
        ("bluffdice play --rules du", ["dudo", "dudo-single-round"], ["classic"]),
        ("bluffdice tournament --rules mae", ["maexchen"], ["dudo"]),
        ("bluffdice tournament liars-dice --bots odds,ra", ["odds,random"], ["odds,honest"]),
        ("bluffdice play mia --opponents ho", ["honest"], ["odds"]),
        ("bluffdice simulate --rules dudo --bots b", ["bayes", "bluffer"], []),
    ],
)
def test_rules_and_bot_names_complete_in_the_shell(
    typed: str, offered: list[str], not_offered: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("_BLUFFDICE_COMPLETE", "complete_zsh")
    monkeypatch.setenv("_TYPER_COMPLETE_ARGS", typed)
    result = runner.invoke(app, [], prog_name="bluffdice")
    words = re.findall(r'"([^"]+)"', result.stdout)
    assert all(w in words for w in offered), result.stdout
    assert not any(w in words for w in not_offered), result.stdout
