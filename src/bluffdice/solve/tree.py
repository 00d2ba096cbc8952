"""Public game trees (and public DAGs) laid out as flat arrays for vectorised CFR.

A *public node* is what every player sees: the history of announcements or bids. What a
player knows beyond that is their *hand*: the dice under their own cup. The solvers keep,
at every public node and for every player, one number per possible hand (a reach
probability, a counterfactual value), so one numpy operation treats all hands at once.

Three kinds of node:

* a *decision* node belongs to one player; its children are its actions, in order;
* a *terminal* node carries a payoff matrix `U[h0, h1]`: what player 0 wins when the
  players hold hands h0 and h1 (player 1 wins `-U`, the games are zero-sum);
* a *jump* node continues the game at a *segment root* elsewhere in the structure.

A segment root is where hands are dealt afresh: every player's old hand is forgotten and
the new one is drawn from the root's distribution (a point mass on hand 0 for a player
who holds nothing). Liar's Dice is one segment dealt at the root. In Mia every roll opens
a segment: the new dice are seen by the roller alone and the old dice no longer matter,
so the continuation after a roll is the same game with the same beliefs, whatever came
before. Jumps let every history that reaches such a point share one subtree, which keeps
Mia's public tree small (its histories are far too many to list one by one).

`TreeBuilder` collects nodes in any order; `build()` sorts them by level (longest path
from the first root) so that every node's parents come before it, children of one node
are contiguous and in action order, and a level's children follow the order of their
parents. The solvers then walk levels, not nodes.
"""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from numpy.typing import NDArray

DECISION = 0
TERMINAL = 1
JUMP = 2

FloatArray = NDArray[np.float64]
IntArray = NDArray[np.int64]


class TreeTooLarge(ValueError):
    """The public tree of a rule set has more nodes than the solver is allowed to build."""


@dataclass
class _Node:
    kind: int
    player: int = -1
    parent: int = -1
    label: str = ""
    info: Any = None
    payoff: int = -1
    target: int = -1
    children: list[int] = field(default_factory=list)
    dist: tuple[FloatArray, FloatArray] | None = None
    private: bool = True


class TreeBuilder:
    """Collects the nodes of a public game; node ids are handed out in creation order."""

    def __init__(self, n_hands: int, max_nodes: int = 5_000_000) -> None:
        self.n_hands = n_hands
        self.max_nodes = max_nodes
        self.nodes: list[_Node] = []
        self.payoffs: list[FloatArray] = []
        self._payoff_ids: dict[bytes, int] = {}

    def _add(self, node: _Node) -> int:
        if len(self.nodes) >= self.max_nodes:
            raise TreeTooLarge(
                f"the public tree has more than {self.max_nodes:,} nodes: choose a smaller game"
            )
        self.nodes.append(node)
        return len(self.nodes) - 1

    def root(
        self,
        player: int,
        dist0: FloatArray,
        dist1: FloatArray,
        info: Any = None,
        private: bool = True,
    ) -> int:
        """A segment root: a decision of `player` right after hands are dealt afresh."""
        dists = (self._dist(dist0), self._dist(dist1))
        return self._add(_Node(DECISION, player=player, info=info, dist=dists, private=private))

    def decision(
        self, parent: int, label: str, player: int, info: Any = None, private: bool = True
    ) -> int:
        """A decision of `player`; `private` False when the player holds no hand there
        (their strategy is the same for every hand index, only hand 0 is ever held)."""
        node = _Node(DECISION, player=player, label=label, info=info, private=private)
        return self._child(parent, node)

    def terminal(self, parent: int, label: str, payoff: FloatArray) -> int:
        """A terminal whose payoff to player 0 is the matrix `payoff[h0, h1]`."""
        matrix = np.ascontiguousarray(payoff, dtype=np.float64)
        if matrix.shape != (self.n_hands, self.n_hands):
            raise ValueError(f"payoff must be {self.n_hands}x{self.n_hands}, not {matrix.shape}")
        key = matrix.tobytes()
        pid = self._payoff_ids.get(key)
        if pid is None:
            pid = self._payoff_ids[key] = len(self.payoffs)
            self.payoffs.append(matrix)
        return self._child(parent, _Node(TERMINAL, label=label, payoff=pid))

    def jump(self, parent: int, label: str, target: int) -> int:
        """Continue at the segment root `target` (hands are dealt afresh there)."""
        if self.nodes[target].dist is None:
            raise ValueError("a jump must lead to a segment root")
        return self._child(parent, _Node(JUMP, label=label, target=target))

    def _child(self, parent: int, node: _Node) -> int:
        if self.nodes[parent].kind != DECISION:
            raise ValueError("only decision nodes have children")
        node.parent = parent
        nid = self._add(node)
        self.nodes[parent].children.append(nid)
        return nid

    def _dist(self, dist: FloatArray) -> FloatArray:
        d = np.zeros(self.n_hands)
        values = np.asarray(dist, dtype=np.float64)
        d[: len(values)] = values
        if abs(d.sum() - 1.0) > 1e-9 or (d < 0).any():
            raise ValueError("a hand distribution must be non-negative and sum to 1")
        return d

    def build(self, hand_labels: tuple[tuple[str, ...], tuple[str, ...]]) -> PublicGame:
        return PublicGame.from_builder(self, hand_labels)


