"""The solver core on a game small enough to check by hand: Kuhn poker.

Built with `TreeBuilder` (three cards, one each, the correlated deal folded into the
payoff matrices), it must reach the known value -1/18, and its exact best responses must
equal the best of all 64 pure strategies, each played out over every deal."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from bluffdice.solve import Solver, TreeBuilder, evaluate
from bluffdice.solve.cfr import normalise, uniform_strategy

CARDS = 3


def kuhn():
    b = TreeBuilder(CARDS)
    deal = np.full(CARDS, 1 / CARDS)
    # P(h0, h1) = 1/6 off the diagonal, 0 on it; the builder deals independently (1/9),
    # so payoffs are scaled by 1.5 and zero where both would hold the same card.
    scale = np.where(np.eye(CARDS) > 0, 0.0, 1.5)
    show = np.sign(np.subtract.outer(np.arange(CARDS), np.arange(CARDS))) * scale

    def flat(x: float) -> np.ndarray:
        return x * scale

    root = b.root(0, deal, deal, info="")
    check = b.decision(root, "check", 1, info="c")
    bet = b.decision(root, "bet", 1, info="b")
    b.terminal(check, "check", show)
    check_bet = b.decision(check, "bet", 0, info="cb")
    b.terminal(check_bet, "fold", flat(-1))
    b.terminal(check_bet, "call", 2 * show)
    b.terminal(bet, "fold", flat(1))
    b.terminal(bet, "call", 2 * show)
    return b.build((("J", "Q", "K"), ("J", "Q", "K")))


def test_cfr_plus_finds_the_value_of_kuhn_poker() -> None:
    g = kuhn()
    solver = Solver(g, "cfr+")
    solver.iterate(2000)
    e = solver.exploitability()
    assert e.exploitability < 2e-3
    assert e.value == pytest.approx(-1 / 18, abs=2e-3)


def _play(g, strategies, deal):  # type: ignore[no-untyped-def]
    """Expected payoff to player 0 for one deal, walking the tree node by node."""
    row = [{int(e): k for k, e in enumerate(g.edges[p])} for p in (0, 1)]

    def walk(node: int) -> float:
        kind = g.kind[node]
        if kind == 1:  # terminal
            k = g.terminal_payoff[list(g.terminals).index(node)]
            return float(g.payoffs[k][deal[0], deal[1]]) / 1.5
        p = int(g.player[node])
        return sum(strategies[p][row[p][c], deal[p]] * walk(c) for c in g.children(node))

    return walk(g.start)


def _pure(g, player: int, choice: tuple[int, ...]) -> np.ndarray:
    """A pure strategy: at decision d of `player`, for card c, child number choice[...]."""
    s = np.zeros((len(g.edges[player]), g.n_hands))
    for d in range(len(g.decisions[player])):
        lo = g.decision_offsets[player][d]
        for card in range(CARDS):
            s[lo + choice[d * CARDS + card], card] = 1.0
    return s


def test_exact_best_responses_equal_the_best_of_all_pure_strategies() -> None:
    g = kuhn()
    solver = Solver(g, "cfr")
    solver.iterate(3)  # a poor strategy: best responses gain a lot
    strategy = solver.average_strategy()
    fast = evaluate(g, strategy)
    deals = [(a, b) for a in range(CARDS) for b in range(CARDS) if a != b]
    for player in (0, 1):
        slots = len(g.decisions[player]) * CARDS
        best = -np.inf
        for choice in itertools.product((0, 1), repeat=slots):
            mine = _pure(g, player, choice)
            both = (mine, strategy[1]) if player == 0 else (strategy[0], mine)
            value = np.mean([_play(g, both, d) for d in deals])
            best = max(best, value if player == 0 else -value)
        assert fast.br_values[player] == pytest.approx(best, abs=1e-12)
    assert fast.exploitability > 0.05


def test_normalise_turns_weights_into_distributions_and_zero_into_uniform() -> None:
    g = kuhn()
    weights = np.zeros((len(g.edges[0]), g.n_hands))
    weights[0, 0] = 3.0
    weights[1, 0] = 1.0
    probs = normalise(g, 0, weights)
    assert probs[0, 0] == 0.75 and probs[1, 0] == 0.25
    assert np.allclose(probs[:, 1], uniform_strategy(g, 0)[:, 1])


def test_dcfr_reaches_a_target_in_fewer_iterations_than_cfr_plus() -> None:
    from bluffdice.solve import problem, run

    p = problem("liars-dice", "openspiel(faces=4)")
    iterations = {}
    for algorithm in ("cfr+", "dcfr"):
        solver = Solver(p.public, algorithm)  # type: ignore[arg-type]
        history = run(solver, target=1e-3, checkpoints=80)
        assert history[-1].exploitability <= 1e-3
        iterations[algorithm] = history[-1].iterations
    assert iterations["dcfr"] < iterations["cfr+"]
