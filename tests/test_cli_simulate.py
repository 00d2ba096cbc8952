"""`bluffdice simulate`: JSON shape, reproducibility, which bots ran vectorised, plots and
bad input."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from typer.testing import CliRunner

from bluffdice.cli import app

runner = CliRunner()


def run(*args: str) -> tuple[int, str, str]:
    result = runner.invoke(app, ["simulate", *args])
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise result.exception
    return result.exit_code, result.stdout, result.stderr


def test_json_is_the_whole_stdout_and_adds_up() -> None:
    args = ["--rules", "mia(lives=3)", "--bots", "honest,liar,random", "--games", "3000"]
    code, out, err = run(*args, "--seed", "4", "--json")
    assert code == 0, err
    data = json.loads(out)
    assert data["vectorised"] == {"honest": True, "liar": True, "random": True}
    assert len(data["pairs"]) == 3
    for pair in data["pairs"]:
        assert pair["games"] == 3000
        assert pair["wins_a"] + pair["wins_b"] + pair["draws"] == 3000
        assert data["matrix"][pair["a"]][pair["b"]] == pair["wins_a"] / 3000
    rows = {row["bot"]: row for row in data["standings"]}
    assert rows["honest"]["games"] == 6000
    for row in rows.values():
        assert 0 <= row["ci_low"] <= row["rate"] <= row["ci_high"] <= 1
        assert 0 <= row["mean_left"] <= 3
    # honest beats the random bot nearly always; that is what the table must show
    assert data["matrix"]["honest"]["random"] > 0.9
    # the same seed gives the same numbers
    again = json.loads(run(*args, "--seed", "4", "--json")[1])
    assert again["pairs"] == data["pairs"]
    other = json.loads(run(*args, "--seed", "5", "--json")[1])
    assert other["pairs"] != data["pairs"]


def test_workers_change_nothing_but_the_time() -> None:
    args = ["--rules", "classic", "--bots", "honest,liar,random", "--games", "2000"]
    for form in ([], ["--json"]):
        outputs = set()
        for workers in ("1", "2"):
            code, out, err = run(*args, "--seed", "9", "--workers", workers, *form)
            assert code == 0, err
            outputs.add(out)
        assert len(outputs) == 1, form
    # without --seed: a fresh one, reported, which replays the run
    code, out, err = run(*args, "--workers", "2", "--json")
    assert code == 0, err
    data = json.loads(out)
    again = run(*args, "--seed", str(data["seed"]), "--json")[1]
    assert json.loads(again) == data


def test_bots_without_a_table_are_played_by_the_engine() -> None:
    code, out, err = run(
        "--rules", "mia(lives=1)", "--bots", "odds,honest", "--games", "20", "--seed", "1", "--json"
    )
    assert code == 0, err
    data = json.loads(out)
    assert data["vectorised"] == {"odds": False, "honest": True}
    assert "pass" in data["engine_reasons"]["odds"]
    assert data["pairs"][0]["vectorised"] is False
    assert data["pairs"][0]["wins_a"] + data["pairs"][0]["wins_b"] == 20


def test_table_output_names_what_ran_vectorised(tmp_path: Path) -> None:
    plot = tmp_path / "m.png"
    code, out, err = run(
        "--rules",
        "openspiel",
        "--bots",
        "random,odds",
        "--games",
        "20000",
        "--seed",
        "2",
        "--plot",
        str(plot),
    )
    assert code == 0, err
    assert "heads-up" in out and "odds" in out
    assert "vectorised: random, odds" in err
    assert plot.read_bytes()[:4] == b"\x89PNG"


def test_bad_input_is_one_error_line() -> None:
    for args, words in [
        (["--bots", "honest"], "at least two"),
        (["--bots", "honest,nobody"], "unknown mia bot"),
        (["--rules", "nonsense"], "unknown preset"),
        (["--games", "0", "--bots", "honest,liar"], "--games"),
        (["--plot", "x.gif", "--bots", "honest,liar"], ".png or .svg"),
        (["--workers", "0", "--bots", "honest,liar"], "--workers must be between 1 and"),
        (["--workers", "-2", "--bots", "honest,liar"], "--workers must be between 1 and"),
        (["--seed", "-1", "--bots", "honest,liar"], "--seed must be 0 or more"),
    ]:
        code, out, err = run(*args)
        assert code == 2, (args, err)
        assert out == ""
        assert words in err and "Traceback" not in err
        assert len(err.strip().splitlines()) == 1, err


def test_the_cli_does_not_load_the_simulator_at_start() -> None:
    code = (
        "import sys, bluffdice.cli; print(any(m.startswith('bluffdice.sim') for m in sys.modules))"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert result.stdout.strip() == "False", result.stderr
