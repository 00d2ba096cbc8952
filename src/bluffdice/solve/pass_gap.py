"""The pass cap's gap: where the shipped classic policy loses to one more pass.

The shipped `mia-classic` policy was solved with at most two passes between two rolls,
a third pass of the same value counting as a draw. The real game has no draw there: the
pass goes on, and the `cfr` bot folds the longer chain back into its policy
(`bluffdice.solve.mia.fold`). A player who knows that can take more than the
equilibrium's value, and the gain is measurable exactly in a round with three passes.

This module builds that round (`EXPLOIT_CAP` passes, draw after them), lays the folded
policy out on it for both players, and computes a best response for one role that may
deviate only at nodes where a pass has already been made (`passes >= 1` in the chain),
and never makes the third or a later pass itself. With those two limits every history
the deviating player and the folded policy can produce lies inside the tree (at most
three passes: the deviator never passes at two or more, so a third pass is the folded
policy's, and the deviator answers it with a challenge or a roll), so the gain it finds
is the gain over the real game, not over a model of it.

The result is a table per role (public node key, hand -> action) of the places where the
deviation plays otherwise than the folded policy. For the round's opener (role 0) it is
the best response once a pass has been made (nearly all of the gain: taking the policy's
third pass, which it believes ends the round in a draw). For the other player (role 1)
it is the policy without its passes when answering the opener's announcement, then a
best response from two passes on (a challenge or a roll where the third pass would be
due): the gain equals the unrestricted best response from the announcement on, without
betting on the policy's mix of challenges and rolls. `shark` plays both heads-up (see
docs/strength.md); `python -m bluffdice.solve.pass_gap` computes them again and writes
the package data.
"""

from __future__ import annotations

import argparse
import gzip
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import Any

import msgspec
import numpy as np

from bluffdice.solve import mia
from bluffdice.solve.cfr import Passes
from bluffdice.solve.policy import ANY_HAND, DATA_PACKAGE, Policy, shipped, to_strategy
from bluffdice.solve.tree import DECISION, FloatArray, PublicGame

RULES = "classic(lives=1)"
POLICY = "mia-classic"
EXPLOIT_CAP = 3
"""Passes between two rolls in the round where the gap is measured."""
ROLE = 0
"""The policy's player whose deviations are computed by default: 0, the round's opener."""
SHIPPED: tuple[tuple[int, int, int | None], ...] = ((0, 1, None), (1, 2, 0))
"""(role, passes made before the best response starts, passes made where the role drops
the policy's passes) of the shipped gaps: the opener best-responds once a pass was made;
the other player never passes the opener's announcement back (and never makes a third
pass)."""
DATA_FILE = "mia-classic-pass-gap.json.gz"
EPSILON = 1e-9
"""A deviation must gain more than this (times the opponent's reach at the node)."""


class PassGap(msgspec.Struct, frozen=True):
    """Where and how the deviating role leaves the folded policy, and what it gains.

    A Struct so that msgspec writes the package data and checks its types on loading. The
    shipped file also carries the derived `gain` (its first writer put it there), which
    loading skips: `gain` is always `value - base`."""

    rules: str
    policy: str
    pass_cap: int
    role: int
    from_passes: int  # the deviations start where this many passes have been made
    no_pass_at: int | None  # the role never passes where this many passes have been made
    overrides: dict[str, dict[str, str]]  # node key -> hand label (or "*") -> action
    value: float  # the role's value per round, playing the overrides against the policy
    base: float  # the role's value when both play the folded policy, in the same tree
    nodes: int

    @property
    def gain(self) -> float:
        return self.value - self.base

    def action(self, key: str, hand: str | None) -> str | None:
        row = self.overrides.get(key)
        if row is None:
            return None
        return row.get(ANY_HAND if hand is None else hand)


def folded_strategy(
    game: PublicGame, policy: Policy, ranking: Any
) -> tuple[FloatArray, FloatArray]:
    """The policy as the `cfr` bot plays it on `game`: chains beyond its cap folded,
    nodes it lacks answered by the plain fallback rule."""
    cap = int(policy.spec.get("pass_cap") or 0)

    def fold(info: Any, hand: str | None, actions: list[str]) -> dict[str, float]:
        dist = policy.distribution(mia.key_text(mia.fold(info, cap)), hand)
        if dist:
            return dist
        held = None if hand is None else int(hand)
        return mia.fallback(ranking, info, held, actions)

    return to_strategy(game, policy, mia.key_text, fold)


def _multipliers(game: PublicGame, strategy: tuple[FloatArray, FloatArray]) -> list[FloatArray]:
    out = []
    for p in (0, 1):
        m = np.ones((game.n_nodes, game.n_hands))
        m[game.edges[p]] = strategy[p]
        out.append(m)
    return out


def pass_counts(game: PublicGame) -> np.ndarray:
    """Passes made so far at every node (-1 where no announcement is standing)."""
    out = np.full(game.n_nodes, -1, dtype=np.int64)
    for n, info in enumerate(game.info):
        if info is not None and len(info[2]) > 0:
            out[n] = len(info[2]) - 1
    return out