@dataclass(frozen=True)
class Level:
    """Index arrays of one level, precomputed for the level-by-level passes."""

    tree_lo: int  # nodes tree_lo .. tree_hi-1 have a parent (children of the level above)
    tree_hi: int
    roots: IntArray  # segment roots on this level
    decisions: IntArray  # decision nodes on this level, in order
    child_offsets: IntArray  # start of each decision's children in the next level's block
    jumps: IntArray  # jump nodes on this level
    jump_targets: IntArray  # their target roots
    inflow: IntArray  # jump nodes (on earlier levels) that lead to this level's roots
    inflow_pos: IntArray  # for each, the position of its target in `roots`
    start_pos: int  # position of the game's first root in `roots`, or -1


class PublicGame:
    """A two-player zero-sum public game as flat arrays (see the module docstring).

    Nodes are numbered in level order. Per node: `kind`, acting `player` (decisions),
    `parent` (-1 at segment roots), `first_child`/`n_children`, `labels` (the action
    that leads to the node), `info` (a public key the game module gives each decision),
    `private` (whether the acting player's hand matters there). Per player p, the
    action edges out of p's decisions are `edges[p]` (child node ids, grouped by
    decision node `decisions[p]`); strategies and regrets are arrays laid out like it.
    """

    n_nodes: int
    n_hands: int
    title: str
    hand_labels: tuple[tuple[str, ...], tuple[str, ...]]
    kind: NDArray[np.int8]
    player: NDArray[np.int8]
    parent: IntArray
    parent_player: NDArray[np.int8]
    labels: list[str]
    info: list[Any]
    private: NDArray[np.bool_]
    first_child: IntArray
    n_children: IntArray
    roots: IntArray
    root_index: IntArray
    dist: FloatArray  # (player, root, hand)
    start: int
    jump_nodes: IntArray
    jump_target: IntArray
    terminals: IntArray
    terminal_payoff: IntArray
    payoffs: FloatArray  # (payoff id, h0, h1): what player 0 wins
    terminal_groups: list[tuple[int, int, int]]
    levels: list[Level]
    edges: list[IntArray]
    edge_parent: list[IntArray]
    edge_decision: list[IntArray]
    decisions: list[IntArray]
    decision_offsets: list[IntArray]

    def __init__(self) -> None:  # filled by from_builder
        self.n_nodes = 0
        self.n_hands = 0
        self.title = ""

    @classmethod
    def from_builder(
        cls, builder: TreeBuilder, hand_labels: tuple[tuple[str, ...], tuple[str, ...]]
    ) -> PublicGame:
        nodes = builder.nodes
        if not nodes or nodes[0].dist is None:
            raise ValueError("the first node must be a segment root")
        order, levels = _sort_by_level(nodes)
        new_id = np.empty(len(nodes), dtype=np.int64)
        new_id[order] = np.arange(len(order))

        g = cls()
        g.n_hands = builder.n_hands
        g.hand_labels = hand_labels
        g._fill_nodes(nodes, order, new_id)
        g._fill_roots(nodes, new_id)
        g._fill_jumps_and_terminals(builder, order, new_id)
        g._fill_levels(nodes, order, new_id, levels)
        g._fill_edges()
        return g

    def _fill_nodes(self, nodes: list[_Node], order: list[int], new_id: IntArray) -> None:
        """Per node, in level order: kind, player, parent, labels, info, children."""
        n = self.n_nodes = len(order)
        self.kind = np.array([nodes[i].kind for i in order], dtype=np.int8)
        self.player = np.array([nodes[i].player for i in order], dtype=np.int8)
        self.parent = np.array(
            [new_id[nodes[i].parent] if nodes[i].parent >= 0 else -1 for i in order],
            dtype=np.int64,
        )
        self.labels = [nodes[i].label for i in order]
        self.info = [nodes[i].info for i in order]
        self.private = np.array([nodes[i].private for i in order], dtype=bool)
        self.first_child = np.full(n, -1, dtype=np.int64)
        self.n_children = np.zeros(n, dtype=np.int64)
        for old in order:
            kids = nodes[old].children
            if kids:
                ids = new_id[kids]
                if not (np.diff(ids) == 1).all():
                    raise AssertionError("children must be contiguous after sorting")
                self.first_child[new_id[old]] = ids[0]
                self.n_children[new_id[old]] = len(kids)
        if ((self.kind == DECISION) & (self.n_children == 0)).any():
            raise ValueError("a decision node without actions")

        self.parent_player = np.where(
            self.parent >= 0, self.player[np.maximum(self.parent, 0)], -1
        ).astype(np.int8)
        self.parent_player[self.parent < 0] = -1

    def _fill_roots(self, nodes: list[_Node], new_id: IntArray) -> None:
        """Segment roots and their hand distributions."""
        self.roots = np.array([new_id[i] for i, nd in enumerate(nodes) if nd.dist is not None])
        self.roots.sort()
        self.root_index = np.full(self.n_nodes, -1, dtype=np.int64)
        self.root_index[self.roots] = np.arange(len(self.roots))
        self.dist = np.zeros((2, len(self.roots), self.n_hands))
        for i, nd in enumerate(nodes):
            if nd.dist is not None:
                r = self.root_index[new_id[i]]
                self.dist[0, r], self.dist[1, r] = nd.dist
        self.start = int(new_id[0])

    def _fill_jumps_and_terminals(
        self, builder: TreeBuilder, order: list[int], new_id: IntArray
    ) -> None:
        """Jumps with their targets; terminals grouped by payoff matrix."""
        nodes, h = builder.nodes, self.n_hands
        self.jump_nodes = np.flatnonzero(self.kind == JUMP)
        self.jump_target = np.array(
            [new_id[nodes[order[j]].target] for j in self.jump_nodes], dtype=np.int64
        )

        # terminals grouped by payoff matrix, so each group is one matrix product
        terms = np.flatnonzero(self.kind == TERMINAL)
        pids = np.array([nodes[order[t]].payoff for t in terms], dtype=np.int64)
        by = np.argsort(pids, kind="stable")
        self.terminals = terms[by]
        self.terminal_payoff = pids[by]
        self.payoffs = np.array(builder.payoffs).reshape(len(builder.payoffs), h, h)
        bounds = np.flatnonzero(np.diff(self.terminal_payoff)) + 1
        starts = np.concatenate(([0], bounds)) if len(terms) else np.zeros(0, np.int64)
        ends = np.concatenate((bounds, [len(terms)])) if len(terms) else np.zeros(0, np.int64)
        self.terminal_groups = [
            (int(a), int(b), int(self.terminal_payoff[a]))
            for a, b in zip(starts, ends, strict=True)
        ]

    def _fill_levels(
        self, nodes: list[_Node], order: list[int], new_id: IntArray, levels: list[tuple[int, int]]
    ) -> None:
        """The index arrays of each level, for the level-by-level passes."""
        self.levels = []
        for lo, hi in levels:
            sl = np.arange(lo, hi)
            has_parent = self.parent[sl] >= 0
            tree_hi = lo + int(has_parent.sum())
            if not has_parent[: tree_hi - lo].all():
                raise AssertionError("roots must come last in a level")
            decisions = sl[self.kind[sl] == DECISION]
            next_lo = hi
            offsets = self.first_child[decisions] - next_lo
            jumps = sl[self.kind[sl] == JUMP]
            targets = np.array([new_id[nodes[order[j]].target] for j in jumps], dtype=np.int64)
            roots = sl[~has_parent]
            into = np.isin(self.jump_target, roots)
            start_pos = int(np.flatnonzero(roots == self.start)[0]) if self.start in roots else -1
            self.levels.append(
                Level(
                    tree_lo=lo,
                    tree_hi=tree_hi,
                    roots=roots,
                    decisions=decisions,
                    child_offsets=offsets,
                    jumps=jumps,
                    jump_targets=targets,
                    inflow=self.jump_nodes[into],
                    inflow_pos=np.searchsorted(roots, self.jump_target[into]),
                    start_pos=start_pos,
                )
            )

    def _fill_edges(self) -> None:
        """Per player: the edges (actions) out of their decision nodes, compactly."""
        self.edges = []
        self.edge_parent = []
        self.edge_decision = []
        self.decisions = []
        self.decision_offsets = []
        for p in (0, 1):
            dec = np.flatnonzero((self.kind == DECISION) & (self.player == p))
            dec = dec[np.argsort(self.first_child[dec], kind="stable")]
            counts = self.n_children[dec]
            edges = (
                np.concatenate(
                    [
                        np.arange(f, f + c)
                        for f, c in zip(self.first_child[dec], counts, strict=True)
                    ]
                )
                if len(dec)
                else np.zeros(0, np.int64)
            )
            self.decisions.append(dec)
            self.decision_offsets.append(
                np.concatenate(([0], np.cumsum(counts)[:-1])).astype(np.int64)
            )
            self.edges.append(edges.astype(np.int64))
            self.edge_parent.append(self.parent[edges])
            self.edge_decision.append(np.repeat(np.arange(len(dec)), counts))

    # --- facts ----------------------------------------------------------------------

    @property
    def n_infosets(self) -> int:
        """Decision nodes times hands that can be held there (a count for reports)."""
        total = 0
        for p in (0, 1):
            total += len(self.decisions[p]) * self.n_hands
        return total

    def children(self, node: int) -> range:
        f = int(self.first_child[node])
        return range(f, f + int(self.n_children[node]))

    def describe(self) -> dict[str, int]:
        return {
            "nodes": self.n_nodes,
            "decisions": int((self.kind == DECISION).sum()),
            "terminals": int((self.kind == TERMINAL).sum()),
            "jumps": int((self.kind == JUMP).sum()),
            "segments": len(self.roots),
            "levels": len(self.levels),
            "hands": self.n_hands,
        }

    def key_index(self) -> dict[Hashable, int]:
        """Decision nodes by their `info` key (the games give each one a public key)."""
        return {
            self.info[i]: int(i)
            for i in np.flatnonzero(self.kind == DECISION)
            if self.info[i] is not None
        }


