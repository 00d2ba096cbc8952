"""The lean Liar's Dice solver is the tree solver's CFR+ without the tree: the same
exploitability and value at every iteration, in float64 exactly, in float32 closely."""

from __future__ import annotations

from pathlib import Path

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
        ("openspiel(cups=2:1,faces=3)", DudoSpec(2, 3, cups=(2, 1))),
        ("openspiel(cups=1:2,faces=3,wild=ones)", DudoSpec(2, 3, wild="ones", cups=(1, 2))),
        (
            "openspiel(faces=4,wild=ones,ones_bids=plain)",
            DudoSpec(1, 4, wild="ones", ones_bids="plain"),
        ),
        (
            "openspiel(cups=2:1,faces=3,wild=ones,ones_bids=plain)",
            DudoSpec(2, 3, wild="ones", ones_bids="plain", cups=(2, 1)),
        ),
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
    with pytest.raises(RuleError, match="Dudo conversion"):
        lean_game(DudoSpec(1, 4, wild="ones", ones_bids="on"))


def test_the_two_arrays_hold_every_node_once_under_its_parent() -> None:
    # Walk the slices from the root: every set of bids appears exactly once, in the
    # array of the player who acts there, right under the set without its highest bid.
    g = lean_game(DudoSpec(1, 3))
    where = {(0, 0): 0}  # (array, row) -> set of bids as a bit mask
    for mv in g.moves():
        parents = range(mv.parents[1].start, mv.parents[1].stop)
        children = range(mv.children[1].start, mv.children[1].stop)
        for r, c in zip(parents, children, strict=True):
            mask = where[(mv.actor, r)] | (1 << mv.bit)
            assert where[(mv.actor, r)] < (1 << mv.bit)
            assert bin(mask).count("1") % 2 == 1 - mv.actor
            where[(1 - mv.actor, c)] = mask
    assert sorted(where.values()) == list(range(1 << g.n_bids))


@pytest.mark.parametrize("variant", ["cfr+quadratic", "dcfr", "dcfr+"])
def test_discounted_variants_reach_the_target_sooner_than_cfr_plus(variant: str) -> None:
    spec = DudoSpec(1, 6)
    plus = solve_to(LeanSolver(lean_game(spec), np.float64), 1e-3, max_seconds=120, growth=1.1)
    other = solve_to(
        LeanSolver(lean_game(spec), np.float64, variant), 1e-3, max_seconds=120, growth=1.1
    )
    assert other[-1].exploitability <= 1e-3
    assert other[-1].iterations < plus[-1].iterations
    # The equilibrium value of 1-die Liar's Dice for the opener is -7/258.
    assert other[-1].value == pytest.approx(-7 / 258, abs=2e-3)


def test_a_saved_run_goes_on_where_it_stopped(tmp_path: Path) -> None:
    spec = DudoSpec(1, 4)
    whole = LeanSolver(lean_game(spec), variant="dcfr")
    whole.iterate(12)
    first = LeanSolver(lean_game(spec), variant="dcfr")
    first.iterate(5)
    first.save(tmp_path)
    second = LeanSolver(lean_game(spec), variant="dcfr")
    second.load(tmp_path)
    second.iterate(7)
    assert second.iterations == 12
    assert second.exploitability() == whole.exploitability()
    with pytest.raises(ValueError, match="cfr\\+"):
        LeanSolver(lean_game(spec), variant="cfr+").load(tmp_path)


def test_a_time_limit_ends_with_a_measurement_inside_it() -> None:
    solver = LeanSolver(lean_game(DudoSpec(2, 3)))
    seen: list[int] = []
    history = solve_to(
        solver, 0.0, max_seconds=60, wall_seconds=1.0, on_iteration=lambda n, w, c: seen.append(n)
    )
    last = history[-1]
    assert last.exploitability > 0
    # It stops at the limit, not at the 60 solver seconds (some slack for a loaded machine).
    assert last.seconds + last.measure_seconds <= 2.0
    assert seen == list(range(1, solver.iterations + 1))
