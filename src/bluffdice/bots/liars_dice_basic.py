"""Bots for Liar's Dice (single hand) and common hand: counters, honest players, bluffers.

They read only their view: their own dice, the bids so far and the legal actions. The
single-hand bots weigh every bid by the exact binomial chance that enough dice show it;
the common-hand bots weigh a claim by the chance that five fresh poker dice make it.
"""

from __future__ import annotations

from fractions import Fraction
from functools import lru_cache
from math import comb

from bluffdice.bots.base import Bot, register_bot
from bluffdice.bots.liars_dice import LiarsDiceBot
from bluffdice.games.common_hand import (
    Challenge as ClaimChallenge,
)
from bluffdice.games.common_hand import (
    Claim,
    CommonHandAction,
    CommonHandView,
    Reroll,
    hand_key,
)
from bluffdice.games.common_hand.actions import claim_of
from bluffdice.games.liars_dice import (
    Bid,
    Calza,
    Challenge,
    LiarsDiceAction,
    LiarsDiceView,
    hand_outcomes,
)
from bluffdice.games.registry import parse_rules

CommonHandBot = Bot[CommonHandView, CommonHandAction]
"""The base of every common-hand bot: mypy holds its `act` to the game's views and
actions."""


@lru_cache(maxsize=4096)
def at_least(unknown: int, need: int, p: Fraction) -> float:
    """P(at least `need` of `unknown` dice show a face that comes up with chance p)."""
    if need <= 0:
        return 1.0
    if need > unknown:
        return 0.0
    q = 1 - p
    return float(
        sum(comb(unknown, k) * p**k * q ** (unknown - k) for k in range(need, unknown + 1))
    )


@lru_cache(maxsize=4096)
def exactly(unknown: int, need: int, p: Fraction) -> float:
    if not 0 <= need <= unknown:
        return 0.0
    return float(comb(unknown, need) * p**need * (1 - p) ** (unknown - need))


class _Counter(LiarsDiceBot):
    """Counts: a bid holds with the binomial chance of the dice it cannot see."""

    challenge_margin = 0.0
    bluff = 0.0

    def chances(self, view: LiarsDiceView, bid: Bid) -> tuple[int, int, Fraction]:
        """(own dice that count, unknown dice, chance an unknown die counts)."""
        faces = parse_rules(view.rules).faces
        mine = view.my_dice or ()
        wild = view.wild
        own = sum(1 for d in mine if d in (bid.face, wild))
        unknown = view.total - len(mine)
        p = Fraction(2 if wild and bid.face != wild else 1, faces)
        return own, unknown, p

    def holds(self, view: LiarsDiceView, bid: Bid) -> float:
        own, unknown, p = self.chances(view, bid)
        return at_least(unknown, bid.quantity - own, p)

    def act(self, view: LiarsDiceView) -> LiarsDiceAction:
        bids = [a for a in view.legal_actions if isinstance(a, Bid)]
        if view.bid is None:
            good = [b for b in bids if self.holds(view, b) >= 0.5 - self.bluff]
            pool = good or bids
            top = max(b.quantity for b in pool)
            return self.rng.choice([b for b in pool if b.quantity == top])
        p_last = self.holds(view, view.bid)
        if Calza() in view.legal_actions:
            own, unknown, p = self.chances(view, view.bid)
            if exactly(unknown, view.bid.quantity - own, p) > 0.4:
                return Calza()
        best = max(bids, key=lambda b: (self.holds(view, b), -b.quantity), default=None)
        p_best = self.holds(view, best) if best is not None else 0.0
        if best is None or p_last < 1 - p_best - self.challenge_margin:
            return Challenge()
        if self.bluff and self.rng.random() < self.bluff:
            higher = [b for b in bids if b.quantity == best.quantity + 1]
            if higher:
                return self.rng.choice(higher)
        return best


@register_bot
class CounterBot(_Counter):
    name = "counter"
    games = ("liars-dice",)
    description = "bids what the odds support and calls liar on unlikely bids"


@register_bot
class DiceBlufferBot(_Counter):
    name = "bluffer"
    games = ("liars-dice",)
    description = "counts like the counter, but opens high and raises a die too far at times"
    bluff = 0.25
    challenge_margin = 0.1


@lru_cache(maxsize=4)
def _make_chance(straights: bool) -> dict[tuple[int, int, int], float]:
    """P(five fresh poker dice make at least each hand key)."""
    weights: dict[tuple[int, int, int], Fraction] = {}
    for hand, p in hand_outcomes(5, 6):
        key = hand_key(hand, straights)
        weights[key] = weights.get(key, Fraction(0)) + p
    keys = sorted(weights)
    out: dict[tuple[int, int, int], float] = {}
    running = Fraction(0)
    for key in reversed(keys):
        running += weights[key]
        out[key] = float(running)
    return out


def make_chance(claim: Claim, straights: bool) -> float:
    table = _make_chance(straights)
    at_or_above = [p for key, p in table.items() if key >= claim.key]
    return max(at_or_above, default=0.0)


class _PokerBot(CommonHandBot):
    """Claims its own hand when it can, rerolls to improve, challenges unlikely claims."""

    doubt = 0.3
    bluff = 0.0

    def act(self, view: CommonHandView) -> CommonHandAction:
        rules = parse_rules(view.rules)
        mine = view.my_dice or ()
        claims = [a for a in view.legal_actions if isinstance(a, Claim)]
        best = claim_of(hand_key(mine, rules.straights)) if mine else None
        true_claims = [c for c in claims if best is not None and best.key[0] and c.key <= best.key]
        if view.claim is None:
            if true_claims and self.rng.random() >= self.bluff:
                return true_claims[-1]
            return claims[min(len(claims) - 1, self.rng.randrange(3))]
        if true_claims:
            return true_claims[-1] if self.rng.random() >= self.bluff else true_claims[0]
        rerolls = [a for a in view.legal_actions if isinstance(a, Reroll)]
        likely = make_chance(view.claim, rules.straights)
        if ClaimChallenge() in view.legal_actions and likely < self.doubt:
            return ClaimChallenge()
        if rerolls:
            return self._reroll(mine, rerolls)
        if ClaimChallenge() in view.legal_actions and (not claims or likely < 0.5):
            return ClaimChallenge()
        return claims[0]

    def _reroll(self, mine: tuple[int, ...], rerolls: list[Reroll]) -> Reroll:
        """Keep the faces that come in groups (or the highest die), roll the rest."""
        keep = [d for d in mine if mine.count(d) > 1] or [max(mine)]
        throw = list(mine)
        for d in keep:
            throw.remove(d)
        wanted = tuple(sorted(throw))
        for r in rerolls:
            if r.dice == wanted:
                return r
        return rerolls[-1]


@register_bot
class PokerHonestBot(_PokerBot):
    name = "honest"
    games = ("common-hand",)
    description = "claims the hand it holds, rerolls to beat a claim, doubts unlikely ones"


@register_bot
class PokerBlufferBot(_PokerBot):
    name = "bluffer"
    games = ("common-hand",)
    description = "like honest, but claims more than it holds now and then"
    bluff = 0.3
    doubt = 0.2