def restricted_best_response(
    game: PublicGame,
    passes: Passes,
    player: int,
    opp_reach: FloatArray,
    mult: FloatArray,
    deviate: np.ndarray,
    banned: np.ndarray,
) -> tuple[FloatArray, float]:
    """Counterfactual values when `player` maximises at its nodes in `deviate` (never
    taking an action whose node is in `banned`) and follows `mult` elsewhere; and the
    player's value at the start of the game."""
    g = game
    values = np.empty((g.n_nodes, g.n_hands))
    values[g.terminals] = passes.terminal_values(player, opp_reach)
    expect = np.zeros(len(g.roots))
    dist = g.dist[player]
    forbidden = banned & (g.parent_player == player)
    for li in range(len(g.levels) - 1, -1, -1):
        lv = g.levels[li]
        if len(lv.jumps):
            mass = opp_reach[lv.jumps].sum(axis=1)
            values[lv.jumps] = (expect[g.root_index[lv.jump_targets]] * mass)[:, None]
        if len(lv.decisions):
            nxt = g.levels[li + 1]
            block = slice(nxt.tree_lo, nxt.tree_hi)
            child = values[block]
            followed = np.add.reduceat(child * mult[block], lv.child_offsets, axis=0)
            allowed = np.where(forbidden[block][:, None], -np.inf, child)
            best = np.maximum.reduceat(allowed, lv.child_offsets, axis=0)
            mine = ((g.player[lv.decisions] == player) & deviate[lv.decisions])[:, None]
            values[lv.decisions] = np.where(mine, best, followed)
        if len(lv.roots):
            ridx = g.root_index[lv.roots]
            incoming = passes._incoming(opp_reach, lv)
            total = (values[lv.roots] * dist[ridx]).sum(axis=1)
            expect[ridx] = np.divide(total, incoming, out=np.zeros_like(total), where=incoming > 0)
    return values, float(expect[g.root_index[g.start]])


def value_of(game: PublicGame, passes: Passes, strategy: tuple[FloatArray, FloatArray]) -> float:
    """Player 0's expected payoff when both follow `strategy`."""
    mult = _multipliers(game, strategy)
    reach1 = passes.forward(1, mult[1])
    _, expect = passes.backward(0, reach1, mult[0])
    return float(expect[game.root_index[game.start]])


def compute(
    rules_text: str = RULES,
    policy_name: str = POLICY,
    cap: int = EXPLOIT_CAP,
    role: int = ROLE,
    policy: Policy | None = None,
    from_passes: int = 1,
    no_pass_at: int | None = None,
    start_floor: int = 0,
) -> PassGap:
    """The overrides for `role` against the folded `policy` in the round with `cap` passes:
    a best response from nodes with `from_passes` passes made on; before that, the policy,
    less its passes at nodes with `no_pass_at` passes made (the rest renormalised).
    `start_floor` starts the round over a value of that rank (a smaller game, for tests)."""
    from bluffdice.games.registry import parse_rules

    rules = parse_rules(rules_text, game="mia")
    game = mia.build(mia.spec_from_rules(rules, pass_cap=cap), start_floor=start_floor)
    policy = policy or shipped(policy_name)
    folded = folded_strategy(game, policy, rules.ranking)
    passes = Passes(game)
    mult = _multipliers(game, folded)
    sign = 1.0 if role == 0 else -1.0
    base = sign * value_of(game, passes, folded)

    made = pass_counts(game)
    deviate = (game.kind == DECISION) & (made >= from_passes)
    parent_made = np.where(game.parent >= 0, made[np.maximum(game.parent, 0)], -1)
    is_pass = np.array([label.startswith("pass") for label in game.labels])
    banned = is_pass & (parent_made >= 2)
    if no_pass_at is not None:
        without = is_pass & (parent_made == no_pass_at)
        folded = _without_passes(game, folded, role, without)
        mult = _multipliers(game, folded)
    opp_reach = passes.forward(1 - role, mult[1 - role])
    values, _ = restricted_best_response(game, passes, role, opp_reach, mult[role], deviate, banned)
    played, chosen = _deviate(game, role, folded, mult[role], values, opp_reach, deviate, banned)
    value = sign * value_of(game, passes, played)
    own = passes.forward(role, _multipliers(game, played)[role])
    overrides = _reachable(game, role, chosen, own, opp_reach)
    return PassGap(
        rules=rules_text,
        policy=policy_name,
        pass_cap=cap,
        role=role,
        from_passes=from_passes,
        no_pass_at=no_pass_at,
        overrides=overrides,
        value=value,
        base=base,
        nodes=game.n_nodes,
    )


