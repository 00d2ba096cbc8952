"""Mia players with a "character", as seed 000 describes them: the notorious liar, the
constantly lucky roller, the one who targets a player further down the chain.

A character is predictable on purpose: that is what the seed says gives a table its
psychology, and it is what the `adaptive` bot learns to exploit.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from bluffdice.bots.base import Bot, register_bot
from bluffdice.bots.mia_tools import (
    announcements,
    my_calls_this_round,
    passes,
    ranking_of,
    reach_chance,
    step_up,
)
from bluffdice.games.mia import (
    Announce,
    BeatMia,
    Challenge,
    Cheers,
    GiveUp,
    Look,
    MiaView,
    Pass,
    Roll,
)
from bluffdice.games.mia.values import MIA


def _forced(view: MiaView) -> Any | None:
    """The action when there is no real choice to make (open the round, look first)."""
    legal = view.legal_actions
    if len(legal) == 1:
        return legal[0]
    if Look() in legal:
        return Look()
    return None


@register_bot
class LiarBot(Bot):
    """Bluffs often and boldly: most of its announcements are well above its dice, now
    and then a bare-faced Mia. It expects the same of others and challenges readily."""

    name = "liar"
    description = "bluffs often and boldly; challenges readily"

    lie_rate = 0.7
    """How often it lies although the truth would be legal."""

    def act(self, view: MiaView) -> Any:
        forced = _forced(view)
        if forced is not None:
            return forced
        legal = view.legal_actions
        values = announcements(view)
        if values:
            assert view.my_dice is not None
            truth_ok = view.my_dice in values
            if truth_ok and self.rng.random() >= self.lie_rate:
                return Announce(view.my_dice)
            if MIA in values and self.rng.random() < 0.08:
                return Announce(MIA)
            start = view.my_dice if truth_ok else values[0]
            return Announce(step_up(values, start, self.rng.randint(2, 5)))
        if GiveUp() in legal:
            return Challenge() if self.rng.random() < 0.7 else GiveUp()
        assert view.announced is not None
        if reach_chance(ranking_of(view), view.announced) < Fraction(1, 2):
            return Challenge()
        return Roll()


@register_bot
class LuckyBot(Bot):
    """Believes in its luck: claims high values whatever it rolled and rarely challenges,
    trusting that its next roll will beat whatever came before."""

    name = "lucky"
    description = "claims high, rarely challenges"

    high = 8
    """Claims land among this many values just below Mia (the doubles and 65 by default)."""

    def act(self, view: MiaView) -> Any:
        forced = _forced(view)
        if forced is not None:
            return forced
        legal = view.legal_actions
        values = announcements(view)
        if values:
            assert view.my_dice is not None
            if Cheers() in legal and self.rng.random() < 0.5:
                return Cheers()
            below_mia = [v for v in values if v != MIA] or values
            high = below_mia[-self.high :]
            claim = self.rng.choice(high)
            ranking = ranking_of(view)
            if view.my_dice in values and ranking.rank(view.my_dice) >= ranking.rank(claim):
                return Announce(view.my_dice)
            return Announce(claim)
        if GiveUp() in legal:
            if BeatMia() in legal:
                return BeatMia()
            return Challenge() if self.rng.random() < 0.15 else GiveUp()
        assert view.announced is not None
        if view.announced == MIA or (
            reach_chance(ranking_of(view), view.announced) < Fraction(1, 10)
            and self.rng.random() < 0.3
        ):
            return Challenge()
        return Roll()


@register_bot
class ChainBot(Bot):
    """Aims further down the chain: hands the cup on unseen whenever the rules let it,
    with an inflated value, so that the loss falls on a later player. Once per round: when
    the cup comes back it decides by the odds of the announcement."""

    name = "chain"
    description = "passes and inflates to push the loss down the chain"

    def act(self, view: MiaView) -> Any:
        forced = _forced(view)
        if forced is not None:
            return forced
        legal = view.legal_actions
        ranking = ranking_of(view)
        values = announcements(view)
        if values:
            assert view.my_dice is not None
            # Without a pass it inflates its own claims instead: one or two places up.
            start = view.my_dice if view.my_dice in values else values[0]
            inflated = step_up(values, start, self.rng.randint(1, 2))
            if inflated == MIA and start != MIA:
                inflated = start
            return Announce(inflated)
        if GiveUp() in legal:
            return Challenge() if self.rng.random() < 0.5 else GiveUp()
        assert view.announced is not None
        chance = reach_chance(ranking, view.announced)
        options = passes(view)
        if options and my_calls_this_round(view) == 0:
            below_mia = [v for v in options if v != MIA] or options
            return Pass(step_up(below_mia, view.announced, self.rng.randint(1, 2)))
        return Challenge() if chance < Fraction(2, 5) else Roll()
