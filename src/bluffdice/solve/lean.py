"""A lean CFR+ for one round of two-player Liar's Dice, for cups too big for the tree.

Under the usual raise rule (`reset-face`: a bid is higher when its quantity is, or its
face at the same quantity) every bid may follow exactly the bids below it in one fixed
order. A public history is then an increasing sequence of bids, that is a *set* of bids,
and a set of B bids is a B-bit number: the public tree is the integers 0 .. 2^B - 1
(the node with bits S made the bids in S, the last being the highest bit, and the next
bidder is player popcount(S) mod 2), plus one "liar" terminal under every non-empty S.

No node is ever built. Every quantity is an array indexed by the node's number, one
column per hand:

* the parent of S is S without its highest bit, so the children of all nodes whose
  highest bit is below b are the block [2^b, 2^(b+1)), whose parents are [0, 2^b):
  pushing reach down is one slice multiply per bit, summing over children one slice add
  per bit (B of each per pass, contiguous memory);
* the edge into S (the bid of S's highest bit) and the liar edge under S are both
  indexed by S: regrets, strategies and average strategies are arrays of 2^B rows;
* every liar terminal under the block with highest bit b judges the same bid, so the
  terminal values of a block are one matrix product with that bid's payoff matrix.

Arrays are float32 by default (CFR+ regrets are non-negative and the values are sums of
at most B terms; float64 is a parameter, and the tests compare it with the tree solver
of `bluffdice.solve.cfr` to 1e-9). The algorithm is the same CFR+ as there: alternating
updates, regrets floored at zero, linear averaging; exploitability is exact (a best
response over the whole public tree, NashConv / 2).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
from numpy.typing import NDArray

from bluffdice.games.base import RuleError
from bluffdice.solve.liars_dice import DudoSpec

Array = NDArray[Any]


@dataclass(frozen=True)
class LeanGame:
    """The arrays that describe one round: bids, hands and who acts where."""

    spec: DudoSpec
    bids: tuple[tuple[int, int], ...]
    hands: tuple[tuple[int, ...], ...]
    deal: Array  # (hands,) chance of each hand
    holds: Array  # (bids, hands, hands): +1 where the bid is true for (h0, h1), else -1
    actor: Array  # (2^B,) int8: who bids next at node S
    n_actions: Array  # (2^B,) actions at S: the bids above its highest, and liar if any

    @property
    def n_bids(self) -> int:
        return len(self.bids)

    @property
    def n_nodes(self) -> int:
        """Public nodes, terminals included (decisions, and a liar under each but the root)."""
        return 2 * (1 << self.n_bids) - 1


def lean_game(spec: DudoSpec) -> LeanGame:
    """The round of `spec`; RuleError for raise rules whose bids are not one chain."""
    if spec.raise_rule != "reset-face" or spec.ones_bids:
        raise RuleError("the lean solver takes the reset-face raise rule without ones bids")
    bids = tuple(spec.bids())
    b = len(bids)
    if b > 26:
        raise RuleError(f"{spec.describe()} has 2^{b} public nodes: too many for any machine here")
    hands = tuple(spec.hands())
    deal = np.array([spec.hand_probability(x) for x in hands])
    holds = np.array(
        [[[1.0 if spec.holds(bid, x, y) else -1.0 for y in hands] for x in hands] for bid in bids]
    )
    masks = np.arange(1 << b, dtype=np.int64)
    popcount = np.zeros(1 << b, dtype=np.int8)
    for bit in range(b):
        popcount += ((masks >> bit) & 1).astype(np.int8)
    actor = (popcount % 2).astype(np.int8)
    top = np.full(1 << b, -1, dtype=np.int64)
    for bit in range(b):
        top[1 << bit : 2 << bit] = bit
    n_actions = (b - 1 - top) + (masks > 0)
    return LeanGame(spec, bids, hands, deal, holds, actor, n_actions.astype(np.int64))


def _down(values: Array, n_bids: int) -> Array:
    """Each node's parent's row (row 0, the root's own, is left as it is)."""
    out = values.copy()
    for bit in range(n_bids):
        out[1 << bit : 2 << bit] = values[: 1 << bit]
    return out


def _sum_children(values: Array, n_bids: int) -> Array:
    """For each node, the sum of `values` over its bid children."""
    out = np.zeros_like(values)
    for bit in range(n_bids):
        out[: 1 << bit] += values[1 << bit : 2 << bit]
    return out


class LeanSolver:
    """CFR+ with alternating updates on a `LeanGame`, in `dtype` (float32 by default)."""

    def __init__(self, game: LeanGame, dtype: Any = np.float32) -> None:
        self.g = game
        self.dtype = np.dtype(dtype)
        n, h = 1 << game.n_bids, len(game.hands)
        self.iterations = 0
        # Row S of the *_bid arrays: the bid into S (owned by the player acting at S's
        # parent); row S of the *_liar arrays: the liar call under S (owned by the
        # player acting at S). Row 0 of the bid arrays and of the liar arrays is unused.
        self.regret_bid = np.zeros((n, h), self.dtype)
        self.regret_liar = np.zeros((n, h), self.dtype)
        self.avg_bid = np.zeros((n, h), self.dtype)
        self.avg_liar = np.zeros((n, h), self.dtype)
        self.sigma_bid, self.sigma_liar = self._match(self.regret_bid, self.regret_liar)
        self._owner_bid = _down(game.actor[:, None], game.n_bids)[:, 0]  # actor at parent
        self._owner_bid[0] = -1
        self._liar_mask = (np.arange(n) > 0)[:, None]
        self.reach = [self._reach(p, self.sigma_bid) for p in (0, 1)]

    @property
    def nbytes(self) -> int:
        arrays = (self.regret_bid, self.regret_liar, self.avg_bid, self.avg_liar)
        arrays += (self.sigma_bid, self.sigma_liar, *self.reach)
        return sum(a.nbytes for a in arrays)

    # --- strategies ------------------------------------------------------------------

    def _match(self, bid: Array, liar: Array) -> tuple[Array, Array]:
        """Regret matching (or normalising an average): per node, over its actions."""
        g = self.g
        positive_bid = np.maximum(bid, 0)
        positive_liar = np.maximum(liar, 0)
        positive_liar[0] = 0
        total = _sum_children(positive_bid, g.n_bids) + positive_liar
        uniform = (1.0 / g.n_actions).astype(self.dtype)[:, None]
        safe = np.where(total > 0, total, 1).astype(self.dtype)
        liar_p = np.where(total > 0, positive_liar / safe, uniform)
        liar_p[0] = 0
        parent_total = _down(total, g.n_bids)
        parent_safe = _down(safe, g.n_bids)
        parent_uniform = _down(uniform, g.n_bids)
        bid_p = np.where(parent_total > 0, positive_bid / parent_safe, parent_uniform)
        bid_p[0] = 0
        return bid_p.astype(self.dtype), liar_p.astype(self.dtype)

    def average_strategy(self) -> tuple[Array, Array]:
        return self._match(self.avg_bid, self.avg_liar)

    def _reach(self, player: int, sigma_bid: Array) -> Array:
        """Player's own reach at every node, the deal of their hand included."""
        g = self.g
        reach = np.empty_like(sigma_bid)
        reach[0] = g.deal
        mine = (self._owner_bid == player)[:, None]
        mult = np.where(mine, sigma_bid, 1).astype(self.dtype)
        for bit in range(g.n_bids):
            np.multiply(
                reach[: 1 << bit], mult[1 << bit : 2 << bit], out=reach[1 << bit : 2 << bit]
            )
        return reach

    # --- values ----------------------------------------------------------------------

    def _terminal(self, player: int, opp_reach: Array, opp_liar: Array | None) -> Array:
        """Counterfactual value of `player` at the liar terminal under every node."""
        g = self.g
        out = np.zeros_like(opp_reach)
        weight = opp_reach if opp_liar is None else opp_reach * opp_liar
        for bit in range(g.n_bids):
            block = slice(1 << bit, 2 << bit)
            holds = g.holds[bit].astype(self.dtype)
            # Payoff to player 0: +holds when player 0 made the bid (player 1 calls).
            sign = np.where(g.actor[block] == 1, 1, -1).astype(self.dtype)[:, None]
            raw = weight[block] @ holds.T if player == 0 else -(weight[block] @ holds)
            out[block] = sign * raw
        return out

    def _values(
        self, player: int, sigma: tuple[Array, Array], opp_reach: Array, best: bool = False
    ) -> tuple[Array, Array]:
        """Counterfactual values of `player` at every node and at every liar terminal;
        with `best`, player maximises at their own nodes."""
        g = self.g
        mine_at = (g.actor == player)[:, None]
        opp_liar = np.where(mine_at, 1, sigma[1]).astype(self.dtype)
        term = self._terminal(player, opp_reach, opp_liar)
        term[0] = 0
        value = np.empty_like(term)
        if best:
            value[:] = np.where(mine_at & self._liar_mask, term, -np.inf)
            value[~mine_at[:, 0]] = term[~mine_at[:, 0]]
        else:
            value[:] = np.where(mine_at, sigma[1] * term, term)
        weight = np.where((self._owner_bid == player)[:, None], sigma[0], 1).astype(self.dtype)
        for bit in range(g.n_bids - 1, -1, -1):
            block = slice(1 << bit, 2 << bit)
            below = slice(0, 1 << bit)
            if best:
                mine = mine_at[below]
                child = value[block]
                value[below] = np.where(mine, np.maximum(value[below], child), value[below] + child)
            else:
                value[below] += weight[block] * value[block]
        return value, term

    # --- iterations ------------------------------------------------------------------

    def _buffers(self) -> None:
        """Work arrays and per-player masks, made once: an iteration allocates nothing."""
        g = self.g
        n, h = self.regret_bid.shape
        self._buf = [np.empty((n, h), self.dtype) for _ in range(4)]
        self._flag = np.empty((n, h), bool)
        self._uniform = (1.0 / g.n_actions).astype(self.dtype)[:, None]
        self._holds = [g.holds[b].astype(self.dtype) for b in range(g.n_bids)]
        self._holds_t = [np.ascontiguousarray(x.T) for x in self._holds]
        self._bidder0 = [
            np.where(g.actor[1 << b : 2 << b] == 1, 1, -1).astype(self.dtype)[:, None]
            for b in range(g.n_bids)
        ]
        self._masks = []
        for p in (0, 1):
            node = (g.actor == p).astype(self.dtype)[:, None]
            liar = node * self._liar_mask
            bid = (self._owner_bid == p).astype(self.dtype)[:, None]
            self._masks.append((node, 1 - node, liar, bid, 1 - bid))

    def iterate(self, count: int = 1) -> None:
        if not hasattr(self, "_buf"):
            self._buffers()
        nb = self.g.n_bids
        value, term, x, y = self._buf
        for _ in range(count):
            self.iterations += 1
            t = self.dtype.type(self.iterations)
            for p in (0, 1):
                node, not_node, liar_m, bid_m, not_bid = self._masks[p]
                own = self.reach[p]
                # Opponent's reach into each liar terminal: their liar call where it is theirs.
                np.multiply(self.sigma_liar, not_node, out=x)
                x += node
                x *= self.reach[1 - p]
                for b in range(nb):
                    block = slice(1 << b, 2 << b)
                    holds = self._holds_t[b] if p == 0 else self._holds[b]
                    np.matmul(x[block], holds, out=term[block])
                    term[block] *= self._bidder0[b] if p == 0 else -self._bidder0[b]
                term[0] = 0
                # Values: the liar term (times own liar chance at own nodes), then children.
                np.multiply(self.sigma_liar, node, out=value)
                value += not_node
                value *= term
                np.multiply(self.sigma_bid, bid_m, out=y)
                y += not_bid
                for b in range(nb - 1, -1, -1):
                    block = slice(1 << b, 2 << b)
                    np.multiply(y[block], value[block], out=x[block])
                    value[: 1 << b] += x[block]
                # Average strategy, weighted by the iteration (linear averaging).
                self._parent_rows(own, x)
                x *= self.sigma_bid
                x *= bid_m
                x *= t
                self.avg_bid += x
                np.multiply(own, self.sigma_liar, out=x)
                x *= liar_m
                x *= t
                self.avg_liar += x
                # Regrets, floored at zero (CFR+).
                self._parent_rows(value, x)
                np.subtract(value, x, out=x)
                x *= bid_m
                self.regret_bid += x
                np.maximum(self.regret_bid, 0, out=self.regret_bid)
                np.subtract(term, value, out=x)
                x *= liar_m
                self.regret_liar += x
                np.maximum(self.regret_liar, 0, out=self.regret_liar)
                self._match_into(x, y)
                self._reach_into(p, own, bid_m, not_bid, x)

    def _parent_rows(self, values: Array, out: Array) -> None:
        out[0] = values[0]
        for b in range(self.g.n_bids):
            out[1 << b : 2 << b] = values[: 1 << b]

    def _match_into(self, total: Array, scale: Array) -> None:
        """Regret matching of the (non-negative) regrets into sigma_bid and sigma_liar."""
        nb = self.g.n_bids
        np.copyto(total, self.regret_liar)
        for b in range(nb):
            total[: 1 << b] += self.regret_bid[1 << b : 2 << b]
        # Totals in the subnormal range count as none: 1 / total would overflow float32.
        tiny = np.finfo(self.dtype).tiny
        scale.fill(0)
        np.divide(1, total, out=scale, where=total > tiny)
        np.less_equal(total, tiny, out=self._flag)
        np.multiply(self._flag, self._uniform, out=total)  # uniform where no regret
        np.multiply(self.regret_liar, scale, out=self.sigma_liar)
        self.sigma_liar += total
        self.sigma_liar[0] = 0
        for b in range(nb):
            block = slice(1 << b, 2 << b)
            np.multiply(self.regret_bid[block], scale[: 1 << b], out=self.sigma_bid[block])
            self.sigma_bid[block] += total[: 1 << b]
        self.sigma_bid[0] = 0

    def _reach_into(
        self, player: int, reach: Array, bid_m: Array, not_bid: Array, mult: Array
    ) -> None:
        np.multiply(self.sigma_bid, bid_m, out=mult)
        mult += not_bid
        reach[0] = self.g.deal
        for b in range(self.g.n_bids):
            np.multiply(reach[: 1 << b], mult[1 << b : 2 << b], out=reach[1 << b : 2 << b])

    def exploitability(self) -> tuple[float, float, float]:
        """(exploitability, NashConv, value for player 0) of the average strategy."""
        g = self.g
        sigma = self.average_strategy()
        reach = [self._reach(p, sigma[0]) for p in (0, 1)]
        br = []
        for p in (0, 1):
            value, _ = self._values(p, sigma, reach[1 - p], best=True)
            br.append(float(np.dot(g.deal, value[0].astype(np.float64))))
        value0, _ = self._values(0, sigma, reach[1])
        v = float(np.dot(g.deal, value0[0].astype(np.float64)))
        nash_conv = br[0] + br[1]
        return nash_conv / 2, nash_conv, v


@dataclass(frozen=True)
class LeanCheckpoint:
    iterations: int
    seconds: float  # solver time, measuring excluded
    cpu_seconds: float
    exploitability: float
    value: float


def solve_to(
    solver: LeanSolver,
    target: float,
    max_seconds: float,
    growth: float = 1.25,
    on_checkpoint: Any = None,
) -> list[LeanCheckpoint]:
    """Iterate until the exploitability is at most `target` or `max_seconds` of solver
    time are spent, measuring exactly at iteration counts growing by `growth`."""
    import time

    history: list[LeanCheckpoint] = []
    spent = cpu = 0.0
    stop = max(solver.iterations + 1, 8)
    while True:
        t0, c0 = time.perf_counter(), time.process_time()
        solver.iterate(stop - solver.iterations)
        spent += time.perf_counter() - t0
        cpu += time.process_time() - c0
        expl, _, value = solver.exploitability()
        cp = LeanCheckpoint(solver.iterations, spent, cpu, expl, value)
        history.append(cp)
        if on_checkpoint is not None:
            on_checkpoint(cp)
        if expl <= target or spent >= max_seconds:
            return history
        stop = max(stop + 1, int(stop * growth))
