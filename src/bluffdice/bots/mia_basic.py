"""Two simple Mia bots for the first playable game: one honest, one that bluffs sensibly.

Both judge an announcement by the chance that a fresh roll would reach it, computed
from the rule set's own ranking, so they play every variant correctly.
"""

from __future__ import annotations

from fractions import Fraction

from bluffdice.bots.base import register_bot
from bluffdice.bots.mia_tools import MiaBot, announcements, passes, ranking_of, reach_chance
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

__all__ = ["BluffBot", "HonestBot", "reach_chance"]


def _previous_value(view: MiaView) -> int | None:
    """The value announced before the current one in this round, if any."""
    return view.calls[-2].value if len(view.calls) >= 2 else None


@register_bot
class HonestBot(MiaBot):
    """Never lies when the dice allow the truth, never passes, believes what a roll often
    reaches, and assumes the others are as honest as itself."""

    name = "honest"
    description = "tells the truth when it can, lies as little as it must, challenges by odds"

    def act(self, view: MiaView) -> MiaAction:
        legal = view.legal_actions
        if Look() in legal:
            return Look()
        if Cheers() in legal:
            return Cheers()
        if Roll() in legal and len(legal) == 1:
            return Roll()
        ranking = ranking_of(view)
        values = announcements(view)
        if values:
            assert view.my_dice is not None
            if view.my_dice in values:
                return Announce(view.my_dice)
            return Announce(values[0])  # the smallest legal lie
        if GiveUp() in legal:
            # An honest Mia is only doubtful when the announcer had to beat a strong value.
            previous = _previous_value(view)
            forced = previous is not None and reach_chance(ranking, previous) < Fraction(1, 4)
            if BeatMia() in legal and not forced:
                return BeatMia()
            return Challenge() if forced else GiveUp()
        assert view.announced is not None
        if reach_chance(ranking, view.announced) < Fraction(2, 5):
            return Challenge()
        return Roll()


@register_bot
class BluffBot(MiaBot):
    """Looks, then lies upward now and then; calls announcements a roll rarely reaches."""

    name = "bluffer"
    description = "bluffs sensibly: inflates some true rolls, challenges unlikely claims"

    def act(self, view: MiaView) -> MiaAction:
        legal = view.legal_actions
        if Look() in legal:
            return Look()
        if Roll() in legal and len(legal) == 1:
            return Roll()
        ranking = ranking_of(view)
        values = announcements(view)
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
        if view.announced in passes(view) and chance < Fraction(1, 2) and self.rng.random() < 0.25:
            return Pass(view.announced)
        return Roll()
