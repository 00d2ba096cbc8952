"""Rating Liar's Dice bids and calls with the binomial odds of the player's own cup.

The model: every die the player cannot see is an independent fair die (wild dice count
for every face but their own), so the chance a bid holds is a binomial tail given the
player's own matches. A decision's risk is the chance of losing a die if it is tested:
a call loses when the bid holds, a bid loses when it fails and is called. The cheapest
risk among the legal moves is the best choice by the odds; the model knows nothing of
what the bids of others say about their cups, so it is a yardstick, not an equilibrium.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from typing import Any

from bluffdice.games.liars_dice.actions import Bid, Challenge, Revealed
from bluffdice.odds.binomial import die_probability, matches, p_at_least
from bluffdice.review.walk import Rater, Rating
from bluffdice.review.words import Phrase, spoken_bid

BINOMIAL = Phrase("rv.model.binomial")
BINOMIAL_TEXT = Phrase("rv.model.binomial.about")


class LiarsDiceRater(Rater):
    def __init__(self, rules: Any) -> None:
        self.rules = rules
        self.models = {BINOMIAL: BINOMIAL_TEXT}

    def rate(self, number: int, step: int, before: Any, seat: int, action: Any) -> Rating | None:
        view = before.view(seat)
        if view.my_dice is None or not view.legal_actions:
            return None
        own = view.my_dice
        faces = self.rules.faces
        wild = view.wild or None

        def holds(bid: Bid) -> Fraction:
            unknown = view.total - len(own)
            need = bid.quantity - matches(own, bid.face, faces=faces, wild=wild)
            return p_at_least(unknown, need, die_probability(bid.face, faces=faces, wild=wild))

        risks: dict[str, Fraction] = {}
        for legal in view.legal_actions:
            if isinstance(legal, Bid):
                risks[str(legal)] = 1 - holds(legal)
            elif isinstance(legal, Challenge) and view.bid is not None:
                risks[str(legal)] = holds(view.bid)
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
            knew=Phrase("rv.knew.dice", dice=" ".join(map(str, own))),
            model=BINOMIAL,
        )
        if view.bid is not None:
            rating.figures["p_last_bid_holds"] = round(float(holds(view.bid)), 4)
        if isinstance(action, Bid):
            rating.figures["p_bid_holds"] = round(float(holds(action)), 4)
        if str(action) in risks:
            best = min(risks, key=lambda a: (risks[a], a != "liar"))
            shown = sorted(risks, key=lambda a: risks[a])[:6]
            rating.options = {a: round(float(risks[a]), 4) for a in shown}
            rating.options.setdefault(str(action), round(float(risks[str(action)]), 4))
            rating.best = best
            rating.cost = round(float(risks[str(action)] - risks[best]), 4)
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
