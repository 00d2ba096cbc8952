"""CFR and CFR+ on a `PublicGame`, and exact best responses (NashConv, exploitability).

Everything is vectorised over hands: a reach vector per (node, hand) is pushed down level
by level, counterfactual values come back up level by level, and regret matching runs
over all of a player's actions in a handful of array operations.

Conventions, for player i holding hand h at node n:

* `reach[i][n, h]`: the probability that i's own actions (and the deal of i's hand)
  lead to n, summed over i's earlier, forgotten hands;
* `values[n, h]`: the counterfactual value: i's payoff below n weighted by the
  opponent's reach (which includes the deal of the opponent's hand), i.e. the expected
  payoff times the probability that the opponent plays and is dealt into n.

At a segment root the value is turned into an expected value per unit of incoming
opponent reach, `expect[root]`, which every jump into that root multiplies by its own
opponent reach: all histories that reach a fresh deal share one continuation.

Alternating updates throughout (player 0, then player 1 against 0's new strategy).
CFR+ floors cumulative regrets at zero and weights the average strategy by the iteration
number (linear averaging); plain CFR keeps signed regrets and a uniform average. DCFR
(Brown and Sandholm's discounted CFR with their recommended alpha 1.5, beta 0, gamma 2)
multiplies positive cumulative regrets by t^1.5 / (t^1.5 + 1) and negative ones by 1/2
after iteration t, and weights the average by t^2: on the heads-up Mia round and on
Liar's Dice it needs fewer iterations than CFR+ to a given exploitability.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Literal

import numpy as np

from bluffdice.solve.tree import FloatArray, Level, PublicGame

Algorithm = Literal["cfr", "cfr+", "dcfr"]
ALGORITHMS: tuple[str, ...] = ("cfr", "cfr+", "dcfr")


@dataclass(frozen=True)
class Exploitability:
    """Best-response values against a profile.

    `br_values[i]` is what player i wins by best-responding to the other's strategy.
    NashConv is their sum (zero exactly at an equilibrium of a zero-sum game);
    exploitability is NashConv / 2, the average gain of a best responder (OpenSpiel's
    `exploitability` reports the same number).
    """

    br_values: tuple[float, float]
    value: float  # the profile's expected payoff to player 0

    @property
    def nash_conv(self) -> float:
        return self.br_values[0] + self.br_values[1]

    @property
    def exploitability(self) -> float:
        return self.nash_conv / 2


class Passes:
    """The level-by-level forward and backward passes over one `PublicGame`."""

    def __init__(self, game: PublicGame) -> None:
        self.g = game
        n, h = game.n_nodes, game.n_hands
        self.n, self.h = n, h
        # Payoff matrices as they are multiplied: value_i[z] = reach_j[z] @ B[i][k].
        self.term_matrix = (
            np.ascontiguousarray(np.transpose(game.payoffs, (0, 2, 1))),
            np.ascontiguousarray(-game.payoffs),
        )
        self._term_reach = np.empty((len(game.terminals), h))
        self._term_values = np.empty((len(game.terminals), h))

    def forward(self, player: int, mult: FloatArray) -> FloatArray:
        """Reach of `player` at every (node, hand); `mult` holds player's action
        probabilities on the edges out of player's nodes and ones elsewhere."""
        g = self.g
        reach = np.empty((self.n, self.h))
        dist = g.dist[player]
        for lv in g.levels:
            if lv.tree_hi > lv.tree_lo:
                sl = slice(lv.tree_lo, lv.tree_hi)
                np.multiply(reach[g.parent[sl]], mult[sl], out=reach[sl])
            if len(lv.roots):
                incoming = self._incoming(reach, lv)
                reach[lv.roots] = incoming[:, None] * dist[g.root_index[lv.roots]]
        return reach

    @staticmethod
    def _incoming(reach: FloatArray, lv: Level) -> FloatArray:
        """Total reach flowing into the roots of level `lv` (1 for the game's start)."""
        mass = reach[lv.inflow].sum(axis=1)
        incoming = np.bincount(lv.inflow_pos, weights=mass, minlength=len(lv.roots)).astype(
            np.float64
        )
        if lv.start_pos >= 0:
            incoming[lv.start_pos] += 1.0
        return incoming

    def terminal_values(self, player: int, opp_reach: FloatArray) -> FloatArray:
        g = self.g
        tr = self._term_reach
        np.take(opp_reach, g.terminals, axis=0, out=tr)
        tv = self._term_values
        mats = self.term_matrix[player]
        for a, b, k in g.terminal_groups:
            np.matmul(tr[a:b], mats[k], out=tv[a:b])
        return tv

    def backward(
        self,
        player: int,
        opp_reach: FloatArray,
        mult: FloatArray,
        best_response: bool = False,
    ) -> tuple[FloatArray, FloatArray]:
        """Counterfactual values of `player` at every (node, hand), and the expected
        value per unit of opponent reach at every segment root.

        With `best_response`, player maximises at each of their (node, hand) instead of
        following `mult`.
        """
        g = self.g
        values = np.empty((self.n, self.h))
        values[g.terminals] = self.terminal_values(player, opp_reach)
        expect = np.zeros(len(g.roots))
        dist = g.dist[player]
        levels = g.levels
        for li in range(len(levels) - 1, -1, -1):
            lv = levels[li]
            if len(lv.jumps):
                mass = opp_reach[lv.jumps].sum(axis=1)
                values[lv.jumps] = (expect[g.root_index[lv.jump_targets]] * mass)[:, None]
            if len(lv.decisions):
                nxt = levels[li + 1]
                block = slice(nxt.tree_lo, nxt.tree_hi)
                if best_response:
                    child = values[block]
                    summed = np.add.reduceat(child, lv.child_offsets, axis=0)
                    best = np.maximum.reduceat(child, lv.child_offsets, axis=0)
                    mine = (g.player[lv.decisions] == player)[:, None]
                    values[lv.decisions] = np.where(mine, best, summed)
                else:
                    weighted = values[block] * mult[block]
                    values[lv.decisions] = np.add.reduceat(weighted, lv.child_offsets, axis=0)
            if len(lv.roots):
                ridx = g.root_index[lv.roots]
                incoming = self._incoming(opp_reach, lv)
                total = (values[lv.roots] * dist[ridx]).sum(axis=1)
                expect[ridx] = np.divide(
                    total, incoming, out=np.zeros_like(total), where=incoming > 0
                )
        return values, expect


