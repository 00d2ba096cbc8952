"""Liar's Dice (single hand) bots: `odds` bids and calls by the binomial odds of
`bluffdice.odds.binomial`; `adaptive` corrects those odds per opponent by how often
that opponent's bids held when the cups were lifted.

A bid's chance to hold is the binomial chance from the bot's own cup: its own matches
are certain, each unknown die hits with 1/faces (2/faces for a non-wild face when a face
is wild). Calling liar loses a die when the bid holds; raising to a bid loses one when
the bid fails and is called. The bot takes the cheaper of the two, raising to the bid
most likely to hold (the highest such quantity on ties: it holds for certain when it is
no more than the bot's own matches).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from bluffdice.bots.base import Bot, register_bot
from bluffdice.games.base import Event
from bluffdice.games.liars_dice.actions import Bid, Calza, Challenge, LiarsDiceAction
from bluffdice.games.liars_dice.state import LiarsDiceView
from bluffdice.games.registry import parse_rules
from bluffdice.odds.binomial import dice_rules, face_odds

GAME = "liars-dice"

LiarsDiceBot = Bot[LiarsDiceView, LiarsDiceAction]
"""The base of every Liar's Dice bot: mypy holds its `act` to the game's views and
actions."""


@lru_cache(maxsize=64)
def _faces(rules_text: str) -> int:
    return dice_rules(parse_rules(rules_text, game=GAME)).faces


@lru_cache(maxsize=64)
def _wild(rules_text: str) -> int:
    """The wild face of an ordinary (not palifico) round; 0 for none."""
    return dice_rules(parse_rules(rules_text, game=GAME)).wild or 0


@lru_cache(maxsize=65536)
def _tail(total: int, face: int, own: tuple[int, ...], faces: int, wild: int) -> tuple[float, ...]:
    """P(at least q) for q = 0 .. total, as floats (exact Fractions underneath)."""
    odds = face_odds(total, face, own=own, faces=faces, wild=wild or None)
    return tuple(float(c.p_at_least) for c in odds.counts)


def p_holds(view: LiarsDiceView, bid: Bid, own: tuple[int, ...] | None = None) -> float:
    """The chance that `bid` holds, seen from `own` dice (default: the viewer's cup)."""
    hand = tuple(sorted(own if own is not None else (view.my_dice or ())))
    if bid.quantity <= 0:
        return 1.0
    if bid.quantity > view.total:
        return 0.0
    tail = _tail(view.total, bid.face, hand, _faces(view.rules), view.wild)
    return tail[bid.quantity]


class _BinomialPlayer(LiarsDiceBot):
    games = (GAME,)

    def believe(self, view: LiarsDiceView, p: float) -> float:
        """The chance the current bid holds, after whatever the bot knows of its bidder."""
        return p

    def act(self, view: LiarsDiceView) -> LiarsDiceAction:
        legal = view.legal_actions
        bids = [a for a in legal if isinstance(a, Bid)]
        if view.bid is None or Challenge() not in legal:
            return self._best_bid(view, bids) if bids else legal[0]
        p_current = self.believe(view, p_holds(view, view.bid))
        if not bids:
            return Challenge()
        best = self._best_bid(view, bids)
        risk = 1.0 - p_holds(view, best)
        if p_current < risk:
            return Challenge()
        if Calza() in legal and self._exact(view, view.bid) > 0.5:
            return Calza()
        return best

    def _best_bid(self, view: LiarsDiceView, bids: list[Bid]) -> Bid:
        return max(bids, key=lambda b: (round(p_holds(view, b), 9), b.quantity, b.face))

    def _exact(self, view: LiarsDiceView, bid: Bid) -> float:
        return p_holds(view, bid) - p_holds(view, Bid(bid.quantity + 1, bid.face))


@register_bot
class LiarsDiceOddsBot(_BinomialPlayer):
    """Raises or calls liar by the binomial odds of its own cup."""

    name = "odds"
    description = "bids and calls by the binomial odds from its own dice"


@dataclass
class _Seen:
    bids: int = 0
    residual: float = 0.0
    """Sum of (held - chance it held as seen from our cup): positive for honest bidders."""


@register_bot
class LiarsDiceAdaptiveBot(_BinomialPlayer):
    """Plays the binomial odds, shifted per opponent by how their bids fared: when all
    cups are lifted it replays each of their bids of the round against the odds it had
    from its own cup then, and learns whose bids hold more (or less) often than that."""

    name = "adaptive"
    description = "binomial odds, corrected per opponent by how often their bids held"

    prior = 4.0
    """Pseudo-bids of zero residual: how slowly a single surprise moves the estimate."""

    def __init__(self, rng: random.Random | None = None) -> None:
        super().__init__(rng)
        self.seen: dict[int, _Seen] = {}
        self._learnt: set[int] = set()

    def shift(self, player: int) -> float:
        s = self.seen.get(player)
        return 0.0 if s is None else s.residual / (s.bids + self.prior)

    def believe(self, view: LiarsDiceView, p: float) -> float:
        if view.bidder is None:
            return p
        return min(1.0, max(0.0, p + self.shift(view.bidder)))

    def act(self, view: LiarsDiceView) -> LiarsDiceAction:
        self._learn(view)
        return super().act(view)

    def observe(self, events: Sequence[Event]) -> None:
        """Statistics come from `view.last_round`, which holds every lifted cup."""

    def _learn(self, view: LiarsDiceView) -> None:
        last = view.last_round
        if last is None or last.round in self._learnt or view.player is None:
            return
        self._learnt.add(last.round)
        mine = last.hands[view.player]
        total = sum(len(h) for h in last.hands)
        wild = _wild(view.rules)
        faces = _faces(view.rules)
        for call in last.bids:
            if call.player == view.player or call.quantity > total:
                continue
            count = sum(1 for h in last.hands for d in h if d == call.face or (d == wild != 0))
            if call.face == wild:
                count = sum(1 for h in last.hands for d in h if d == wild)
            tail = _tail(total, call.face, tuple(sorted(mine)), faces, wild)
            held = 1.0 if count >= call.quantity else 0.0
            s = self.seen.setdefault(call.player, _Seen())
            s.bids += 1
            s.residual += held - tail[call.quantity]