def _without_passes(
    game: PublicGame, folded: tuple[FloatArray, FloatArray], role: int, without: Any
) -> tuple[FloatArray, FloatArray]:
    """The role's strategy less the passes on the edges `without`, the rest renormalised
    (a decision with nothing left keeps its policy)."""
    edges = game.edges[role]
    kept = np.where(without[edges][:, None], 0.0, folded[role])
    sums = np.add.reduceat(kept, game.decision_offsets[role], axis=0)[game.edge_decision[role]]
    renormed = np.divide(kept, sums, out=folded[role].copy(), where=sums > 0)
    return (renormed, folded[1]) if role == 0 else (folded[0], renormed)


def _deviate(
    game: PublicGame,
    role: int,
    folded: tuple[FloatArray, FloatArray],
    mult: FloatArray,
    values: FloatArray,
    opp_reach: FloatArray,
    deviate: Any,
    banned: Any,
) -> tuple[tuple[FloatArray, FloatArray], dict[int, dict[int, int]]]:
    """The deviation: at each of the role's deviating nodes, the best allowed action per
    hand where it beats following the policy by more than EPSILON, or where the policy
    would make a pass the deviator must not make. Returns the strategies played and the
    choices (node -> hand column, or -1 for every hand, -> child)."""
    strategy = [folded[0].copy(), folded[1].copy()]
    mine = strategy[role]
    offsets = game.decision_offsets[role]
    chosen: dict[int, dict[int, int]] = {}
    for d, node in enumerate(game.decisions[role]):
        if not deviate[node]:
            continue
        lo, n = int(offsets[d]), int(game.n_children[node])
        kids = game.first_child[node] + np.arange(n)
        child = values[kids]
        allowed = np.where(banned[kids][:, None], -np.inf, child)
        best = allowed.argmax(axis=0)
        gain = allowed.max(axis=0) - (child * mult[kids]).sum(axis=0)
        scale = EPSILON * max(float(opp_reach[node].sum()), 1e-300)
        must = (mult[kids][banned[kids]] > 0).any(axis=0)  # the policy passes on
        hands = np.flatnonzero((gain > scale) | must)
        if game.private[node]:
            for h in hands:
                mine[lo : lo + n, h] = 0.0
                mine[lo + int(best[h]), h] = 1.0
                chosen.setdefault(int(node), {})[int(h)] = int(best[h])
        elif len(hands):  # one choice for every hand: the hand-0 column decides
            mine[lo : lo + n, :] = 0.0
            mine[lo + int(best[0]), :] = 1.0
            chosen.setdefault(int(node), {})[-1] = int(best[0])
    return (strategy[0], strategy[1]), chosen


def _reachable(
    game: PublicGame,
    role: int,
    chosen: dict[int, dict[int, int]],
    own: FloatArray,
    opp_reach: FloatArray,
) -> dict[str, dict[str, str]]:
    """The deviations the deviator can reach against the policy (`own`, its reach
    playing them), as overrides: decision key -> hand -> action."""
    overrides: dict[str, dict[str, str]] = {}
    labels = game.hand_labels[role]
    for at, picks in chosen.items():
        if opp_reach[at].sum() <= 0:
            continue
        key = mia.key_text(game.info[at])
        for column, a in picks.items():
            if column >= 0 and own[at, column] <= 0:
                continue
            hand = ANY_HAND if column < 0 else labels[column]
            overrides.setdefault(key, {})[hand] = game.labels[int(game.first_child[at]) + a]
    return overrides


class _GapFile(msgspec.Struct, frozen=True):
    gaps: list[PassGap]


def save(gaps: list[PassGap], path: str | Path) -> None:
    text = msgspec.json.encode(_GapFile(gaps), order="sorted")
    Path(path).write_bytes(gzip.compress(text, mtime=0))


def load(raw: bytes) -> dict[int, PassGap]:
    data = msgspec.json.decode(gzip.decompress(raw), type=_GapFile)
    return {gap.role: gap for gap in data.gaps}


@lru_cache(maxsize=1)
def shipped_gaps() -> dict[int, PassGap]:
    """The overrides shipped in the package, by role (computed by `main`)."""
    return load(resources.files(DATA_PACKAGE).joinpath(DATA_FILE).read_bytes())


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", default=str(Path(__file__).parent / "data" / DATA_FILE))
    args = parser.parse_args(argv)
    gaps = [compute(role=r, from_passes=start, no_pass_at=no) for r, start, no in SHIPPED]
    save(gaps, args.out)
    for gap in gaps:
        entries = sum(len(v) for v in gap.overrides.values())
        print(
            f"role {gap.role} (best response from {gap.from_passes} passes, no pass at "
            f"{gap.no_pass_at}): {len(gap.overrides):,} nodes, "
            f"{entries:,} entries; value {gap.value:+.5f} against {gap.base:+.5f} "
            f"(gain {gap.gain:+.5f}) in the {gap.nodes:,}-node round with {gap.pass_cap} passes"
        )
    print(f"written to {args.out} ({Path(args.out).stat().st_size:,} bytes)")


if __name__ == "__main__":
    main()