def uniform_strategy(game: PublicGame, player: int) -> FloatArray:
    """Every action of `player` equally likely, for every hand."""
    counts = game.n_children[game.decisions[player]][game.edge_decision[player]]
    return np.repeat((1.0 / counts)[:, None], game.n_hands, axis=1)


def normalise(
    game: PublicGame, player: int, weights: FloatArray, uniform: FloatArray | None = None
) -> FloatArray:
    """Divide each node's action weights by their sum; uniform where the sum is 0."""
    if not len(weights):
        return weights
    sums = np.add.reduceat(weights, game.decision_offsets[player], axis=0)
    per_edge = sums[game.edge_decision[player]]
    out = uniform_strategy(game, player) if uniform is None else uniform.copy()
    return np.divide(weights, per_edge, out=out, where=per_edge > 0)


def reaches(game: PublicGame, strategy: tuple[FloatArray, FloatArray]) -> list[FloatArray]:
    """Each player's own reach (hand deal included) under `strategy`."""
    passes = Passes(game)
    out = []
    for p in (0, 1):
        m = np.ones((game.n_nodes, game.n_hands))
        m[game.edges[p]] = strategy[p]
        out.append(passes.forward(p, m))
    return out


class Solver:
    """CFR, CFR+ or DCFR with alternating updates on a `PublicGame`.

    DCFR is the default: on the games this tree holds (1-die Liar's Dice, heads-up Mia
    rounds) it reaches a given exploitability in fewer iterations, at about the same
    cost per iteration (`benchmarks/bench_cfr.py`).

    `iterate(n)` runs n more iterations; `average_strategy()` gives the average strategy
    (the one that converges to an equilibrium), `exploitability()` measures it exactly.
    """

    def __init__(self, game: PublicGame, algorithm: Algorithm = "dcfr") -> None:
        if algorithm not in ALGORITHMS:
            raise ValueError(f"algorithm must be one of {', '.join(ALGORITHMS)}, not {algorithm}")
        self.game = game
        self.algorithm = algorithm
        self.passes = Passes(game)
        h = game.n_hands
        self.iterations = 0
        self.regrets = [np.zeros((len(game.edges[p]), h)) for p in (0, 1)]
        self.avg = [np.zeros((len(game.edges[p]), h)) for p in (0, 1)]
        self._uniforms = [uniform_strategy(game, p) for p in (0, 1)]
        self.strategy = [self._uniforms[p].copy() for p in (0, 1)]
        self.mult = [self._mult(p, self.strategy[p]) for p in (0, 1)]
        self.reach = [self.passes.forward(p, self.mult[p]) for p in (0, 1)]

    # --- strategies -----------------------------------------------------------------

    def _mult(self, player: int, strategy: FloatArray) -> FloatArray:
        m = np.ones((self.game.n_nodes, self.game.n_hands))
        m[self.game.edges[player]] = strategy
        return m

    def _normalise(self, player: int, weights: FloatArray) -> FloatArray:
        return normalise(self.game, player, weights, self._uniforms[player])

    def average_strategy(self) -> tuple[FloatArray, FloatArray]:
        """Per player: the probability of each action edge, for every hand."""
        return self._normalise(0, self.avg[0]), self._normalise(1, self.avg[1])

    def current_strategy(self) -> tuple[FloatArray, FloatArray]:
        return self.strategy[0], self.strategy[1]

    # --- iterations -----------------------------------------------------------------

    def iterate(self, count: int = 1) -> None:
        g = self.game
        plus = self.algorithm == "cfr+"
        discounted = self.algorithm == "dcfr"
        for _ in range(count):
            self.iterations += 1
            t = float(self.iterations)
            weight = t if plus else t * t if discounted else 1.0
            for p in (0, 1):
                o = 1 - p
                values, _ = self.passes.backward(p, self.reach[o], self.mult[p])
                edges, parents = g.edges[p], g.edge_parent[p]
                if not len(edges):
                    continue
                parent_reach = self.reach[p][parents]
                self.avg[p] += weight * parent_reach * self.strategy[p]
                regret = self.regrets[p]
                regret += values[edges]
                regret -= values[parents]
                if plus:
                    np.maximum(regret, 0.0, out=regret)
                if discounted:
                    regret *= np.where(regret > 0, t**1.5 / (t**1.5 + 1), 0.5)
                self.strategy[p] = self._normalise(p, np.maximum(regret, 0.0))
                self.mult[p][edges] = self.strategy[p]
                self.reach[p] = self.passes.forward(p, self.mult[p])

    # --- evaluation -----------------------------------------------------------------

    def exploitability(self) -> Exploitability:
        return evaluate(self.game, self.average_strategy(), self.passes)


