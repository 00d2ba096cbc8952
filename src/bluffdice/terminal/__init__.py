"""Terminal play: a game-agnostic session plus one presenter per game.

`PRESENTERS` maps a game's name (as in `bluffdice.games.get_game(...).name`) to the factory
that makes its presenter for a rule set. A game without an entry cannot be played in the
terminal yet; `bluffdice play` says so.
"""

from __future__ import annotations

from typing import Any

from bluffdice.games.base import BluffdiceError
from bluffdice.games.registry import game_of
from bluffdice.terminal.base import Presenter, PresenterFactory
from bluffdice.terminal.common_hand import CommonHandPresenter
from bluffdice.terminal.liars_dice import LiarsDicePresenter
from bluffdice.terminal.mia import MiaPresenter

PRESENTERS: dict[str, PresenterFactory] = {
    "mia": MiaPresenter,
    "liars-dice": LiarsDicePresenter,
    "common-hand": CommonHandPresenter,
}


def presenter_for(rules: Any) -> Presenter:
    """The presenter for a rules object; BluffdiceError if its game has none yet."""
    spec = game_of(rules)
    factory = PRESENTERS.get(spec.name)
    if factory is None:
        playable = ", ".join(sorted(PRESENTERS))
        raise BluffdiceError(
            f"{spec.title} cannot be played in the terminal yet; playable games: {playable}"
        )
    return factory(rules)


__all__ = ["PRESENTERS", "Presenter", "PresenterFactory", "presenter_for"]
