"""One heads-up round of Mia as a public game for the solvers.

A round is a chain of rolls. Whoever rolls looks at the dice and announces a value
strictly higher than the last announcement; the other player challenges, believes (rolls
fresh dice and must announce higher still) or, where the rules allow, passes the cup on
unrolled with the same or a higher value. A challenge, or a Mia announcement, ends the
round: the loser pays 1, the winner gets 1. Player 0 opens the round.

Why the public game is small: after every roll the old dice no longer matter and the new
ones are seen by the roller alone, so the rest of the round depends only on who rolled
and what they must beat. Each such point is one *segment* (`TreeBuilder.root`): the
holder's announcement, and the chain of answers up to the next roll or the end. Every
history that reaches the same (holder, value to beat) shares one segment. Within a
segment the history is kept in full, because what the receiver believes about the dice
depends on the value the holder had to beat and on everything said since.

A player's hand is the current dice if they rolled and looked at them (21 values), and
nothing (hand 0) otherwise.

Abstractions (stated, and measured in docs/solve.md):

* The roller always looks. A blind announcement is never better for the roller: looking
  and then ignoring the dice gives exactly the same play, so the value and the
  equilibrium of the round are unchanged. (`look="choose"` builds the round with the
  choice, to measure that: a "look" action at every roll, and blind announcements whose
  outcome is the fresh roll's average.)
* With the pass on, the answers after one roll may be passes at the same value
  indefinitely; `pass_cap` limits the passes between two rolls. At the cap
  (`at_cap="draw"`, the default) a pass of the same value still stands for the endless
  exchange it would start and ends the round with no loser; with `at_cap="forced"` the
  receiver must challenge or roll.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Protocol

import numpy as np

from bluffdice.games.base import RuleError
from bluffdice.games.mia.state import (
    BEAT_FAILED,
    CAUGHT_BLUFFING,
    GAVE_UP,
    LIED_ABOUT_MIA,
    MIA_BEATEN,
    MIA_FOUND,
    SEE_FAILED,
    SEE_FAILED_MIA,
    TRUE_MIA,
)
from bluffdice.games.mia.values import MIA, VALUES, Ranking, probability
from bluffdice.solve.tree import FloatArray, PublicGame, TreeBuilder, TreeTooLarge

HANDS: tuple[int, ...] = VALUES
"""Hand index -> dice value (the 21 Mia values in the engine's order)."""

HAND_INDEX = {v: i for i, v in enumerate(HANDS)}

CHALLENGE = "challenge"
ROLL = "roll"
LOOK = "look"
GIVE_UP = "give-up"
BEAT = "beat"


@dataclass(frozen=True)
class MiaRoundSpec:
    """What shapes one heads-up round: the ranking, the pass, how Mia ends it."""

    ranking: Ranking = Ranking()
    pass_allowed: bool = False
    pass_cap: int = 0
    mia_end: str = "instant"
    beat_mia: bool = False
    at_cap: str = "draw"
    look: str = "always"

    def __post_init__(self) -> None:
        if self.look not in ("always", "choose"):
            raise RuleError("look must be always or choose")
        if self.mia_end not in ("instant", "receiver"):
            raise RuleError("mia_end must be instant or receiver")
        if self.at_cap not in AT_CAP:
            raise RuleError(f"at_cap must be one of {', '.join(AT_CAP)}")
        if self.pass_cap < 0:
            raise RuleError("pass_cap must be 0 or more")

    @property
    def passes(self) -> int:
        """Passes allowed between two rolls."""
        return self.pass_cap if self.pass_allowed else 0

    def describe(self) -> str:
        parts = ["heads-up Mia round"]
        r = self.ranking
        for name in ("doubles_ascending", "little_mia", "halbmeier", "pips"):
            if getattr(r, name):
                parts.append(name.replace("_", " "))
        if self.pass_allowed:
            end = "then a pass is a draw" if self.at_cap == "draw" else "then no pass"
            parts.append(f"pass (at most {self.pass_cap} between rolls, {end})")
        else:
            parts.append("no pass")
        parts.append("Mia shown at once" if self.mia_end == "instant" else "Mia: give up or look")
        if self.beat_mia:
            parts.append("beat Mia")
        return ", ".join(parts)


DEFAULT_PASS_CAP = 2

AT_CAP = {
    "draw": "a pass of the same value after the cap ends the round with no loser (the "
    "endless exchange of passes it would start)",
    "forced": "after the cap the receiver must challenge or roll",
}


def spec_from_rules(rules: Any, pass_cap: int | None = None, at_cap: str = "draw") -> MiaRoundSpec:
    """The round that `rules` (MiaRules) play heads-up; RuleError if the solver cannot."""
    if rules.relaxed_raise:
        raise RuleError(
            "the solver needs strictly rising announcements: relaxed_raise=on lets a round "
            "go on for ever"
        )
    if rules.joker32:
        raise RuleError("the solver does not handle joker32 (cheers restarts the round)")
    cap = DEFAULT_PASS_CAP if pass_cap is None else pass_cap
    return MiaRoundSpec(
        ranking=rules.ranking,
        pass_allowed=rules.pass_allowed,
        pass_cap=cap if rules.pass_allowed else 0,
        mia_end=rules.mia_end,
        beat_mia=rules.beat_mia,
        at_cap=at_cap,
    )


class Stakes(Protocol):
    """What the end of a round is worth to player 0, by who lost it and why (the engine's
    penalty reasons). One round alone: the loser pays 1. In a whole match the round's
    result is worth the match's value from the lives and the opener it leads to."""

    def pay(self, loser: int, reason: str) -> float: ...


class RoundStakes:
    """One round on its own: the loser pays 1 to the winner, whatever the reason."""

    def pay(self, loser: int, reason: str) -> float:
        return -1.0 if loser == 0 else 1.0


def hold_key(holder: int, floor: int) -> tuple[int, int, tuple[int, ...]]:
    """The key of a segment root: `holder` rolled and must beat rank `floor` (0: open)."""
    return (holder, floor, ())


class _Builder:
    def __init__(
        self, spec: MiaRoundSpec, max_nodes: int, share: bool, stakes: Stakes | None = None
    ) -> None:
        self.spec = spec
        self.stakes = stakes or RoundStakes()
        self.share = share
        self.rank = {v: spec.ranking.rank(v) for v in HANDS}
        self.worst_first = tuple(reversed(spec.ranking.best_first))
        self.h = len(HANDS)
        self.tree = TreeBuilder(self.h, max_nodes=max_nodes)
        self.roll_dist = np.array([float(probability(v)) for v in HANDS])
        self.nothing = np.zeros(self.h)
        self.nothing[0] = 1.0
        self.roots: dict[tuple[int, int, bool], int] = {}
        self.todo: list[tuple[int, int, int, bool]] = []
        p_mia = probability(MIA)
        self.beat_win = float(p_mia)  # chance that an open roll shows Mia

    # payoffs ----------------------------------------------------------------------

    def payoff(self, holder: int, win0: FloatArray) -> FloatArray:
        """A payoff matrix from player 0's winnings for each of the holder's dice."""
        u = np.zeros((self.h, self.h))
        if holder == 0:
            u[:, 0] = win0
        else:
            u[0, :] = win0
        return u

    def shown(self, holder: int, announcer: int, value: int) -> FloatArray:
        """The dice are shown against `value` that `announcer` stands behind (a challenge,
        or Mia shown at once)."""
        pay = self.stakes.pay
        receiver = 1 - announcer
        win0 = np.empty(self.h)
        for i, v in enumerate(HANDS):
            if value == MIA:
                found = TRUE_MIA if self.spec.mia_end == "instant" else MIA_FOUND
                win0[i] = pay(receiver, found) if v == MIA else pay(announcer, LIED_ABOUT_MIA)
            elif self.rank[v] >= self.rank[value]:
                win0[i] = pay(receiver, SEE_FAILED_MIA if v == MIA else SEE_FAILED)
            else:
                win0[i] = pay(announcer, CAUGHT_BLUFFING)
        return self.payoff(holder, win0)

    def flat(self, holder: int, win0: float) -> FloatArray:
        return self.payoff(holder, np.full(self.h, win0))

    # structure --------------------------------------------------------------------

    def segment(self, holder: int, floor: int) -> int:
        """The root where `holder` has just rolled: looked (always look), or about to
        choose between looking and announcing blind (look="choose")."""
        if self.spec.look == "choose":
            return self._root(holder, floor, blind=True)
        return self._root(holder, floor, blind=False)

    def _root(self, holder: int, floor: int, blind: bool) -> int:
        key = (holder, floor, blind)
        node = self.roots.get(key) if self.share else None
        if node is None:
            info: tuple[int, int, tuple[int, ...]]
            if blind:  # nobody has seen the new dice
                dists = (self.nothing, self.nothing)
                info = (holder, floor, (0,))
            else:
                dists = (
                    (self.roll_dist, self.nothing)
                    if holder == 0
                    else (self.nothing, self.roll_dist)
                )
                info = hold_key(holder, floor)
            node = self.roots[key] = self.tree.root(
                holder, dists[0], dists[1], info=info, private=not blind
            )
            self.todo.append((node, holder, floor, blind))
        return node

    def expand(self, node: int, holder: int, floor: int, blind: bool) -> None:
        if blind:
            self.tree.jump(node, LOOK, self._root(holder, floor, blind=False))
        for w in self.worst_first:
            if self.rank[w] > floor:
                chain = (0, w) if blind else (w,)
                self.announced(node, str(w), holder, holder, w, (holder, floor, chain), blind)

    def announced(
        self,
        parent: int,
        label: str,
        holder: int,
        announcer: int,
        value: int,
        key: tuple[int, int, tuple[int, ...]],
        blind: bool = False,
    ) -> None:
        """`announcer` just said `value` (an announcement or a pass) over holder's dice
        (dice nobody has seen if `blind`)."""
        spec, tree = self.spec, self.tree
        receiver = 1 - announcer
        private = receiver == holder and not blind

        def shown(v: int) -> FloatArray:
            u = self.shown(holder, announcer, v)
            if blind:  # the dice are still a fresh roll for everybody
                axis = u[:, 0] if holder == 0 else u[0, :]
                return self.flat(holder, float(self.roll_dist @ axis))
            return u

        if value == MIA:
            if spec.mia_end == "instant":
                tree.terminal(parent, label, shown(MIA))
                return
            node = tree.decision(parent, label, receiver, info=key, private=private)
            pay = self.stakes.pay
            tree.terminal(node, GIVE_UP, self.flat(holder, pay(receiver, GAVE_UP)))
            tree.terminal(node, CHALLENGE, shown(MIA))
            if spec.beat_mia:
                p = self.beat_win
                beat = p * pay(announcer, MIA_BEATEN) + (1 - p) * pay(receiver, BEAT_FAILED)
                tree.terminal(node, BEAT, self.flat(holder, beat))
            return
        node = tree.decision(parent, label, receiver, info=key, private=private)
        tree.terminal(node, CHALLENGE, shown(value))
        tree.jump(node, ROLL, self.segment(receiver, self.rank[value]))
        passes = len(key[2]) - (2 if blind else 1)
        if passes < spec.passes:
            floor = self.rank[value]
            for w in self.worst_first:
                if self.rank[w] >= floor:
                    self.announced(
                        node,
                        f"pass {w}",
                        holder,
                        receiver,
                        w,
                        (key[0], key[1], (*key[2], w)),
                        blind,
                    )
        elif spec.pass_allowed and spec.at_cap == "draw":
            tree.terminal(node, f"pass {value}", self.flat(holder, 0.0))


def count_nodes(spec: MiaRoundSpec, start_floor: int = 0) -> int:
    """How many nodes the shared public game has, counted without building it."""
    ranking = spec.ranking
    values = tuple(reversed(ranking.best_first))
    memo: dict[tuple[int, int], int] = {}

    def said(v: int, passes: int) -> int:  # nodes under one announcement or pass
        if v == MIA:
            if spec.mia_end == "instant":
                return 1
            return 3 + int(spec.beat_mia)
        key = (ranking.rank(v), passes)
        if key not in memo:
            more = 0
            if passes < spec.passes:
                more = sum(said(w, passes + 1) for w in values if ranking.rank(w) >= key[0])
            elif spec.pass_allowed and spec.at_cap == "draw":
                more = 1
            memo[key] = 3 + more
        return memo[key]

    def segment(floor: int) -> int:
        return 1 + sum(said(w, 0) for w in values if ranking.rank(w) > floor)

    floors = {start_floor} | {ranking.rank(v) for v in values if v != MIA}
    return sum(segment(f) * (1 if f == start_floor else 2) for f in floors if f >= start_floor)


def build(
    spec: MiaRoundSpec,
    max_nodes: int = 4_000_000,
    share: bool = True,
    start_floor: int = 0,
    stakes: Stakes | None = None,
) -> PublicGame:
    """The public game of one heads-up round (player 0 opens), its ends paid by `stakes`
    (default: the loser pays 1).

    `share=False` gives every history its own copy of each segment (the plain game tree,
    far larger); `start_floor` starts the round as if a value of that rank had to be
    beaten. Both exist for tests that check sharing changes nothing.
    """
    if share and spec.look == "always":
        size = count_nodes(spec, start_floor)
        if size > max_nodes:
            raise TreeTooLarge(
                f"{spec.describe()} has about {size:,} public nodes, more than the "
                f"{max_nodes:,} the solver builds: lower the pass cap"
            )
    b = _Builder(spec, max_nodes, share, stakes)
    b.segment(0, start_floor)
    while b.todo:
        b.expand(*b.todo.pop())
    labels = tuple(str(v) for v in HANDS)
    game = b.tree.build((labels, labels))
    game.title = spec.describe()
    return game


def key_text(info: tuple[int, int, tuple[int, ...]]) -> str:
    """A node's key in policy files: `holder|floor|calls`, e.g. `0|0|` (the opener
    holds fresh dice) or `1|12|54,55` (player 1 rolled over rank 12, said 54, and the
    other passed 55)."""
    holder, floor, chain = info
    return f"{holder}|{floor}|{','.join(map(str, chain))}"


Calls = list[tuple[int, str, int]]
"""The calls of a round so far: (player, kind, value), kind "announce" or "pass"."""


def hold_info(
    ranking: Ranking, calls: Calls, me: int, opener: int
) -> tuple[int, int, tuple[int, ...]]:
    """The key info of the segment root where `me` has just rolled and looked.

    Roles: the round's `opener` is player 0 of the policy, anyone else player 1. Heads-up
    that is exact; with more players, whoever answers or is answered stands in for the
    only opponent.
    """
    floor = ranking.rank(calls[-1][2]) if calls else 0
    return (0 if me == opener else 1, floor, ())


def answer_info(ranking: Ranking, calls: Calls, opener: int) -> tuple[int, int, tuple[int, ...]]:
    """The key info of the node where an announcement or pass is answered.

    The segment began with the last announcement (its caller had just rolled); its floor
    is the rank of the call before that, and every call since belongs to its chain.
    """
    start = max((i for i, c in enumerate(calls) if c[1] == "announce"), default=-1)
    if start < 0:
        raise ValueError("a round's first call is an announcement")
    floor = ranking.rank(calls[start - 1][2]) if start > 0 else 0
    holder = 0 if calls[start][0] == opener else 1
    return (holder, floor, tuple(c[2] for c in calls[start:]))


def fold(info: tuple[int, int, tuple[int, ...]], cap: int) -> tuple[int, int, tuple[int, ...]]:
    """Map a node beyond the pass cap onto one within it, two passes earlier.

    A chain of passes longer than the cap is shortened by dropping the two passes before
    the last call, until it fits: the same player answers, the same value stands, and
    the values still never fall. A policy solved with a cap thus answers any chain of
    passes the rules allow, as if the exchange had started two passes later.
    """
    holder, floor, chain = info
    calls = list(chain)
    while len(calls) - 1 > cap and len(calls) >= 3:
        del calls[-3:-1]
    return (holder, floor, tuple(calls))


def fallback(
    ranking: Ranking, info: tuple[int, int, tuple[int, ...]], hand: int | None, actions: list[str]
) -> dict[str, float]:
    """A plain rule for nodes a policy does not cover (beyond its pass cap, say).

    Holding fresh dice: the truth if it is high enough, else the smallest lie. Knowing
    the dice under an announcement (after a pass): challenge exactly when they fall
    short, else roll; after a Mia, give up on a real one and challenge a false one.
    Knowing nothing: challenge when a fresh roll would reach the announcement less than
    two times in five (after a Mia: challenge).
    """
    chain = info[2]
    if not chain:
        assert hand is not None
        return {str(hand): 1.0} if str(hand) in actions else {actions[0]: 1.0}
    value = chain[-1]
    if value == MIA:
        if hand is not None and hand == MIA and GIVE_UP in actions:
            return {GIVE_UP: 1.0}
        return {CHALLENGE: 1.0}
    if hand is not None:
        short = ranking.rank(hand) < ranking.rank(value)
        return {CHALLENGE: 1.0} if short else {ROLL: 1.0}
    reach = sum(float(probability(v)) for v in HANDS if ranking.rank(v) >= ranking.rank(value))
    return {CHALLENGE: 1.0} if reach < 0.4 else {ROLL: 1.0}


def roll_probabilities() -> dict[int, Fraction]:
    """The chance of each hand: the same table the rules engine rolls from."""
    return {v: probability(v) for v in HANDS}
