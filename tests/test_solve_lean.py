"""The lean Liar's Dice solver is the tree solver's CFR+ without the tree: the same
exploitability and value at every iteration, in float64 exactly, in float32 closely."""

from __future__ import annotations

import numpy as np
import pytest

from bluffdice.games.base import RuleError
from bluffdice.solve import Solver, problem
from bluffdice.solve.lean import LeanSolver, lean_game, solve_to
from bluffdice.solve.liars_dice import DudoSpec


@pytest.mark.parametrize(
    ("rules", "spec"),
    [
        ("openspiel(faces=3)", DudoSpec(1, 3)),
        ("openspiel(dice=2,faces=2)", DudoSpec(2, 2)),
        ("openspiel(faces=4,wild=off)", DudoSpec(1, 4, wild="off")),
    ],
)
def test_lean_cfr_plus_follows_the_tree_solver_iteration_by_iteration(
    rules: str, spec: DudoSpec
) -> None:
    p = problem("liars-dice", rules)
    tree, lean = Solver(p.public, "cfr+"), LeanSolver(lean_game(spec), np.float64)
    assert lean.g.n_nodes == p.public.n_nodes
    for n in (1, 2, 7, 30):
        tree.iterate(n - tree.iterations)
        lean.iterate(n - lean.iterations)
        e = tree.exploitability()
        expl, nash_conv, value = lean.exploitability()
        assert expl == pytest.approx(e.exploitability, abs=1e-12)
        assert nash_conv == pytest.approx(e.nash_conv, abs=1e-12)
        assert value == pytest.approx(e.value, abs=1e-12)


def test_float32_stays_close_and_reaches_the_target() -> None:
    spec = DudoSpec(1, 6)
    lean32, lean64 = LeanSolver(lean_game(spec)), LeanSolver(lean_game(spec), np.float64)
    lean32.iterate(100)
    lean64.iterate(100)
    assert lean32.regret_bid[0].dtype == np.float32
    assert lean32.exploitability()[0] == pytest.approx(lean64.exploitability()[0], abs=1e-5)
    history = solve_to(LeanSolver(lean_game(spec)), 2e-3, max_seconds=120)
    assert history[-1].exploitability <= 2e-3
    assert history[-1].value == pytest.approx(-7 / 258, abs=5e-3)


def test_rules_whose_bids_are_not_one_chain_are_refused() -> None:
    with pytest.raises(RuleError, match="reset-face"):
        lean_game(DudoSpec(1, 4, raise_rule="strict"))
