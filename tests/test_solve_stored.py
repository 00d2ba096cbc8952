"""A saved policy records what it is worth as saved: re-evaluated from the file, with a
best response walked on the rules engine, it has the exploitability its file says, and a
run with a target writes a file that meets the target."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from bluffdice.cli import app
from bluffdice.games.registry import parse_rules
from bluffdice.solve import Policy, Solver, evaluate, problem, run
from bluffdice.solve.policy import to_strategy
from bluffdice.solve.stored import PRECISIONS, save_precision, stored_policy
from tests.test_solve_liars_dice import _engine_best_response

runner = CliRunner()


def test_a_saved_file_is_as_exploitable_as_it_says_by_an_engine_best_response(
    tmp_path: Path,
) -> None:
    out = tmp_path / "p.json.gz"
    result = runner.invoke(
        app,
        [
            "solve",
            "liars-dice",
            "--rules",
            "openspiel(faces=3)",
            "--target-exploitability",
            "2e-3",
            "--out",
            str(out),
            "--json",
        ],
    )
    assert result.exit_code == 0, result.stderr
    doc = json.loads(result.stdout)
    policy = Policy.load(out)
    rules = parse_rules("openspiel(faces=3)", game="liars-dice")
    g = problem("liars-dice", rules).public
    strategy = to_strategy(g, policy, problem("liars-dice", rules).key_text)
    br = [_engine_best_response(rules, strategy, g, p) for p in (0, 1)]
    independent = (br[0] + br[1]) / 2
    assert policy.exploitability == pytest.approx(independent, abs=1e-12)
    assert policy.exploitability <= 2e-3
    assert doc["saved"]["exploitability"] == policy.exploitability
    assert doc["reached_target"]


def test_rounding_changes_the_figures_and_the_file_records_the_rounded_ones() -> None:
    prob = problem("liars-dice", "openspiel(faces=4)")
    solver = Solver(prob.public, "cfr+")
    run(solver, iterations=300)
    exact = solver.exploitability()
    coarse = stored_policy(prob, solver, {}, PRECISIONS[0])
    fine = stored_policy(prob, solver, {}, PRECISIONS[-1])
    for policy in (coarse, fine):
        again = evaluate(prob.public, to_strategy(prob.public, policy, prob.key_text))
        assert policy.exploitability == again.exploitability
        assert policy.value == again.value
        assert policy.solver["solver_exploitability"] == exact.exploitability
    # Dropping actions under 0.1 % costs something measurable; keeping ten digits does not.
    assert coarse.exploitability != pytest.approx(exact.exploitability, abs=1e-6)
    assert fine.exploitability == pytest.approx(exact.exploitability, abs=1e-8)


def test_a_target_picks_the_coarsest_rounding_that_meets_it() -> None:
    prob = problem("liars-dice", "openspiel(faces=4)")
    solver = Solver(prob.public, "cfr+")
    run(solver, iterations=400)
    figures = [stored_policy(prob, solver, {}, p).exploitability or 0.0 for p in PRECISIONS]
    assert len(set(figures)) == len(figures)  # every rounding gives its own figure
    for target in [*figures, min(figures) / 2]:
        meets = [i for i, f in enumerate(figures) if f <= target]
        want = PRECISIONS[meets[0] if meets else -1]
        chosen = save_precision(prob, solver, {}, target)
        assert chosen.solver["digits"] == want.digits
        assert chosen.exploitability == figures[PRECISIONS.index(want)]


@pytest.mark.parametrize("name", ["mia-classic", "mia-doubles-ascending"])
def test_a_shipped_classic_file_meets_its_target_as_stored(name: str) -> None:
    # Measured again from the file's own nodes, not taken from the file: the figure it
    # records, and the target its shipping entry set.
    from bluffdice.solve.policy import shipped

    policy = shipped(name)
    p = problem(policy.game, policy.rules, pass_cap=policy.spec.get("pass_cap") or None)
    measured = evaluate(p.public, to_strategy(p.public, policy, p.key_text))
    assert measured.exploitability == pytest.approx(policy.exploitability, rel=1e-9)
    assert measured.exploitability <= policy.solver["target"]
