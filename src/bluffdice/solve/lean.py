"""A lean CFR for one round of two-player Liar's Dice, for cups too big for the tree.

Under the usual raise rule (`reset-face`: a bid is higher when its quantity is, or its
face at the same quantity) every bid may follow exactly the bids below it in one fixed
order. A public history is then an increasing sequence of bids, that is a *set* of bids,
and a set of B bids is a B-bit number: the public tree is the sets of bids, plus one
"liar" terminal under every non-empty set. Player popcount(S) mod 2 bids next at S.

No node is ever built. The nodes are split by who acts there into two arrays of 2^(B-1)
rows, one column per hand, laid out so that the tree is a handful of slices:

* row 0 of the even array is the root and row 0 of the odd array the opening bid 0; the
  children through bid b >= 1 of the first 2^(b-1) rows of either array are rows
  [2^(b-1), 2^b) of the *other* array, in the same order. Pushing reach down is one slice
  multiply per bid and array, summing values up one slice add;
* the bid into a node and the liar call under it are stored at the node's row: player p
  owns the liar calls in array p and the bids into array 1 - p, so a player's update
  reads and writes whole arrays, never a masked half of one;
* every liar terminal in the rows of one bid judges the same bid, so the terminal values
  of those rows are one matrix product with that bid's payoff matrix.

Arrays are float32 by default (float64 is a parameter: the tests compare it with the
tree solver of `bluffdice.solve.cfr` to 1e-12). The variants are CFR+ (alternating
updates, regrets floored at zero, linear averaging, as there) and its discounted
relatives (`Variant`); exploitability is exact (a best response over the whole public
tree, NashConv / 2).
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
from numpy.typing import NDArray

from bluffdice.games.base import RuleError
from bluffdice.solve.liars_dice import DudoSpec

Array = NDArray[Any]
Pair = tuple[Array, Array]  # one array per actor: (even rows, odd rows)
Rows = tuple[slice, slice]  # rows [a, b) of an array: every hand's column of them


def rows(start: int, stop: int | None) -> Rows:
    return (slice(None), slice(start, stop))


MAX_BIDS = 26


@dataclass(frozen=True)
class Variant:
    """How regrets and the average are weighted (Brown and Sandholm's discounted CFR).

    After iteration t, positive cumulative regrets are multiplied by t^alpha / (t^alpha + 1)
    (`alpha` None: not discounted), negative ones by t^beta / (t^beta + 1) (`beta` None:
    floored at zero, as in CFR+); iteration t's strategy enters the average with weight
    t^gamma. CFR+ is (None, None, 1); DCFR as its authors recommend is (1.5, 0, 2).
    """

    name: str
    alpha: float | None
    beta: float | None
    gamma: float


VARIANTS: dict[str, Variant] = {
    v.name: v
    for v in (
        Variant("cfr+", None, None, 1.0),
        Variant("cfr+quadratic", None, None, 2.0),
        Variant("dcfr", 1.5, 0.0, 2.0),
        Variant("dcfr+", 1.5, None, 2.0),
    )
}


@dataclass(frozen=True)
class Move:
    """The children through bid `bit` of rows `parents` of array `actor`: rows
    `children` of the other array."""

    bit: int
    actor: int
    parents: Rows
    children: Rows


@dataclass(frozen=True)
class Cup:
    """One player's hands. With unequal cups the smaller cup's columns are padded up to
    the larger one's: the padding has chance 0 and no counting dice, so it weighs
    nothing in the opponent's values and is never played."""

    dice: int
    hands: tuple[tuple[int, ...], ...]  # the real hands, padding left out
    deal: Array  # (width,) chance of each hand
    counts: Array  # (bids, width) int: the hand's dice that count for the bid


@dataclass(frozen=True)
class LeanGame:
    """The arrays that describe one round: bids, each player's cup, and the tree as
    slices. `hands`, `deal` and `counts` are player 0's (the first bidder's)."""

    spec: DudoSpec
    bids: tuple[tuple[int, int], ...]
    cups: tuple[Cup, Cup]

    @property
    def width(self) -> int:
        """Columns of every array: the hands of the larger cup."""
        return max(len(cup.hands) for cup in self.cups)

    @property
    def hands(self) -> tuple[tuple[int, ...], ...]:
        return self.cups[0].hands

    @property
    def deal(self) -> Array:
        return self.cups[0].deal

    @property
    def counts(self) -> Array:
        return self.cups[0].counts

    @property
    def n_bids(self) -> int:
        return len(self.bids)

    @property
    def n_nodes(self) -> int:
        """Public nodes, terminals included (decisions, and a liar under each but the root)."""
        return 2 * (1 << self.n_bids) - 1

    @property
    def rows(self) -> int:
        """Rows of each of the two arrays (the nodes where one player acts)."""
        return 1 << (self.n_bids - 1)

    def moves(self) -> list[Move]:
        """The slices of the tree, from the root down (bid 0 first)."""
        out = [Move(0, 0, rows(0, 1), rows(0, 1))]
        for bit in range(1, self.n_bids):
            m = 1 << (bit - 1)
            out += [Move(bit, a, rows(0, m), rows(m, 2 * m)) for a in (0, 1)]
        return out

    def blocks(self, actor: int) -> list[tuple[int, Rows]]:
        """(bid, rows) of array `actor` whose last bid is that bid (the root left out)."""
        first = [(0, rows(0, 1))] if actor == 1 else []
        return first + [(b, rows(1 << (b - 1), 1 << b)) for b in range(1, self.n_bids)]

    def n_actions(self) -> Array:
        """(rows,) actions at a row's node, the same in both arrays: the bids above its
        last one, and the liar call (the root: every bid, no call)."""
        top = np.zeros(self.rows, dtype=np.int64)
        for b in range(1, self.n_bids):
            top[1 << (b - 1) : 1 << b] = b
        return self.n_bids - top


def lean_game(spec: DudoSpec) -> LeanGame:
    """The round of `spec`; RuleError for raise rules whose bids are not one chain."""
    if spec.raise_rule != "reset-face" or spec.ones_bids == "on":
        raise RuleError(
            "the lean solver takes the reset-face raise rule without the Dudo conversion "
            "of ones bids (ones_bids=plain is fine)"
        )
    bids = tuple(spec.bids())
    b = len(bids)
    if b > MAX_BIDS:
        raise RuleError(f"{spec.describe()} has 2^{b} public nodes: too many for any machine here")
    wild = spec.wild_face
    hand_lists = (tuple(spec.hands(0)), tuple(spec.hands(1)))
    width = max(len(hands) for hands in hand_lists)
    cups = []
    for player, hands in enumerate(hand_lists):
        deal = np.zeros(width)
        deal[: len(hands)] = [spec.hand_probability(x) for x in hands]
        counts = np.zeros((b, width), dtype=np.int64)
        counts[:, : len(hands)] = [
            [sum(1 for d in x if d in (f, wild)) for x in hands] for _, f in bids
        ]
        cups.append(Cup(spec.dice_of[player], hands, deal, counts))
    return LeanGame(spec, bids, (cups[0], cups[1]))


class LeanSolver:
    """CFR+ (or another `Variant`) with alternating updates on a `LeanGame`, in `dtype`
    (float32 by default).

    Every per-node quantity is a pair of arrays indexed by actor (0: even rows, 1: odd
    rows). `regret_liar[a]` and `avg_liar[a]` belong to the actor's liar call at the row,
    `regret_bid[a]` and `avg_bid[a]` to the bid into the row's node, made by the other
    player. Those four pairs are the whole state: strategies and reaches are recomputed
    from them where an update needs them, into three pairs of work arrays, so 2 dice of 6
    faces fit in 10 GB (keeping them took 19).
    """

    def __init__(
        self, game: LeanGame, dtype: Any = np.float32, variant: Variant | str = "cfr+"
    ) -> None:
        self.g = game
        self.dtype = np.dtype(dtype)
        self.variant = VARIANTS[variant] if isinstance(variant, str) else variant
        self.iterations = 0
        self._moves = game.moves()
        self._uniform = (1.0 / game.n_actions()).astype(self.dtype)[None, :]
        self.regret_liar, self.regret_bid = self._pair(), self._pair()
        self.avg_liar, self.avg_bid = self._pair(), self._pair()
        # Regret totals within rounding noise of zero count as none. Terminal values are
        # sums of the opponent's weight in another order than a matrix product's, so an
        # exact tie (every action worth the same) can leave a regret of 1e-17 instead of 0;
        # regret matching would jump on it to a pure strategy. Values are at most the
        # likeliest hand's chance, so 16 roundings of that is noise. (Subnormal totals
        # would also overflow 1 / total in float32.)
        likeliest = max(float(cup.deal.max()) for cup in game.cups)
        self._noise = self.dtype.type(16 * np.finfo(self.dtype).eps * likeliest)
        self._dice = tuple(cup.dice for cup in game.cups)
        # By player, bid and count: the hands with that many dice counting for the bid.
        self._groups = [
            [
                [np.flatnonzero(cup.counts[b] == k) for k in range(cup.dice + 1)]
                for b in range(game.n_bids)
            ]
            for cup in game.cups
        ]
        self._sums = np.zeros((max(self._dice) + 2, game.rows), self.dtype)
        # Work arrays: one player's strategy (by array: their liar calls in their own,
        # their bids in the other), one player's reach, and values.
        self._strategy, self._reach, self._term = self._pair(), self._pair(), self._pair()
        self._flag = np.zeros(self._term[0].shape, bool)

    def _pair(self) -> Pair:
        shape = (self.g.width, self.g.rows)
        return np.zeros(shape, self.dtype), np.zeros(shape, self.dtype)

    @property
    def nbytes(self) -> int:
        """Bytes of every array the solver holds (state and work arrays)."""
        pairs = [self.regret_liar, self.regret_bid, self.avg_liar, self.avg_bid]
        pairs += [self._strategy, self._reach, self._term]
        return sum(a.nbytes + b.nbytes for a, b in pairs) + self._flag.nbytes

    # --- strategies ------------------------------------------------------------------

    def _match(self, p: int, liar: Pair, bid: Pair, out: Pair, scratch: Pair) -> None:
        """Player p's strategy into `out` (their liar calls in out[p], their bids in
        out[1 - p]), proportional to the positive parts of `liar[p]` and `bid[1-p]`
        (regret matching, or normalising an average), uniform where they are all zero.
        `scratch` is overwritten."""
        o = 1 - p
        if self.variant.beta is not None:  # signed regrets: their positive parts
            np.maximum(liar[p], 0, out=out[p])
            np.maximum(bid[o], 0, out=out[o])
            liar, bid = out, out
        total, scale = scratch
        np.copyto(total, liar[p])
        for mv in self._moves:
            if mv.actor == p:
                total[mv.parents] += bid[o][mv.children]
        tiny = self._noise
        scale.fill(0)
        np.divide(1, total, out=scale, where=total > tiny)
        np.less_equal(total, tiny, out=self._flag)
        np.multiply(self._flag, self._uniform, out=total)  # uniform where no weight
        np.multiply(liar[p], scale, out=out[p])
        np.add(out[p], total, out=out[p])
        if p == 0:
            out[0][:, 0] = 0  # the root has no liar call
        for mv in self._moves:
            if mv.actor == p:
                c, r = mv.children, mv.parents
                np.multiply(bid[o][c], scale[r], out=out[o][c])
                out[o][c] += total[r]

    def average_strategy(self) -> tuple[Pair, Pair]:
        """(liar, bid) pairs of the average strategy, in new arrays."""
        liar, bid = self._pair(), self._pair()
        for p in (0, 1):
            self._match(p, self.avg_liar, self.avg_bid, self._strategy, self._term)
            np.copyto(liar[p], self._strategy[p])
            np.copyto(bid[1 - p], self._strategy[1 - p])
        return liar, bid

    def own_reach(self, p: int, strategy: Pair) -> Pair:
        """Player p's own reach at every node under `strategy` (laid out as
        `average_strategy` gives it), the deal of their hand included, in new arrays:
        what a saved policy keeps only where it is above zero."""
        reach = self._pair()
        self._forward(p, strategy, reach)
        return reach

    def _forward(self, p: int, strategy: Pair, reach: Pair) -> None:
        """Player p's own reach at every node, the deal of their hand included."""
        reach[0][:, 0] = self.g.cups[p].deal
        for mv in self._moves:
            src, dst = reach[mv.actor][mv.parents], reach[1 - mv.actor][mv.children]
            if mv.actor == p:
                np.multiply(src, strategy[1 - mv.actor][mv.children], out=dst)
            else:
                dst[...] = src

    # --- values ----------------------------------------------------------------------

    def _terminals(self, p: int, liar: Pair, bid: Pair) -> Pair:
        """Counterfactual value of p at the liar terminal under every row, against the
        opponent's strategy from (`liar`, `bid`), into _term. Spends _strategy and
        _reach.

        With weight w on the opponent's hands, p holding a hand with c counting dice
        wins (bidder) or loses (caller) 2 * (weight of opponent hands with at least
        q - c counting dice) - (all the weight): a sum per count instead of a product
        with a hands x hands matrix."""
        o, out, weight = 1 - p, self._term, self._reach
        self._match(o, liar, bid, self._strategy, out)
        self._forward(o, self._strategy, weight)
        np.multiply(weight[o], self._strategy[o], out=weight[o])  # the opponent's liar calls
        dice, sums = self._dice[o], self._sums
        mine, theirs = self._groups[p], self._groups[o]
        for a in (0, 1):
            # The bidder is 1 - a; p's payoff is +1 when the bid holds and p made it.
            sign = 1.0 if p != a else -1.0
            for b, (_, cols) in self.g.blocks(a):
                w, q = weight[a][:, cols], self.g.bids[b][0]
                size = cols.stop - cols.start
                # sums[j] = weight of opponent hands with at least j counting dice.
                at_least = sums[:, :size]
                at_least[dice + 1] = 0
                for k in range(dice, -1, -1):
                    np.add.reduce(w[theirs[b][k]], axis=0, out=at_least[k])
                    at_least[k] += at_least[k + 1]
                total = at_least[0]
                for c, hands in enumerate(mine[b]):
                    if not len(hands):
                        continue
                    need = min(max(q - c, 0), dice + 1)
                    row = out[a][hands[0], cols]
                    np.multiply(at_least[need], 2 * sign, out=row)
                    row -= sign * total
                    out[a][hands[1:], cols] = row
        out[0][:, 0] = 0
        return out

    def _values(self, p: int, term: Pair, strategy: Pair) -> Pair:
        """Counterfactual values of p at every node under p's `strategy`, from the
        terminal values `term`. The values at p's nodes are written over strategy[p],
        at the opponent's over term[1 - p]; strategy[1 - p] is spent."""
        o = 1 - p
        value = (strategy[0], term[1]) if p == 0 else (term[0], strategy[1])
        np.multiply(value[p], term[p], out=value[p])
        x = strategy[o]
        for mv in reversed(self._moves):
            c, r, child = mv.children, mv.parents, 1 - mv.actor
            if mv.actor == p:
                x[c] *= value[child][c]
                value[p][r] += x[c]
            else:
                value[o][r] += value[child][c]
        return value

    def _best_values(self, p: int, value: Pair) -> Array:
        """p's best-response counterfactual values at the root, per hand, from the
        terminal values (`value`, spent)."""
        o = 1 - p
        if p == 0:
            value[0][:, 0] = -np.inf  # the root has no liar call to fall back on
        for mv in reversed(self._moves):
            c, r, child = mv.children, mv.parents, 1 - mv.actor
            if mv.actor == p:
                np.maximum(value[p][r], value[child][c], out=value[p][r])
            else:
                value[o][r] += value[child][c]
        root: Array = value[0][:, 0].astype(np.float64)
        return root

    # --- iterations ------------------------------------------------------------------

    def iterate(self, count: int = 1) -> None:
        floor = self.variant.beta is None
        liar, bid = self.regret_liar, self.regret_bid
        for _ in range(count):
            self._discount()
            self.iterations += 1
            t = self.dtype.type(float(self.iterations) ** self.variant.gamma)
            for p in (0, 1):
                o = 1 - p
                term = self._terminals(p, liar, bid)
                own, strategy = self._reach, self._strategy
                self._match(p, liar, bid, strategy, own)
                self._forward(p, strategy, own)
                mine = rows(1 if p == 0 else 0, None)  # p's liar rows
                into = rows(1 if o == 0 else 0, None)  # rows p bids into
                # Average strategy, weighted by t^gamma: p's reach along each own edge.
                np.multiply(own[p], strategy[p], out=own[p])
                np.multiply(own[p], t, out=own[p])
                self.avg_liar[p][mine] += own[p][mine]
                np.multiply(own[o], t, out=own[o])
                self.avg_bid[o][into] += own[o][into]
                value = self._values(p, term, strategy)
                # Regrets: the liar call against the node, each bid against its parent.
                np.subtract(term[p], value[p], out=term[p])
                liar[p][mine] += term[p][mine]
                x = own[o]
                for mv in self._moves:
                    if mv.actor == p:
                        np.subtract(value[o][mv.children], value[p][mv.parents], out=x[mv.children])
                bid[o][into] += x[into]
                if floor:
                    np.maximum(liar[p], 0, out=liar[p])
                    np.maximum(bid[o], 0, out=bid[o])

    def _discount(self) -> None:
        """DCFR's discount of the regrets cumulated up to the last iteration. Both
        players' regrets are discounted at once: regret matching ignores a common
        factor on a player's positive regrets, so no strategy changes by it."""
        v, t = self.variant, float(self.iterations)
        if t < 1 or (v.alpha is None and v.beta is None):
            return
        for regret in (*self.regret_liar, *self.regret_bid):
            if v.alpha is not None:
                a = self.dtype.type(t**v.alpha / (t**v.alpha + 1))
                if v.beta is None:
                    regret *= a
                else:
                    np.multiply(regret, a, out=regret, where=regret > 0)
            if v.beta is not None:
                b = self.dtype.type(t**v.beta / (t**v.beta + 1))
                np.multiply(regret, b, out=regret, where=regret < 0)

    # --- keeping a long run -------------------------------------------------------

    def _state(self) -> dict[str, Array]:
        return {
            f"{name}{a}": pair[a]
            for name, pair in (
                ("regret_liar", self.regret_liar),
                ("regret_bid", self.regret_bid),
                ("avg_liar", self.avg_liar),
                ("avg_bid", self.avg_bid),
            )
            for a in (0, 1)
        }

    def _identity(self) -> dict[str, str | int]:
        return {
            "game": self.g.spec.describe(),
            "variant": self.variant.name,
            "dtype": self.dtype.name,
            "rows": self.g.rows,
            "hands": self.g.width,
        }

    def save(self, directory: Path) -> None:
        """Write the state (regrets, averages, iteration count) under `directory`, so
        that a run cut short by its time limit can go on later (`load`)."""
        directory.mkdir(parents=True, exist_ok=True)
        for name, array in self._state().items():
            np.save(directory / f"{name}.npy", array)
        meta = {**self._identity(), "iterations": self.iterations}
        (directory / "state.json").write_text(json.dumps(meta, indent=1) + "\n")

    def load(self, directory: Path) -> None:
        """Take over the state `save` wrote for the same game, variant and dtype (a
        ValueError otherwise), read from memory-mapped files into the solver's arrays."""
        meta = json.loads((directory / "state.json").read_text())
        mine = self._identity()
        if {k: meta.get(k) for k in mine} != mine:
            raise ValueError(f"{directory} holds {meta}, not {mine}")
        for name, array in self._state().items():
            np.copyto(array, np.load(directory / f"{name}.npy", mmap_mode="r"))
        self.iterations = int(meta["iterations"])

    def exploitability(self) -> tuple[float, float, float]:
        """(exploitability, NashConv, value for player 0) of the average strategy.

        Measured in the work arrays, so it costs no memory; the opponent's terminal
        values are recomputed for each of the three passes (two best responses and
        the average against itself)."""
        liar, bid, deal = self.avg_liar, self.avg_bid, self.g.deal
        br = [0.0, 0.0]
        for p in (0, 1):
            best = self._best_values(p, self._terminals(p, liar, bid))
            br[p] = float(np.dot(self.g.cups[p].deal, best))
        term = self._terminals(0, liar, bid)
        self._match(0, liar, bid, self._strategy, self._reach)
        value0 = self._values(0, term, self._strategy)[0][:, 0]
        v = float(np.dot(deal, value0.astype(np.float64)))
        nash_conv = br[0] + br[1]
        return nash_conv / 2, nash_conv, v


@dataclass(frozen=True)
class LeanCheckpoint:
    iterations: int
    seconds: float  # solver time, measuring excluded
    cpu_seconds: float
    exploitability: float
    value: float
    measure_seconds: float = 0.0  # wall seconds spent measuring, up to this checkpoint


def solve_to(
    solver: LeanSolver,
    target: float,
    max_seconds: float,
    growth: float = 1.25,
    on_checkpoint: Callable[[LeanCheckpoint], None] | None = None,
    *,
    first: int = 8,
    wall_seconds: float | None = None,
    on_iteration: Callable[[int, float, float], None] | None = None,
    max_iterations: int | None = None,
) -> list[LeanCheckpoint]:
    """Iterate until the exploitability is at most `target`, `max_seconds` of solver
    time are spent or `max_iterations` are done (the last one measured), measuring
    exactly at iteration counts from `first` growing by `growth`.

    With `wall_seconds`, also stop early enough that a last measurement ends by then
    (it is expected to take as long as the one before, or four iterations), so a run
    with a time limit always ends with the exploitability it reached.
    `on_iteration(iterations, wall, cpu)` hears of every iteration's seconds."""
    history: list[LeanCheckpoint] = []
    begin = time.perf_counter()
    spent = cpu = measuring = 0.0
    limit = max_iterations if max_iterations is not None else float("inf")
    stop = min(max(solver.iterations + 1, first), limit)
    last_measure: float | None = None
    while True:
        out_of_time = False
        while solver.iterations < stop and not out_of_time:
            t0, c0 = time.perf_counter(), time.process_time()
            solver.iterate()
            wall, used = time.perf_counter() - t0, time.process_time() - c0
            spent += wall
            cpu += used
            if on_iteration is not None:
                on_iteration(solver.iterations, wall, used)
            if wall_seconds is not None:
                ahead = last_measure if last_measure is not None else 4 * wall
                out_of_time = time.perf_counter() - begin + wall + ahead >= wall_seconds
        t1 = time.perf_counter()
        expl, _, value = solver.exploitability()
        last_measure = time.perf_counter() - t1
        measuring += last_measure
        cp = LeanCheckpoint(solver.iterations, spent, cpu, expl, value, measuring)
        history.append(cp)
        if on_checkpoint is not None:
            on_checkpoint(cp)
        if expl <= target or spent >= max_seconds or out_of_time or stop >= limit:
            return history
        stop = min(max(stop + 1, int(stop * growth)), limit)
