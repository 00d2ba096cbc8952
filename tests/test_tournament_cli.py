"""`bluffdice tournament` from the command line: JSON shape, storage, plots, bad input."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from bluffdice.cli import app
from bluffdice.store import Store

runner = CliRunner()

BOTS = "odds,adaptive,liar,random"


def run(*args: str) -> tuple[int, str, str]:
    result = runner.invoke(app, ["tournament", *args])
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise result.exception
    return result.exit_code, result.stdout, result.stderr


def test_json_has_a_key_per_bot_and_nothing_else_on_stdout(tmp_path: Path) -> None:
    db = tmp_path / "t.db"
    args = ["--rules", "mia(lives=2)", "--bots", BOTS, "--games", "24", "--seed", "7"]
    code, out, err = run(*args, "--json", "--db", str(db))
    assert code == 0, err
    data = json.loads(out)
    assert set(data["bots"]) == {"odds", "adaptive", "liar", "random"}
    for line in data["bots"].values():
        assert line["games"] == 24
        assert 0.0 <= line["ci_low"] <= line["rate"] <= line["ci_high"] <= 1.0
        assert {"wins", "losses", "mean_lives", "mu", "sigma"} <= set(line)
    meta = data["tournament"]
    assert (meta["seed"], meta["games"], meta["seats"], meta["counted"]) == (7, 24, 4, "wins")
    # Same seed, same rules and bots, with two workers: the same numbers.
    code, again, err = run(*args, "--json", "--no-store", "--workers", "2")
    assert code == 0, err
    assert json.loads(again)["bots"] == data["bots"]
    stored = Store(str(db)).games(meta["id"], limit=100)
    assert len(stored) == 24 and stored[0].record.replay().is_terminal


def test_table_and_plot(tmp_path: Path) -> None:
    plot = tmp_path / "ratings.svg"
    code, out, err = run(
        "--bots", "odds,random,honest", "--games", "12", "--seed", "1",
        "--no-store", "--plot", str(plot), "--rules", "mia(lives=2)",
    )  # fmt: skip
    assert code == 0, err
    assert "odds" in out and "95 % CI" in out and "mu" in out
    assert plot.read_text().lstrip().startswith("<?xml")
    assert "games/s" in err


def test_first_out_tables_count_losses(tmp_path: Path) -> None:
    code, out, err = run(
        "--rules", "mia(end=first_out,lives=2)", "--bots", "odds,random", "--games", "6",
        "--seed", "3", "--no-store", "--json",
    )  # fmt: skip
    assert code == 0, err
    data: dict[str, Any] = json.loads(out)
    assert data["tournament"]["counted"] == "losses"
    assert sum(b["losses"] for b in data["bots"].values()) == 6


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--bots", "odds,genius"], "built-in bots"),
        (["--rules", "mia(lives=0)"], "lives"),
        (["--rules", "no-such-preset"], "unknown preset"),
        (["mia", "--rules", "liars-dice"], "not of mia"),
        (["--games", "0"], "--games must be between"),
        (["--executor", "cluster"], "unknown executor"),
        (["--plot", "ratings.txt"], "written as .png or .svg"),
        (["--workers", "0"], "--workers"),
        (["--game", "chess"], "unknown preset or game"),
        (["chess"], "unknown preset or game"),
        (["--db", "nosuchdialect://x"], "cannot use database"),
    ],
)
def test_bad_input_is_one_clear_error_and_stores_nothing(
    args: list[str], message: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    code, out, err = run("--games", "2", "--bots", "odds,random", *args)
    assert code == 2
    assert message in err and "Traceback" not in err
    assert out == ""
    assert not (tmp_path / "bluffdice.db").exists()


def test_liars_dice_tournament_by_game_name() -> None:
    code, out, err = run(
        "--game", "liars-dice", "--rules", "liars-dice(dice=2)", "--bots", "odds,random",
        "--games", "4", "--seed", "2", "--no-store", "--json",
    )  # fmt: skip
    assert code == 0, err
    assert set(json.loads(out)["bots"]) == {"odds", "random"}


def test_help_explains_the_command() -> None:
    result = runner.invoke(app, ["tournament", "--help"])
    assert result.exit_code == 0
    for word in ("--bots", "--seed", "--workers", "--executor", "--db", "--plot", "--json"):
        assert word in result.stdout


def test_a_bot_that_breaks_the_rules_is_named_without_a_traceback(tmp_path: Path) -> None:
    bad = tmp_path / "bad_bot.py"
    bad.write_text(
        "from bluffdice.bots import Bot\n"
        "from bluffdice.games.mia import Challenge\n\n"
        "class Stubborn(Bot):\n"
        "    name = 'stubborn'\n\n"
        "    def act(self, view):\n"
        "        return Challenge()  # even when nothing was announced\n"
    )
    crash = tmp_path / "crash_bot.py"
    crash.write_text(
        "from bluffdice.bots import Bot\n\nclass Crash(Bot):\n"
        "    def act(self, view):\n        return 1 / 0\n"
    )
    stop = ("--on-bot-error", "stop", "--no-store")
    code, out, err = run("--bots", f"{bad},odds", "--games", "2", "--seed", "1", *stop)
    assert code == 2 and "Traceback" not in err
    assert "stubborn" in err and "failed in game" in err and "illegal" in err and "roll" in err
    code, out, err = run("--bots", f"{crash},odds", "--games", "2", *stop)
    assert code == 2 and "ZeroDivisionError" in err and "crash_bot.py:5" in err
    # By default the failing bot forfeits each game and the tournament ends normally.
    code, out, err = run("--bots", f"{crash},odds", "--games", "2", "--no-store", "--json")
    assert code == 0, err
    data = json.loads(out)
    assert data["bots"]["crash_bot"]["faults"] == 2 and data["bots"]["crash_bot"]["wins"] == 0
    assert [f["game"] for f in data["faults"]] == [0, 1]


@pytest.mark.skipif(
    __import__("shutil").which("bwrap") is None, reason="the sandbox needs bubblewrap"
)
def test_a_checkout_run_through_pythonpath_hosts_python_bot_files_in_the_sandbox(
    tmp_path: Path,
) -> None:
    """A copy of the sources run with PYTHONPATH (as from a git checkout that is not the
    installed one): the sandboxed bot's host imports that copy, the one bound inside."""
    import os
    import shutil
    import subprocess
    import sys

    import bluffdice

    copy = tmp_path / "src"
    shutil.copytree(Path(bluffdice.__file__).parent, copy / "bluffdice")
    bot = Path(__file__).parent.parent / "docs" / "examples" / "cautious_bot.py"
    env = {**os.environ, "PYTHONPATH": str(copy)}
    command = [sys.executable, "-m", "bluffdice", "tournament", "--bots", f"odds,{bot}"]
    command += ["--games", "2", "--seed", "1", "--no-store", "--json"]
    done = subprocess.run(command, env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    results = json.loads(done.stdout)
    assert results["faults"] == [], results["faults"]
    assert sum(b["games"] for b in results["bots"].values()) == 4


def test_a_bot_that_another_plays_for_is_named_so_and_game_as_an_option_is_deprecated() -> None:
    runner = CliRunner()
    args = ["tournament", "--bots", "cfr,odds", "--games", "2", "--seed", "1", "--no-store"]
    three = runner.invoke(app, [*args[:2], "cfr,odds,bayes", *args[3:], "--game", "liars-dice"])
    assert three.exit_code == 0, three.output
    assert "note: cfr plays as odds at these tables (3 seats" in three.stderr
    assert "note: --game is deprecated; write the game first" in three.stderr
    # Heads-up with one die each the solved policy plays itself: no note.
    solved = runner.invoke(app, [*args, "--rules", "liars-dice(dice=1)"])
    assert solved.exit_code == 0, solved.output
    assert "plays as" not in solved.stderr and "deprecated" not in solved.stderr
