"""The baseline every other bot must beat: a uniformly random legal action."""

from __future__ import annotations

from bluffdice.bots.base import Bot, register_bot
from bluffdice.games.common_hand import CommonHandAction, CommonHandView
from bluffdice.games.liars_dice import LiarsDiceAction, LiarsDiceView
from bluffdice.games.mia import MiaAction, MiaView

BuiltinView = MiaView | LiarsDiceView | CommonHandView
BuiltinAction = MiaAction | LiarsDiceAction | CommonHandAction


@register_bot
class RandomBot(Bot[BuiltinView, BuiltinAction]):
    """Picks uniformly among the legal actions of its view; plays every built-in game."""

    name = "random"
    games = ("mia", "liars-dice", "common-hand")
    description = "a uniformly random legal action: the baseline"

    def act(self, view: BuiltinView) -> BuiltinAction:
        return self.rng.choice(view.legal_actions)
