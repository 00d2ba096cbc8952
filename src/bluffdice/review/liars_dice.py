"""Rating Liar's Dice bids and calls by what follows them: the next player's answer.

The model: every die the player cannot see is an independent fair die (wild dice count
for every face but their own). A call is tested at once: it costs a die when the bid
holds. A bid is tested only if the next player calls it, and they answer from their own
cup: they call when, by the same binomial odds from where they sit (their own dice
known, every other die unseen), the bid more likely fails than holds, and otherwise
raise, which passes the bid on. So a bid is rated over every cup the next player may
hold: where they would call, the bid's chance to fail given both cups decides who pays.

A move's figure is its expected dice swing against the player who tests it: +1 is
losing a die for certain, -1 the tester losing one, 0 a bid that is raised (its
consequences lie beyond the next answer, outside the model). The minimal bid is then
no longer "best" just because it is safe: it is never called, so it gains nothing,
while a bid the next player is likely to call wrongly is worth a die to the bidder.
Among moves of equal figure the higher bid is preferred (the next player must bid
above it). tests/test_review.py checks the model against the exact equilibrium of small
games (bluffdice.solve), where the right answer is known.
"""

from __future__ import annotations

from collections.abc import Sequence
from math import comb
from typing import Any

from bluffdice.games.liars_dice.actions import Bid, Challenge, Revealed
from bluffdice.odds.binomial import die_probability, matches
from bluffdice.review.rating import Rater, Rating
from bluffdice.review.words import Phrase, spoken_bid

BINOMIAL = Phrase("rv.model.binomial")
BINOMIAL_TEXT = Phrase("rv.model.binomial.about")


def tail(n: int, k: int, p: float) -> float:
    """The chance that at least k of n independent dice hit, each with chance p."""
    if k <= 0:
        return 1.0
    if k > n:
        return 0.0
    return sum(comb(n, x) * p**x * (1 - p) ** (n - x) for x in range(k, n + 1))


def next_seat(view: Any) -> int | None:
    """The seat that answers this player's bid: the next one with dice."""
    for step in range(1, view.players):
        seat: int = (view.player + step) % view.players
        if view.dice[seat] > 0:
            return seat
    return None


class BidModel:
    """The figures of one decision: own cup, dice in play, the next player's cup size."""

    def __init__(self, rules: Any, view: Any) -> None:
        self.own = view.my_dice
        self.total = view.total
        self.faces = rules.faces
        self.wild = view.wild or None
        answerer = next_seat(view)
        self.theirs = view.dice[answerer] if answerer is not None else 0

    def p(self, face: int) -> float:
        return float(die_probability(face, faces=self.faces, wild=self.wild))

    def holds(self, bid: Bid) -> float:
        """The chance the bid holds, from this player's cup alone."""
        need = bid.quantity - matches(self.own, bid.face, faces=self.faces, wild=self.wild)
        return tail(self.total - len(self.own), need, self.p(bid.face))

    def call(self, bid: Bid) -> float:
        """A call's swing: a die lost if the bid holds, the bidder's if it fails."""
        return 2 * self.holds(bid) - 1

    def bid(self, bid: Bid) -> float:
        """A bid's swing over the next player's cups: called where it looks more likely to
        fail than to hold from their side, then tested against both cups."""
        p = self.p(bid.face)
        mine = matches(self.own, bid.face, faces=self.faces, wild=self.wild)
        m = self.theirs
        rest = self.total - len(self.own) - m
        swing = 0.0
        for j in range(m + 1):  # j of the next player's dice count for the face
            if tail(self.total - m, bid.quantity - j, p) >= 0.5:
                continue  # they believe it and raise: the bid is passed on
            weight = comb(m, j) * p**j * (1 - p) ** (m - j)
            swing += weight * (1 - 2 * tail(rest, bid.quantity - mine - j, p))
        return swing


class LiarsDiceRater(Rater):
    def __init__(self, rules: Any, players: int) -> None:
        super().__init__(rules, players)
        self.models = {BINOMIAL: BINOMIAL_TEXT}

    def rate(self, number: int, step: int, before: Any, seat: int, action: Any) -> Rating | None:
        view = before.view(seat)
        if view.my_dice is None or not view.legal_actions:
            return None
        model = BidModel(self.rules, view)
        swings: dict[str, float] = {}
        height: dict[str, int] = {}
        for index, legal in enumerate(view.legal_actions):
            if isinstance(legal, Bid):
                swings[str(legal)] = model.bid(legal)
                height[str(legal)] = index
            elif isinstance(legal, Challenge) and view.bid is not None:
                swings[str(legal)] = model.call(view.bid)
                height[str(legal)] = -1
        kind = "call" if isinstance(action, Challenge) else "bid"
        last = spoken_bid(view.bid.quantity, view.bid.face) if view.bid is not None else None
        rating = Rating(
            number=number,
            step=step,
            round=view.round,
            kind=kind,
            situation=Phrase("rv.ld.facing", bid=last, total=view.total)
            if last
            else Phrase("rv.ld.open", total=view.total),
            choice=str(action),
            knew=self.said("rv.knew.dice", dice=" ".join(map(str, view.my_dice))),
            model=BINOMIAL,
        )
        if view.bid is not None:
            rating.figures["p_last_bid_holds"] = round(model.holds(view.bid), 4)
        if isinstance(action, Bid):
            rating.figures["p_bid_holds"] = round(model.holds(action), 4)
        if str(action) in swings:
            order = sorted(swings, key=lambda a: (round(swings[a], 9), -height[a]))
            best = order[0]
            rating.options = {a: round(swings[a], 4) for a in order[:6]}
            rating.options.setdefault(str(action), round(swings[str(action)], 4))
            rating.best = best
            rating.cost = round(swings[str(action)] - swings[best], 4)
        else:
            rating.model = Phrase("rv.model.none")
            rating.note = Phrase("rv.ld.note.calza")
        return rating

    def truth(self, before: Any, rating: Rating, events: Sequence[Any]) -> None:
        for event in events:
            if isinstance(event, Revealed):
                held = "held" if event.count >= event.quantity else "failed"
                one = ".one" if event.count == 1 else ""
                rating.truth = Phrase(
                    f"rv.ld.truth.{held}{one}",
                    count=event.count,
                    bid=spoken_bid(event.quantity, event.face),
                )
                return

    def summary(self, ratings: list[Rating]) -> dict[str, Any]:
        calls = [r for r in ratings if r.kind == "call"]
        return {"call_rate": round(len(calls) / len(ratings), 4)} if ratings else {}
