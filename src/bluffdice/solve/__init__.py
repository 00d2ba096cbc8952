"""Equilibrium play: CFR / CFR+ / DCFR on public game trees, exact exploitability, policies.

    >>> from bluffdice.solve import problem, Solver, run
    >>> p = problem("liars-dice", "openspiel(faces=3)")
    >>> solver = Solver(p.public, "cfr+")
    >>> history = run(solver, target=1e-3)
    >>> history[-1].exploitability <= 1e-3
    True

See docs/solve.md for the method, the games it takes and the figures it reaches.
"""

from bluffdice.solve.cfr import (
    ALGORITHMS,
    Checkpoint,
    Exploitability,
    Solver,
    evaluate,
    run,
)
from bluffdice.solve.policy import Policy, shipped, shipped_names
from bluffdice.solve.problems import Problem, problem
from bluffdice.solve.tree import PublicGame, TreeBuilder, TreeTooLarge

__all__ = [
    "ALGORITHMS",
    "Checkpoint",
    "Exploitability",
    "Policy",
    "Problem",
    "PublicGame",
    "Solver",
    "TreeBuilder",
    "TreeTooLarge",
    "evaluate",
    "problem",
    "run",
    "shipped",
    "shipped_names",
]
