"""Liar's Dice for two players, one round, as a public tree for the solvers.

Both cups are rolled at the start; a public node is the sequence of bids so far, and a
player's hand is their own sorted dice. A challenge ends the game: the bidder wins 1 if
at least `quantity` dice (wild dice counted) show the bid's face, else the challenger
wins 1. Player 0 bids first. The cups may differ (`cups`, player 0's first): each player
then has their own list of hands, and the shorter list is padded with hands of chance 0.

This encoding is written apart from the rules engine on purpose (its own bid ladder and
counting); `tests/test_solve_liars_dice.py` proves the two agree on every legal action
and payoff. With `wild="highest"`, reset-face bidding and one die each it is OpenSpiel's
`liars_dice` with its default parameters.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass
from math import factorial
from typing import Any

import numpy as np

from bluffdice.games.base import RuleError
from bluffdice.solve.tree import PublicGame, TreeBuilder, TreeTooLarge

RAISE_RULES = ("reset-face", "reset-quantity", "strict", "no-lowering")
WILD = ("off", "ones", "highest")
ONES_BIDS = ("off", "on", "plain")


@dataclass(frozen=True)
class DudoSpec:
    """The rule set of a solvable round: dice per player, faces, wild face, raise rule,
    bids on ones (as the engine's `ones_bids`: off, on with the Dudo conversion, plain)
    and unequal `cups` (the dice of player 0, who bids first, and of player 1; empty:
    `dice` each).

    Specs written before `ones_bids` took words and `cups` existed read the same: a bool
    `ones_bids` is off or on, and `cups` as JSON (a list) becomes a tuple, so a spec read
    back from a policy file equals the one it was made from."""

    dice: int = 1
    faces: int = 6
    wild: str = "highest"
    raise_rule: str = "reset-face"
    ones_bids: str = "off"
    cups: tuple[int, ...] = ()

    def __post_init__(self) -> None:
        if isinstance(self.ones_bids, bool):
            object.__setattr__(self, "ones_bids", "on" if self.ones_bids else "off")
        object.__setattr__(self, "cups", tuple(self.cups))
        if not 1 <= self.dice <= 5 or not 2 <= self.faces <= 9:
            raise RuleError("the solver takes 1 to 5 dice per player and 2 to 9 faces")
        if self.cups and (len(self.cups) != 2 or not all(1 <= c <= 5 for c in self.cups)):
            raise RuleError("the solver takes two cups of 1 to 5 dice each")
        if self.wild not in WILD:
            raise RuleError(f"wild must be one of {', '.join(WILD)}")
        if self.raise_rule not in RAISE_RULES:
            raise RuleError(f"raise rule must be one of {', '.join(RAISE_RULES)}")
        if self.ones_bids not in ONES_BIDS:
            raise RuleError(f"ones_bids must be one of {', '.join(ONES_BIDS)}")
        if self.ones_bids != "off" and self.wild != "ones":
            raise RuleError("ones_bids needs wild ones")

    @property
    def wild_face(self) -> int:
        return {"off": 0, "ones": 1, "highest": self.faces}[self.wild]

    @property
    def dice_of(self) -> tuple[int, int]:
        """The dice of player 0 (the first bidder) and of player 1."""
        return (self.cups[0], self.cups[1]) if self.cups else (self.dice, self.dice)

    @property
    def total(self) -> int:
        return sum(self.dice_of)

    def hands(self, player: int = 0) -> list[tuple[int, ...]]:
        """Every sorted hand of `player`'s cup."""
        faces = range(1, self.faces + 1)
        return list(itertools.combinations_with_replacement(faces, self.dice_of[player]))

    def hand_probability(self, hand: tuple[int, ...]) -> float:
        ways = factorial(len(hand))
        for face in set(hand):
            ways //= factorial(hand.count(face))
        return float(ways) / float(self.faces ** len(hand))

    def bids(self) -> list[tuple[int, int]]:
        """Every bid (quantity, face) that may ever be made, lowest first by index."""
        low = 2 if self.wild == "ones" and self.ones_bids == "off" else 1
        return [(q, f) for q in range(1, self.total + 1) for f in range(low, self.faces + 1)]

    def may_follow(self, last: tuple[int, int] | None, new: tuple[int, int]) -> bool:
        """Whether bid `new` may follow `last` (None: the opening bid)."""
        q, f = new
        converting = self.ones_bids == "on"  # plain: ones rank below twos, no conversion
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
        extra = {"off": "", "on": ", ones bids", "plain": ", plain ones bids"}[self.ones_bids]
        cups = f"{self.cups[0]} against {self.cups[1]}" if self.cups else f"{self.dice}"
        return (
            f"Liar's Dice 2 players x {cups} dice x {self.faces} faces, wild {self.wild}, "
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
    cups = tuple(getattr(rules, "cups", ()))
    if len(cups) > 2:
        raise RuleError("the solver plays two players: give cups for two seats")
    if cups and len(set(cups)) > 1 and rules.start != "first-seat":
        raise RuleError(
            "with unequal cups the solver needs to know who bids first: add start=first-seat "
            "(seat 0, the first cup, opens)"
        )
    return spec_of(rules, cups or (rules.dice, rules.dice))


def spec_of(rules: Any, cups: Sequence[int]) -> DudoSpec:
    """The solver's spec of a heads-up round under an engine rule set (LiarsDiceRules)
    whose first bidder holds `cups[0]` dice and the other `cups[1]`, with no check of
    what the solver supports (callers check). Equal cups are written as `dice` each, so
    one game has one spec (policy files are found by it)."""
    first, second = cups
    return DudoSpec(
        dice=max(first, second),
        faces=rules.faces,
        wild=rules.wild,
        raise_rule=rules.raise_rule,
        ones_bids=rules.ones_bids,
        cups=(first, second) if first != second else (),
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
    hands0, hands1 = spec.hands(0), spec.hands(1)
    h = max(len(hands0), len(hands1))
    probs0 = np.array([spec.hand_probability(x) for x in hands0])
    probs1 = np.array([spec.hand_probability(x) for x in hands1])
    bids = spec.bids()
    # Payoff to player 0 when player 0 made `bid` and it is challenged; 0 for the padding.
    holds = {}
    for b in bids:
        matrix = np.zeros((h, h))
        for i, x in enumerate(hands0):
            for j, y in enumerate(hands1):
                matrix[i, j] = 1.0 if spec.holds(b, x, y) else -1.0
        holds[b] = matrix
    follow = {last: [b for b in bids if spec.may_follow(last, b)] for last in [None, *bids]}
    builder = TreeBuilder(h, max_nodes=max_nodes)
    root = builder.root(0, probs0, probs1, info=())
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
    labels = tuple(tuple("".join(map(str, x)) for x in hands) for hands in (hands0, hands1))
    game = builder.build((labels[0], labels[1]))
    game.title = spec.describe()
    return game
