"""The baseline every other bot must beat: a uniformly random legal action."""

from __future__ import annotations

from typing import Any

from bluffdice.bots.base import Bot, register_bot


@register_bot
class RandomBot(Bot):
    """Picks uniformly among the legal actions of its view; plays any game."""

    name = "random"
    games = ("mia", "liars-dice", "common-hand")
    description = "a uniformly random legal action: the baseline"

    def act(self, view: Any) -> Any:
        return self.rng.choice(view.legal_actions)
