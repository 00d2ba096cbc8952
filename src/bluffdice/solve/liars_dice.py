"""Liar's Dice for two players, one round, as a public tree for the solvers.

Both cups are rolled at the start; a public node is the sequence of bids so far, and a
player's hand is their own sorted dice. A challenge ends the game: the bidder wins 1 if
at least `quantity` dice (wild dice counted) show the bid's face, else the challenger
wins 1. Player 0 bids first.

This encoding is written apart from the rules engine on purpose (its own bid ladder and
counting); `tests/test_solve_liars_dice.py` proves the two agree on every legal action
and payoff. With `wild="highest"`, reset-face bidding and one die each it is OpenSpiel's
`liars_dice` with its default parameters.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from math import factorial
from typing import Any

import numpy as np

from bluffdice.games.base import RuleError
from bluffdice.solve.tree import PublicGame, TreeBuilder, TreeTooLarge

RAISE_RULES = ("reset-face", "reset-quantity", "strict", "no-lowering")
WILD = ("off", "ones", "highest")


@dataclass(frozen=True)
class DudoSpec:
    """The rule set of a solvable round: dice per player, faces, wild face, raise rule."""

    dice: int = 1
    faces: int = 6
    wild: str = "highest"
    raise_rule: str = "reset-face"
    ones_bids: bool = False

    def __post_init__(self) -> None:
        if not 1 <= self.dice <= 5 or not 2 <= self.faces <= 9:
            raise RuleError("the solver takes 1 to 5 dice per player and 2 to 9 faces")
        if self.wild not in WILD:
            raise RuleError(f"wild must be one of {', '.join(WILD)}")
        if self.raise_rule not in RAISE_RULES:
            raise RuleError(f"raise rule must be one of {', '.join(RAISE_RULES)}")
        if self.ones_bids and self.wild != "ones":
            raise RuleError("ones_bids needs wild ones")

    @property
    def wild_face(self) -> int:
        return {"off": 0, "ones": 1, "highest": self.faces}[self.wild]

    @property
    def total(self) -> int:
        return 2 * self.dice

    def hands(self) -> list[tuple[int, ...]]:
        """Every sorted hand of one cup."""
        return list(itertools.combinations_with_replacement(range(1, self.faces + 1), self.dice))

    def hand_probability(self, hand: tuple[int, ...]) -> float:
        ways = factorial(len(hand))
        for face in set(hand):
            ways //= factorial(hand.count(face))
        return float(ways) / float(self.faces ** len(hand))

    def bids(self) -> list[tuple[int, int]]:
        """Every bid (quantity, face) that may ever be made, lowest first by index."""
        low = 2 if self.wild == "ones" and not self.ones_bids else 1
        return [(q, f) for q in range(1, self.total + 1) for f in range(low, self.faces + 1)]

    def may_follow(self, last: tuple[int, int] | None, new: tuple[int, int]) -> bool:
        """Whether bid `new` may follow `last` (None: the opening bid)."""
        q, f = new
        converting = self.ones_bids
        if last is None:
            return not (converting and f == 1)
        q0, f0 = last
        if converting and (f0 == 1 or f == 1):
            if f0 != 1:  # onto ones: at least half the quantity, rounded up
                return q * 2 >= q0
            if f == 1:
                return q > q0
            return q >= 2 * q0 + 1  # off ones: more than twice
        if self.raise_rule == "reset-face":
            return (q, f) > (q0, f0)
        if self.raise_rule == "reset-quantity":
            return (f, q) > (f0, q0)
        if self.raise_rule == "strict":
            return (f == f0 and q > q0) or (q == q0 and f > f0)
        return q >= q0 and f >= f0 and (q, f) != (q0, f0)

    def holds(self, bid: tuple[int, int], h0: tuple[int, ...], h1: tuple[int, ...]) -> bool:
        q, f = bid
        wild = self.wild_face
        return sum(1 for d in (*h0, *h1) if d in (f, wild)) >= q

    def describe(self) -> str:
        extra = ", ones bids" if self.ones_bids else ""
        return (
            f"Liar's Dice 2 players x {self.dice} dice x {self.faces} faces, wild {self.wild}, "
            f"{self.raise_rule}{extra}"
        )


def spec_from_rules(rules: Any) -> DudoSpec:
    """The solver's spec of an engine rule set (LiarsDiceRules); RuleError if unsupported."""
    if getattr(rules, "calza", False):
        raise RuleError("the solver does not handle calza: set calza=off")
    if not getattr(rules, "single_round", False):
        raise RuleError(
            "the solver solves one round (a challenge ends the game): add single_round=on "
            "(the openspiel preset has it)"
        )
    return spec_of(rules, rules.dice)


def spec_of(rules: Any, dice: int) -> DudoSpec:
    """The solver's spec of a heads-up round of `dice` each under an engine rule set
    (LiarsDiceRules), with no check of what the solver supports (callers check)."""
    return DudoSpec(
        dice=dice,
        faces=rules.faces,
        wild=rules.wild,
        raise_rule=rules.raise_rule,
        ones_bids=rules.ones_bids,
    )


def bid_text(bid: tuple[int, int]) -> str:
    return f"{bid[0]}x{bid[1]}"


CHALLENGE = "liar"


def key_text(info: tuple[tuple[int, int], ...]) -> str:
    """A node's key in policy files: the bids so far, e.g. `1x2,1x5` (empty: opening)."""
    return ",".join(bid_text(b) for b in info)


def count_nodes(spec: DudoSpec) -> int:
    """How many nodes the public tree has, counted without building it."""
    bids = spec.bids()
    below: dict[tuple[int, int], int] = {}

    def size(b: tuple[int, int]) -> int:  # the bid's node, its challenge, and what follows
        if b not in below:
            below[b] = 2 + sum(size(n) for n in bids if spec.may_follow(b, n))
        return below[b]

    return 1 + sum(size(b) for b in bids if spec.may_follow(None, b))


def build(spec: DudoSpec, max_nodes: int = 3_000_000) -> PublicGame:
    """The public tree of one round. Node info: the tuple of bids made so far."""
    size = count_nodes(spec)
    if size > max_nodes:
        raise TreeTooLarge(
            f"{spec.describe()} has {size:,} public nodes, more than the {max_nodes:,} the "
            "solver builds: take fewer dice or faces"
        )
    hands = spec.hands()
    h = len(hands)
    probs = np.array([spec.hand_probability(x) for x in hands])
    bids = spec.bids()
    # payoff to player 0 when player `bidder` made `bid` and it is challenged
    holds = {
        b: np.array([[1.0 if spec.holds(b, x, y) else -1.0 for y in hands] for x in hands])
        for b in bids
    }
    follow = {last: [b for b in bids if spec.may_follow(last, b)] for last in [None, *bids]}
    builder = TreeBuilder(h, max_nodes=max_nodes)
    root = builder.root(0, probs, probs, info=())
    stack: list[tuple[int, tuple[tuple[int, int], ...]]] = [(root, ())]
    while stack:
        node, history = stack.pop()
        player = len(history) % 2
        last = history[-1] if history else None
        for b in follow[last]:
            seq = (*history, b)
            child = builder.decision(node, bid_text(b), 1 - player, info=seq)
            stack.append((child, seq))
        if last is not None:
            bidder = 1 - player
            payoff = holds[last] if bidder == 0 else -holds[last]
            builder.terminal(node, CHALLENGE, payoff)
    labels = tuple("".join(map(str, x)) for x in hands)
    game = builder.build((labels, labels))
    game.title = spec.describe()
    return game
