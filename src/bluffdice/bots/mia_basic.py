"""Two simple Mia bots for the first playable game: one honest, one that bluffs sensibly.

Both judge an announcement by the chance that a fresh roll would reach it, computed
from the rule set's own ranking, so they play every variant correctly.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from bluffdice.bots.base import Bot, register_bot
from bluffdice.games.mia import (
    Announce,
    Challenge,
    Cheers,
    GiveUp,
    Look,
    MiaView,
    Pass,
    Roll,
)
from bluffdice.games.mia.values import VALUES, Ranking, probability
from bluffdice.games.registry import parse_rules


def reach_chance(ranking: Ranking, value: int) -> Fraction:
    """The chance that a fresh roll is at least as good as `value`."""
    floor = ranking.rank(value)
    return sum((probability(v) for v in VALUES if ranking.rank(v) >= floor), Fraction(0))


def _ranking(view: MiaView) -> Ranking:
    rules: Any = parse_rules(view.rules, game="mia")
    return rules.ranking  # type: ignore[no-any-return]


def _announcements(view: MiaView) -> list[int]:
    return [a.value for a in view.legal_actions if isinstance(a, Announce)]


@register_bot
class HonestBot(Bot):
    """Never lies when the dice allow the truth; believes what a roll often reaches."""

    name = "honest"
    description = "tells the truth when it can, lies as little as it must, challenges by odds"

    def act(self, view: MiaView) -> Any:
        legal = view.legal_actions
        if Look() in legal:
            return Look()
        if Cheers() in legal:
            return Cheers()
        if Roll() in legal and len(legal) == 1:
            return Roll()
        ranking = _ranking(view)
        values = _announcements(view)
        if values:
            assert view.my_dice is not None
            if view.my_dice in values:
                return Announce(view.my_dice)
            return Announce(values[0])  # the smallest legal lie
        if GiveUp() in legal:
            return Challenge() if self.rng.random() < 0.5 else GiveUp()
        assert view.announced is not None
        if reach_chance(ranking, view.announced) < Fraction(2, 5):
            return Challenge()
        return Roll()


@register_bot
class BluffBot(Bot):
    """Looks, then lies upward now and then; calls announcements a roll rarely reaches."""

    name = "bluffer"
    description = "bluffs sensibly: inflates some true rolls, challenges unlikely claims"

    def act(self, view: MiaView) -> Any:
        legal = view.legal_actions
        if Look() in legal:
            return Look()
        if Roll() in legal and len(legal) == 1:
            return Roll()
        ranking = _ranking(view)
        values = _announcements(view)
        if values:
            assert view.my_dice is not None
            truth_ok = view.my_dice in values
            if truth_ok and self.rng.random() < 0.7:
                return Announce(view.my_dice)
            start = values.index(view.my_dice) if truth_ok else 0
            step = self.rng.choice((0, 1, 1, 2, 3))
            return Announce(values[min(start + step, len(values) - 1)])
        if GiveUp() in legal:
            return Challenge() if self.rng.random() < 0.6 else GiveUp()
        assert view.announced is not None
        chance = reach_chance(ranking, view.announced)
        if chance < Fraction(1, 3):
            return Challenge()
        passes = [a for a in legal if isinstance(a, Pass) and a.value == view.announced]
        if passes and chance < Fraction(1, 2) and self.rng.random() < 0.25:
            return passes[0]
        return Roll()
