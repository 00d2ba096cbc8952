"""`bluffdice solve` and `bluffdice explain-policy`: results, files, plots, refusals."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from bluffdice.cli import app
from bluffdice.solve import Policy, evaluate, problem
from bluffdice.solve.lean_policy import LeanPolicy
from bluffdice.solve.liars_dice import DudoSpec
from bluffdice.solve.policy import to_strategy

runner = CliRunner()


def invoke(*args: str) -> tuple[int, str, str]:
    result = runner.invoke(app, list(args))
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise result.exception
    return result.exit_code, result.stdout, result.stderr


def test_solve_json_reports_value_exploitability_and_checkpoints(tmp_path: Path) -> None:
    out, plot = tmp_path / "p.json.gz", tmp_path / "c.png"
    code, stdout, stderr = invoke(
        "solve",
        "liars-dice",
        "--rules",
        "openspiel(faces=4)",
        "--target-exploitability",
        "1e-3",
        "--json",
        "--out",
        str(out),
        "--plot",
        str(plot),
    )
    assert code == 0, stderr
    doc = json.loads(stdout)
    assert doc["exploitability"] <= 1e-3 and doc["reached_target"]
    assert doc["nash_conv"] == pytest.approx(2 * doc["exploitability"])
    its = [c["iterations"] for c in doc["checkpoints"]]
    assert its == sorted(its) and its[-1] == doc["iterations"]
    assert plot.read_bytes()[:4] == b"\x89PNG"
    # The saved policy records what it is worth as saved (rounded), and meets the target.
    policy = Policy.load(out)
    p = problem("liars-dice", "openspiel(faces=4)")
    again = evaluate(p.public, to_strategy(p.public, policy, p.key_text))
    assert again.exploitability == policy.exploitability == doc["saved"]["exploitability"]
    assert again.value == policy.value == doc["saved"]["value"]
    assert policy.exploitability <= 1e-3
    assert policy.solver["solver_exploitability"] == doc["exploitability"]


def test_dcfr_is_an_algorithm_the_command_takes() -> None:
    code, stdout, _ = invoke(
        "solve",
        "liars-dice",
        "--rules",
        "openspiel(faces=3)",
        "--algorithm",
        "dcfr",
        "--target-exploitability",
        "1e-3",
        "--json",
    )
    assert code == 0
    doc = json.loads(stdout)
    assert doc["algorithm"] == "dcfr" and doc["exploitability"] <= 1e-3


def test_solve_prints_a_table_with_the_value() -> None:
    code, stdout, _ = invoke("solve", "mia", "--iterations", "30", "--algorithm", "cfr")
    assert code == 0
    assert "value for player 0" in stdout and "exploitability" in stdout
    assert "30 in" in stdout


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["solve", "mia", "--iterations", "5", "--target-exploitability", "0.1"], "not both"),
        (["solve", "common-hand"], "handles mia and liars-dice"),
        (["solve", "liars-dice", "--rules", "dudo"], "single_round=on"),
        (["solve", "mia", "--rules", "meyer"], "joker32"),
        (["solve", "mia", "--algorithm", "pcfr"], "--algorithm"),
        (["solve", "mia", "--plot", "x.gif"], ".png or .svg"),
        (["solve", "liars-dice", "--rules", "openspiel(dice=5)"], "nodes"),
        (["solve", "nosuchgame"], "unknown game"),
        (["solve", "liars-dice", "--solver", "fast"], "--solver must be one of"),
        (["solve", "mia", "--solver", "lean"], "solves liars-dice, not mia"),
        (
            ["solve", "liars-dice", "--solver", "lean", "--rules", "dudo-single-round(dice=1)"],
            "Dudo",
        ),
        (["solve", "liars-dice", "--solver", "lean", "--algorithm", "cfr"], "runs cfr+"),
        (["solve", "liars-dice", "--solver", "lean", "--out", "p.json.gz"], "give --out NAME.npz"),
        (["explain-policy", "--rules", "meyer"], "joker32"),
        (["explain-policy", "--policy", "/no/such/file.json.gz"], "cannot read"),
    ],
)
def test_bad_input_is_a_clear_error(args: list[str], message: str) -> None:
    code, stdout, stderr = invoke(*args)
    assert code == 2
    assert message in stderr.replace("\n", " ")
    assert "Traceback" not in stderr + stdout


def test_the_lean_solver_solves_what_the_tree_does_and_saves_a_lean_policy(
    tmp_path: Path,
) -> None:
    out, plot = tmp_path / "p.npz", tmp_path / "c.png"
    args = ["solve", "liars-dice", "--rules", "openspiel(faces=4)", "--json"]
    code, stdout, stderr = invoke(*args, "--solver", "lean", "--out", str(out), "--plot", str(plot))
    assert code == 0, stderr
    lean = json.loads(stdout)
    code, stdout, stderr = invoke(*args)
    assert code == 0, stderr
    tree = json.loads(stdout)
    assert (lean["solver"], tree["solver"]) == ("lean", "tree")  # auto: a small round
    assert lean["exploitability"] <= 1e-3 and lean["reached_target"]
    # Both are within their exploitability of the game's one value.
    assert lean["value"] == pytest.approx(tree["value"], abs=2e-3)
    assert lean["tree"] == {"bids": 8, "nodes": 511, "hands": 4}
    policy = LeanPolicy.load(out, DudoSpec(dice=1, faces=4, wild="highest"))
    assert policy.exploitability == lean["saved"]["exploitability"] <= 1e-3
    assert plot.read_bytes()[:4] == b"\x89PNG"


def test_auto_takes_the_lean_solver_for_a_big_round() -> None:
    rules = "liars-dice(cups=2:1,single_round=on,start=first-seat)"  # 15 bids
    code, stdout, stderr = invoke(
        "solve", "liars-dice", "--rules", rules, "--iterations", "10", "--json"
    )
    assert code == 0, stderr
    doc = json.loads(stdout)
    assert doc["solver"] == "lean" and doc["iterations"] == 10
    assert doc["title"].startswith("Liar's Dice 2 players x 2 against 1 dice")
    assert [c["iterations"] for c in doc["checkpoints"]] == [8, 10]


def test_explain_policy_says_when_to_believe_and_draws(tmp_path: Path) -> None:
    plot = tmp_path / "e.svg"
    code, stdout, stderr = invoke("explain-policy", "--plot", str(plot))
    assert code == 0, stderr
    assert "Opening the round" in stdout and "challenge" in stdout
    assert plot.read_text().lstrip().startswith("<?xml")


def test_explain_policy_json_has_a_challenge_chance_for_each_opening_claim() -> None:
    code, stdout, _ = invoke("explain-policy", "--json")
    assert code == 0
    doc = json.loads(stdout)
    opening = doc["challenge"]["0"]
    assert len(opening) == 20  # every claim but Mia, which is shown at once
    assert all(0 <= p <= 1 for p in opening.values())
    # Nobody challenges the lowest claims, and higher claims draw more challenges.
    assert opening["31"] == 0 and opening["66"] > opening["53"]
    assert doc["sentences"]


def test_solve_match_prints_the_win_table_and_its_exploitability(tmp_path: Path) -> None:
    rules = "mia(lives=2,pass=off,mia_end=instant)"
    code, stdout, stderr = invoke(
        "solve", "mia", "--match", "--rules", rules, "--target-exploitability", "5e-3", "--json"
    )
    assert code == 0, stderr
    doc = json.loads(stdout)
    table = doc["win_probability"]
    assert len(table) == 2 and all(len(row) == 2 for row in table)
    assert table[1][0] > table[0][0] > table[0][1]  # more lives, better chances
    assert doc["exploitability"] == max(s["match_exploitability"] for s in doc["states"])
    assert all(s["round_exploitability"] <= 5e-3 for s in doc["states"])
    code, stdout, _ = invoke("solve", "mia", "--match", "--rules", rules, "--iterations", "5")
    assert code != 0


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["solve", "liars-dice", "--match"], "--match is for mia"),
        (["solve", "mia", "--match", "--rules", "drinking"], "lives mode only"),
        (["solve", "mia", "--match", "--pass-cap", "1"], "does not go with --match"),
    ],
)
def test_solve_match_refuses_what_it_cannot_solve(args: list[str], message: str) -> None:
    code, _, stderr = invoke(*args)
    assert code != 0 and message in stderr