def _sort_by_level(nodes: list[_Node]) -> tuple[list[int], list[tuple[int, int]]]:
    """Order nodes by longest-path level; in a level, tree nodes by parent, roots last."""
    root_ids = [i for i, nd in enumerate(nodes) if nd.dist is not None]
    topo = _segments_in_order(nodes, root_ids)
    return _level_order(nodes, _levels(nodes, topo, root_ids))


def _segments_in_order(nodes: list[_Node], root_ids: list[int]) -> list[int]:
    """The segments (their roots) in topological order of the jump graph."""
    segment_of = [-1] * len(nodes)
    members: dict[int, list[int]] = {}
    for r in root_ids:
        stack = [r]
        members[r] = []
        while stack:
            x = stack.pop()
            segment_of[x] = r
            members[r].append(x)
            stack.extend(nodes[x].children)
    if min(segment_of) < 0:
        raise ValueError("every node must descend from a segment root")
    succ: dict[int, set[int]] = {r: set() for r in root_ids}
    indeg = dict.fromkeys(root_ids, 0)
    for r in root_ids:
        for x in members[r]:
            t = nodes[x].target
            if nodes[x].kind == JUMP and t not in succ[r]:
                succ[r].add(t)
                indeg[t] += 1
    ready = [r for r in root_ids if indeg[r] == 0]
    topo: list[int] = []
    while ready:
        r = ready.pop()
        topo.append(r)
        for t in succ[r]:
            indeg[t] -= 1
            if indeg[t] == 0:
                ready.append(t)
    if len(topo) != len(root_ids):
        raise ValueError("the jumps between segments form a cycle")
    return topo


