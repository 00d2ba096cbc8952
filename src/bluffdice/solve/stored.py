"""A solved strategy as it is saved, and what it is worth as saved.

A policy file drops the rarely played actions and rounds the rest, so the strategy a
bot reads back is not exactly the one the solver computed. The figures a file records
(exploitability, NashConv, value) are therefore measured on the strategy read back from
the file's own nodes, never copied from the solver. When a run must meet a target,
`save_precision` tries ever finer rounding until the stored strategy meets it, and
`to_target` solves on when no rounding does.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from bluffdice.solve.cfr import Checkpoint, Exploitability, Solver, evaluate, run
from bluffdice.solve.policy import Policy, extract, to_strategy
from bluffdice.solve.problems import Problem


@dataclass(frozen=True)
class Precision:
    """How a strategy is written: actions under `threshold` dropped, `digits` kept."""

    threshold: float
    digits: int


PRECISIONS: tuple[Precision, ...] = (
    Precision(1e-3, 4),
    Precision(1e-4, 5),
    Precision(1e-6, 7),
    Precision(0.0, 10),
)
"""From the smallest file to the most faithful one."""


def measure(prob: Problem, policy: Policy) -> Exploitability:
    """Exact exploitability of `policy` as its nodes say, laid out on `prob`'s tree."""
    return evaluate(prob.public, to_strategy(prob.public, policy, prob.key_text))


def stored_policy(
    prob: Problem,
    solver: Solver,
    solver_info: dict[str, Any],
    precision: Precision = PRECISIONS[0],
) -> Policy:
    """The solver's average strategy written at `precision`, with the figures of the
    strategy as written. `solver_info` goes into the file's "solver" entry, with the
    precision and the solver's own (unrounded) figures added."""
    exact = solver.exploitability()
    nodes = extract(
        prob.public,
        solver.average_strategy(),
        prob.key_text,
        threshold=precision.threshold,
        digits=precision.digits,
    )
    policy = Policy(
        game=prob.game,
        rules=prob.rules_text,
        spec=prob.spec_json(),
        title=prob.title,
        nodes=nodes,
        solver={
            **solver_info,
            "threshold": precision.threshold,
            "digits": precision.digits,
            "solver_exploitability": exact.exploitability,
            "solver_value": exact.value,
        },
    )
    figures = measure(prob, policy)
    policy.exploitability = figures.exploitability
    policy.nash_conv = figures.nash_conv
    policy.value = figures.value
    return policy


def save_precision(
    prob: Problem,
    solver: Solver,
    solver_info: dict[str, Any],
    target: float | None,
) -> Policy:
    """The coarsest written form whose own exploitability meets `target` (the coarsest
    form when there is no target, the finest when none meets it)."""
    policy = stored_policy(prob, solver, solver_info, PRECISIONS[0])
    if target is None:
        return policy
    for precision in PRECISIONS[1:]:
        if policy.exploitability is not None and policy.exploitability <= target:
            break
        policy = stored_policy(prob, solver, solver_info, precision)
    return policy


def to_target(
    prob: Problem,
    solver: Solver,
    history: list[Checkpoint],
    solver_info: Callable[[list[Checkpoint]], dict[str, Any]],
    target: float | None,
    max_iterations: int,
    on_checkpoint: Callable[[Checkpoint], None] | None = None,
) -> tuple[Policy, list[Checkpoint]]:
    """A policy to save that meets `target` as stored: while even the finest rounding
    misses it, solve on to a tighter target (a tenth of the way further each time)."""
    policy = save_precision(prob, solver, solver_info(history), target)
    aim = target
    while (
        target is not None
        and aim is not None
        and policy.exploitability is not None
        and policy.exploitability > target
        and solver.iterations < max_iterations
    ):
        aim *= 0.9
        history = history + run(
            solver,
            target=aim,
            max_iterations=max_iterations,
            on_checkpoint=on_checkpoint,
        )
        policy = save_precision(prob, solver, solver_info(history), target)
    return policy, history
