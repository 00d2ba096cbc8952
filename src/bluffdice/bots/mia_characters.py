"""Mia players with a "character", as people at a real table have them: the notorious
liar, the constantly lucky roller, the one who targets a player further down the chain.

A character is predictable on purpose: that is what gives a table its psychology, and it
is what the `adaptive` bot learns to exploit.
"""

from __future__ import annotations

from fractions import Fraction

from bluffdice.bots.base import register_bot
from bluffdice.bots.mia_tools import (
    MiaBot,
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
    MiaAction,
    MiaView,
    Pass,
    Roll,
)
from bluffdice.games.mia.values import MIA


class Character(MiaBot):
    """The shape every character shares: what to announce holding dice, how to answer a
    Mia announcement, how to answer any other. Rolling to open a round and looking at
    fresh dice need no character."""

    def act(self, view: MiaView) -> MiaAction:
        legal = view.legal_actions
        if len(legal) == 1:
            return legal[0]
        if Look() in legal:
            return Look()
        values = announcements(view)
        if values:
            assert view.my_dice is not None
            return self.announce(view, view.my_dice, values)
        if GiveUp() in legal:
            return self.against_mia(view)
        assert view.announced is not None
        return self.answer(view, view.announced)

    def announce(self, view: MiaView, dice: int, values: list[int]) -> MiaAction:
        raise NotImplementedError

    def against_mia(self, view: MiaView) -> MiaAction:
        raise NotImplementedError

    def answer(self, view: MiaView, announced: int) -> MiaAction:
        raise NotImplementedError


@register_bot
class LiarBot(Character):
    """Bluffs often and boldly: most of its announcements are well above its dice, now
    and then a bare-faced Mia. It expects the same of others and challenges readily."""

    name = "liar"
    description = "bluffs often and boldly; challenges readily"

    lie_rate = 0.7
    """How often it lies although the truth would be legal."""

    def announce(self, view: MiaView, dice: int, values: list[int]) -> MiaAction:
        truth_ok = dice in values
        if truth_ok and self.rng.random() >= self.lie_rate:
            return Announce(dice)
        if MIA in values and self.rng.random() < 0.08:
            return Announce(MIA)
        start = dice if truth_ok else values[0]
        return Announce(step_up(values, start, self.rng.randint(2, 5)))

    def against_mia(self, view: MiaView) -> MiaAction:
        return Challenge() if self.rng.random() < 0.7 else GiveUp()

    def answer(self, view: MiaView, announced: int) -> MiaAction:
        if reach_chance(ranking_of(view), announced) < Fraction(1, 2):
            return Challenge()
        return Roll()


@register_bot
class LuckyBot(Character):
    """Believes in its luck: claims high values whatever it rolled and rarely challenges,
    trusting that its next roll will beat whatever came before."""

    name = "lucky"
    description = "claims high, rarely challenges"

    high = 8
    """Claims land among this many values just below Mia (the doubles and 65 by default)."""

    def announce(self, view: MiaView, dice: int, values: list[int]) -> MiaAction:
        if Cheers() in view.legal_actions and self.rng.random() < 0.5:
            return Cheers()
        below_mia = [v for v in values if v != MIA] or values
        claim = self.rng.choice(below_mia[-self.high :])
        ranking = ranking_of(view)
        if dice in values and ranking.rank(dice) >= ranking.rank(claim):
            return Announce(dice)
        return Announce(claim)

    def against_mia(self, view: MiaView) -> MiaAction:
        if BeatMia() in view.legal_actions:
            return BeatMia()
        return Challenge() if self.rng.random() < 0.15 else GiveUp()

    def answer(self, view: MiaView, announced: int) -> MiaAction:
        unlikely = reach_chance(ranking_of(view), announced) < Fraction(1, 10)
        return Challenge() if unlikely and self.rng.random() < 0.3 else Roll()


@register_bot
class ChainBot(Character):
    """Aims further down the chain: hands the cup on unseen whenever the rules let it,
    with an inflated value, so that the loss falls on a later player. Once per round: when
    the cup comes back it decides by the odds of the announcement."""

    name = "chain"
    description = "passes and inflates to push the loss down the chain"

    def announce(self, view: MiaView, dice: int, values: list[int]) -> MiaAction:
        # Without a pass it inflates its own claims instead: one or two places up.
        start = dice if dice in values else values[0]
        inflated = step_up(values, start, self.rng.randint(1, 2))
        return Announce(start if inflated == MIA and start != MIA else inflated)

    def against_mia(self, view: MiaView) -> MiaAction:
        return Challenge() if self.rng.random() < 0.5 else GiveUp()

    def answer(self, view: MiaView, announced: int) -> MiaAction:
        options = passes(view)
        if options and my_calls_this_round(view) == 0:
            below_mia = [v for v in options if v != MIA] or options
            return Pass(step_up(below_mia, announced, self.rng.randint(1, 2)))
        return Challenge() if reach_chance(ranking_of(view), announced) < Fraction(2, 5) else Roll()
