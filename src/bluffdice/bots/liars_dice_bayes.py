"""`bayes`: Liar's Dice played on a belief about every cup, updated by the bids heard.

The `odds` and `counter` bots price a bid from their own cup alone, as if the other cups
were fresh dice. But a bid is evidence: a player who bids four fives usually holds
fives. `bayes` keeps, for every opponent and every face, a distribution over how many of
that opponent's dice count for the face (the face itself or a wild one). It starts
binomial and is updated by Bayes' rule with the opponent's latest bid on that face:
a bid of q is made with a chance that grows with how likely q is to hold *from the
bidder's own cup* holding k counting dice (squared, to favour the bids a counting
player makes), mixed with the opponent's bluff rate, which it learns from the cups
lifted at each round's end (a bluff: a bid the bidder's own cup gave less than even
odds). The count of a face over all cups is then its own dice plus the convolution of
the opponents' distributions, exact for that model.

Each decision takes the action least likely to cost it a die, minus half the chance it
costs someone else one (an opponent out of dice is one fewer to beat):

- calling liar loses when the bid holds, and wins a die from the bidder otherwise;
- raising to a bid loses when the next player calls it and it fails, and takes a die
  from them when they call it and it holds. Whether they call is predicted from *their*
  cup: for each count they may hold, the chance the bid holds from their side, read
  through what they have been seen to do at such odds (five bands, learnt from the
  lifted cups, starting from a counting player's habits);
- calza (where the rules have it) wins a die back when the count is exact.

It sees only its view: its own dice, the bids of the round, and the cups lifted at the
end of each round, which every player sees.
"""

from __future__ import annotations

import random
from bisect import bisect_right
from dataclasses import dataclass, field
from functools import lru_cache
from math import comb

from bluffdice.bots.base import next_seat_in, register_bot
from bluffdice.bots.liars_dice import LiarsDiceBot, _faces, _wild
from bluffdice.games.liars_dice.actions import Bid, Calza, Challenge, LiarsDiceAction
from bluffdice.games.liars_dice.bids import BidCall
from bluffdice.games.liars_dice.state import LiarsDiceView

SHARPNESS = 2.0
"""The power on a bid's chance to hold (from the bidder's cup) in its likelihood."""

BLUFF_PRIOR = (0.1, 5.0)
"""A new opponent's bluff rate, and the weight (in bids) of that guess."""

BANDS = (0.2, 0.35, 0.5, 0.7)
"""Edges of the odds bands (a bid's chance to hold from the answering player's cup)."""

CALL_PRIOR = (0.95, 0.8, 0.5, 0.15, 0.03)
"""How often a counting player calls liar in each band, before anything is seen."""

CALL_WEIGHT = 3.0
"""Pseudo-answers behind each band's prior."""

OTHERS_LOSS = 0.5
"""What a die lost by an opponent is worth, against one of its own."""

RAISES_PER_FACE = 3
"""Bids considered per face: the lowest legal quantity and the next few."""


@lru_cache(maxsize=65536)
def binomial(n: int, p: float) -> tuple[float, ...]:
    """P(exactly k of n dice count), k = 0 .. n."""
    return tuple(comb(n, k) * p**k * (1 - p) ** (n - k) for k in range(n + 1))


@lru_cache(maxsize=65536)
def at_least(n: int, need: int, p: float) -> float:
    """P(at least `need` of `n` fresh dice count, each with chance p)."""
    if need <= 0:
        return 1.0
    if need > n:
        return 0.0
    return sum(binomial(n, p)[need:])


def convolve(a: list[float], b: tuple[float, ...] | list[float]) -> list[float]:
    out = [0.0] * (len(a) + len(b) - 1)
    for i, x in enumerate(a):
        if x:
            for j, y in enumerate(b):
                out[i + j] += x * y
    return out


def counts(hand: tuple[int, ...] | list[int], face: int, wild: int) -> int:
    """Dice of `hand` that count for a bid on `face` (a bid on the wild face: wild only)."""
    return sum(1 for d in hand if d == face or (wild and d == wild and face != wild))


def face_chance(face: int, faces: int, wild: int) -> float:
    return (2 if wild and face != wild else 1) / faces


def posterior(
    n: int, others: int, p: float, quantity: int | None, bluff: float
) -> tuple[float, ...]:
    """The distribution of a player's counting dice (of n) after their bid of `quantity`
    on the face (None: no bid on it), `others` dice being hidden from them."""
    prior = binomial(n, p)
    if quantity is None:
        return prior
    weights = [
        w * (bluff + (1 - bluff) * at_least(others, quantity - k, p) ** SHARPNESS)
        for k, w in enumerate(prior)
    ]
    total = sum(weights)
    return tuple(w / total for w in weights) if total > 0 else prior


@dataclass
class Habits:
    """What the cups lifted so far say about one opponent."""

    bids: float = 0.0
    bluffs: float = 0.0
    answers: list[list[float]] = field(default_factory=lambda: [[0.0, 0.0] for _ in CALL_PRIOR])

    @property
    def bluff_rate(self) -> float:
        rate, weight = BLUFF_PRIOR
        return (self.bluffs + rate * weight) / (self.bids + weight)

    def call_chance(self, p_holds: float) -> float:
        b = bisect_right(BANDS, p_holds)
        calls, seen = self.answers[b]
        return (calls + CALL_PRIOR[b] * CALL_WEIGHT) / (seen + CALL_WEIGHT)


