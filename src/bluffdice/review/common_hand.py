"""Rating common-hand claims, rerolls and calls with the exact chances of five poker dice.

The model: the other cup is five fair dice nobody has seen (its owner's claims and rerolls
are not read), and your own cup is what you see. A decision's risk is the chance of losing
the round if it is tested at once: a call loses when the other cup makes the claim; a claim
loses when your own dice do not make it (called, it is certain to lose, and a true one is
certain to stand); a reroll loses when the dice you roll again leave you without a hand
above the last claim, since after a reroll you must claim higher and would have to bluff.
This is a yardstick for one decision, not an equilibrium: it does not look further ahead.
"""

from __future__ import annotations

import itertools
from bisect import bisect_left
from collections import Counter
from collections.abc import Sequence
from functools import lru_cache
from typing import Any

from bluffdice.games.common_hand.actions import Challenge, Claim, Reroll, Revealed
from bluffdice.games.common_hand.hands import HandKey, hand_key, hand_text
from bluffdice.review.rating import Rater, Rating
from bluffdice.review.words import Phrase, poker_hand

UNIFORM = Phrase("rv.model.poker")
UNIFORM_TEXT = Phrase("rv.model.poker.about")
OPTIONS_SHOWN = 6


@lru_cache(maxsize=2)
def _sorted_keys(straights: bool) -> tuple[HandKey, ...]:
    """The hand of each of the 6^5 ordered rolls, sorted: the chance a roll makes a claim
    is the share of keys at or above the claim's key."""
    rolls = itertools.product(range(1, 7), repeat=5)
    return tuple(sorted(hand_key(tuple(sorted(r)), straights) for r in rolls))


def p_makes(key: HandKey, straights: bool) -> float:
    """The chance that five fresh dice make the claim `key`."""
    keys = _sorted_keys(straights)
    return (len(keys) - bisect_left(keys, key)) / len(keys)


@lru_cache(maxsize=4096)
def p_reroll_beats(
    own: tuple[int, ...], rerolled: tuple[int, ...], key: HandKey, straights: bool
) -> float:
    """The chance that rolling `rerolled` (faces of `own`) again leaves a hand above `key`."""
    kept = Counter(own)
    kept.subtract(rerolled)
    base = tuple(kept.elements())
    above = 0
    total = 0
    for roll in itertools.product(range(1, 7), repeat=len(rerolled)):
        total += 1
        if hand_key(tuple(sorted(base + roll)), straights) > key:
            above += 1
    return above / total


class CommonHandRater(Rater):
    def __init__(self, rules: Any, players: int) -> None:
        super().__init__(rules, players)
        self.models = {UNIFORM: UNIFORM_TEXT}

    def rate(self, number: int, step: int, before: Any, seat: int, action: Any) -> Rating | None:
        view = before.view(seat)
        if view.my_dice is None or not view.legal_actions:
            return None
        own: tuple[int, ...] = tuple(sorted(view.my_dice))
        straights: bool = self.rules.straights
        mine = hand_key(own, straights)
        last: Claim | None = view.claim
        risks: dict[str, float] = {}
        order: dict[str, int] = {}
        for i, legal in enumerate(view.legal_actions):  # claims come lowest first
            if isinstance(legal, Claim):
                risk = 0.0 if mine >= legal.key else 1.0
            elif isinstance(legal, Challenge) and last is not None:
                risk = p_makes(last.key, straights)
            elif isinstance(legal, Reroll) and last is not None:
                risk = 1.0 - p_reroll_beats(own, legal.dice, last.key, straights)
            else:
                continue
            risks[str(legal)] = risk
            order[str(legal)] = i if isinstance(legal, Claim) else 0
        kind = "call" if isinstance(action, Challenge) else "reroll"
        if isinstance(action, Claim):
            kind = "claim"
        situation: str
        if view.phase == "raise":
            situation = self.said("rv.ch.raise", claim=poker_hand(last.key)) if last else ""
        elif last is not None:
            situation = Phrase("rv.ch.facing", claim=poker_hand(last.key))
        else:
            situation = Phrase("rv.ch.open")
        rating = Rating(
            number=number,
            step=step,
            round=view.round,
            kind=kind,
            situation=situation,
            choice=str(action),
            knew=self.said("rv.ch.knew", dice=hand_text(own), hand=poker_hand(mine)),
            model=UNIFORM,
        )
        if last is not None and view.phase == "claim":
            rating.figures["p_challenge_wins"] = round(1.0 - p_makes(last.key, straights), 4)
        if isinstance(action, Claim):
            rating.figures["claim_true"] = 1.0 if mine >= action.key else 0.0
        if isinstance(action, Reroll) and last is not None:
            beats = p_reroll_beats(own, action.dice, last.key, straights)
            rating.figures["p_reroll_beats"] = round(beats, 4)
        chosen = str(action)
        if chosen not in risks:
            rating.model = Phrase("rv.model.none")
            return rating
        # among moves of equal risk a higher claim is the better one: it is harder to beat
        best = min(risks, key=lambda a: (risks[a], a != chosen, -order[a]))
        shown = sorted(risks, key=lambda a: (risks[a], -order[a]))[:OPTIONS_SHOWN]
        rating.options = {a: round(risks[a], 4) for a in shown}
        rating.options.setdefault(chosen, round(risks[chosen], 4))
        rating.best = best
        rating.cost = round(risks[chosen] - risks[best], 4)
        return rating

    def truth(self, before: Any, rating: Rating, events: Sequence[Any]) -> None:
        for event in events:
            if isinstance(event, Revealed):
                dice = hand_text(tuple(sorted(event.hands[event.claimer])))
                made = "rv.ch.truth.made" if event.held else "rv.ch.truth.missed"
                rating.truth = Phrase(made, dice=dice, claim=poker_hand(event.claim.key))
                return

    def summary(self, ratings: list[Rating]) -> dict[str, Any]:
        facing = [r for r in ratings if "p_challenge_wins" in r.figures]
        claims = [r for r in ratings if r.kind == "claim"]
        result: dict[str, Any] = {}
        if facing:
            calls = sum(1 for r in facing if r.kind == "call")
            result["call_rate"] = round(calls / len(facing), 4)
        if claims:
            true = sum(1 for r in claims if r.figures.get("claim_true") == 1.0)
            result["honesty_rate"] = round(true / len(claims), 4)
        rerolls = sum(1 for r in ratings if r.kind == "reroll")
        if facing:
            result["reroll_rate"] = round(rerolls / len(facing), 4)
        return result