def evaluate(
    game: PublicGame,
    strategy: tuple[FloatArray, FloatArray],
    passes: Passes | None = None,
) -> Exploitability:
    """Exact best-response values against `strategy` (one array per player, laid out
    as `game.edges[p]`), and the profile's value to player 0."""
    passes = passes or Passes(game)
    mult = []
    for p in (0, 1):
        m = np.ones((game.n_nodes, game.n_hands))
        m[game.edges[p]] = strategy[p]
        mult.append(m)
    reach = [passes.forward(p, mult[p]) for p in (0, 1)]
    br = []
    for p in (0, 1):
        _, expect = passes.backward(p, reach[1 - p], mult[p], best_response=True)
        br.append(float(expect[game.root_index[game.start]]))
    _, expect0 = passes.backward(0, reach[1], mult[0])
    value = float(expect0[game.root_index[game.start]])
    return Exploitability(br_values=(br[0], br[1]), value=value)


@dataclass(frozen=True)
class Checkpoint:
    iterations: int
    seconds: float  # solver time only, evaluations excluded
    exploitability: float
    nash_conv: float
    value: float


def run(
    solver: Solver,
    iterations: int | None = None,
    target: float | None = None,
    max_iterations: int = 1_000_000,
    checkpoints: int = 40,
    on_checkpoint: Callable[[Checkpoint], None] | None = None,
    clock: Callable[[], float] | None = None,
) -> list[Checkpoint]:
    """Iterate until `iterations` are done or the exploitability is at most `target`.

    Exploitability is measured exactly at iteration counts spaced geometrically (about
    `checkpoints` of them up to the limit, so measuring costs a small share of the run)
    and at the end. A checkpoint's `seconds` is solver time only.
    """
    import time

    if iterations is None and target is None:
        raise ValueError("give a number of iterations or a target exploitability")
    now = clock or time.perf_counter
    limit = iterations if iterations is not None else max_iterations
    history: list[Checkpoint] = []
    spent = 0.0
    for stop in _schedule(solver.iterations, limit, checkpoints):
        t0 = now()
        solver.iterate(stop - solver.iterations)
        spent += now() - t0
        e = solver.exploitability()
        cp = Checkpoint(solver.iterations, spent, e.exploitability, e.nash_conv, e.value)
        history.append(cp)
        if on_checkpoint is not None:
            on_checkpoint(cp)
        if target is not None and e.exploitability <= target:
            break
    return history


def _schedule(done: int, limit: int, per_run: int) -> Iterator[int]:
    """Iteration counts at which to measure: roughly geometric, ending at `limit`."""
    factor = max(1.05, (max(limit, 2) / max(done, 1)) ** (1 / max(per_run, 1)))
    at = done
    while at < limit:
        nxt = max(at + 1, int(np.ceil(max(at, 1) * factor)))
        at = min(nxt, limit)
        yield at