@register_bot
class LiarsDiceBayesBot(LiarsDiceBot):
    """Bids and calls on a Bayesian belief about the other cups, read from their bids."""

    name = "bayes"
    games = ("liars-dice",)
    description = "the listener: reads each bid as news of the bidder's cup; learns who bluffs"

    def __init__(self, rng: random.Random | None = None) -> None:
        super().__init__(rng)
        self.habits: dict[int, Habits] = {}
        self._learnt: set[int] = set()

    # --- the belief -------------------------------------------------------------------

    def habits_of(self, player: int) -> Habits:
        return self.habits.setdefault(player, Habits())

    def belief(self, view: LiarsDiceView, player: int, face: int) -> tuple[float, ...]:
        """The distribution of `player`'s counting dice for `face`, after their bids."""
        faces = _faces(view.rules)
        p = face_chance(face, faces, view.wild)
        n = view.dice[player]
        latest = None
        for call in view.bids:
            if call.player == player and call.face == face:
                latest = call.quantity
        return posterior(n, view.total - n, p, latest, self.habits_of(player).bluff_rate)

    def count_distribution(
        self, view: LiarsDiceView, face: int, fixed: tuple[int, int] | None = None
    ) -> list[float]:
        """P(exactly m dice in all cups count for `face`), m = 0 .. total; `fixed` pins one
        opponent's count (player, k)."""
        mine = counts(view.my_dice or (), face, view.wild)
        dist = [0.0] * mine + [1.0]
        for player, n in enumerate(view.dice):
            if player == view.player or n == 0:
                continue
            if fixed is not None and fixed[0] == player:
                dist = [0.0] * fixed[1] + dist
            else:
                dist = convolve(dist, self.belief(view, player, face))
        return dist

    def p_holds(self, view: LiarsDiceView, bid: Bid, fixed: tuple[int, int] | None = None) -> float:
        dist = self.count_distribution(view, bid.face, fixed)
        return sum(dist[bid.quantity :])

    # --- the decision -----------------------------------------------------------------

    def act(self, view: LiarsDiceView) -> LiarsDiceAction:
        self._learn(view)
        legal = view.legal_actions
        costs: dict[LiarsDiceAction, float] = {}
        if view.bid is not None and Challenge() in legal:
            held = self.p_holds(view, view.bid)
            costs[Challenge()] = held - OTHERS_LOSS * (1 - held)
        if view.bid is not None and Calza() in legal:
            dist = self.count_distribution(view, view.bid.face)
            exact = dist[view.bid.quantity] if view.bid.quantity < len(dist) else 0.0
            costs[Calza()] = (1 - exact) - exact
        for bid in self.candidates(view, [a for a in legal if isinstance(a, Bid)]):
            costs[bid] = self.raise_cost(view, bid)
        if not costs:
            return legal[0]
        return min(costs, key=lambda a: costs[a])

    def candidates(self, view: LiarsDiceView, bids: list[Bid]) -> list[Bid]:
        by_face: dict[int, list[Bid]] = {}
        for bid in sorted(bids, key=lambda b: b.quantity):
            row = by_face.setdefault(bid.face, [])
            if len(row) < RAISES_PER_FACE:
                row.append(bid)
        return [b for row in by_face.values() for b in row]

    def raise_cost(self, view: LiarsDiceView, bid: Bid) -> float:
        """Chance the next player calls `bid` and it fails, minus half the chance they
        call it and it holds; summed over what they may hold."""
        nxt = next_seat_in(view.player, [n > 0 for n in view.dice])
        if nxt is None:
            return 1.0
        n = view.dice[nxt]
        faces = _faces(view.rules)
        p = face_chance(bid.face, faces, view.wild)
        habits = self.habits_of(nxt)
        belief = self.belief(view, nxt, bid.face)
        cost = 0.0
        for k, w in enumerate(belief):
            if w < 1e-9:
                continue
            their_view = at_least(view.total - n, bid.quantity - k, p)
            call = habits.call_chance(their_view)
            held = self.p_holds(view, bid, fixed=(nxt, k))
            cost += w * call * ((1 - held) - OTHERS_LOSS * held)
        return cost

    # --- learning from lifted cups --------------------------------------------------

    def _learn(self, view: LiarsDiceView) -> None:
        last = view.last_round
        if last is None or last.round in self._learnt or view.player is None:
            return
        self._learnt.add(last.round)
        faces = _faces(view.rules)
        wild = _wild(view.rules)
        total = sum(len(h) for h in last.hands)
        previous: BidCall | None = None
        for call in last.bids:
            if previous is not None and call.player != view.player:
                self._answered(call.player, last.hands, previous, total, faces, wild, False)
            if call.player != view.player:
                hand = last.hands[call.player]
                mine = counts(hand, call.face, wild)
                p = face_chance(call.face, faces, wild)
                h = self.habits_of(call.player)
                h.bids += 1
                h.bluffs += at_least(total - len(hand), call.quantity - mine, p) < 0.5
            previous = call
        if last.call == "liar" and previous is not None and last.caller != view.player:
            self._answered(last.caller, last.hands, previous, total, faces, wild, True)

    def _answered(
        self,
        player: int,
        hands: tuple[tuple[int, ...], ...],
        bid: BidCall,
        total: int,
        faces: int,
        wild: int,
        called: bool,
    ) -> None:
        hand = hands[player]
        p = face_chance(bid.face, faces, wild)
        seen = at_least(total - len(hand), bid.quantity - counts(hand, bid.face, wild), p)
        row = self.habits_of(player).answers[bisect_right(BANDS, seen)]
        row[0] += called
        row[1] += 1