def _levels(nodes: list[_Node], topo: list[int], root_ids: list[int]) -> list[int]:
    """Each node's level: the longest path to it, jumps included (a root sits one level
    below the deepest jump into it)."""
    level = [-1] * len(nodes)
    root_level = dict.fromkeys(root_ids, 0)
    for r in topo:
        level[r] = root_level[r]
        stack = [r]
        while stack:
            x = stack.pop()
            for c in nodes[x].children:
                level[c] = level[x] + 1
                stack.append(c)
            if nodes[x].kind == JUMP:
                t = nodes[x].target
                root_level[t] = max(root_level[t], level[x] + 1)
    return level


def _level_order(nodes: list[_Node], level: list[int]) -> tuple[list[int], list[tuple[int, int]]]:
    """The nodes level by level (each level's tree nodes in their parents' order, its
    roots last) and each level's bounds in that order."""
    depth = max(level) + 1
    by_level: list[list[int]] = [[] for _ in range(depth)]
    for i, lv in enumerate(level):
        by_level[lv].append(i)
    order: list[int] = []
    position = [0] * len(nodes)
    bounds: list[tuple[int, int]] = []
    for lv in range(depth):
        ids = by_level[lv]
        tree = [i for i in ids if nodes[i].parent >= 0]
        tree.sort(
            key=lambda i: (position[nodes[i].parent], nodes[nodes[i].parent].children.index(i))
        )
        roots = sorted(i for i in ids if nodes[i].parent < 0)
        lo = len(order)
        for i in tree + roots:
            position[i] = len(order)
            order.append(i)
        bounds.append((lo, len(order)))
    return order, bounds
