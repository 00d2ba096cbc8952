"""Terminal play: a game-agnostic session plus one presenter per game.

A game names its presenter on its registration (`GameSpec.presenter`, a factory that
makes the presenter for a rule set); `presenter_for` imports it when a game is played. A
game without one cannot be played in the terminal yet; `bluffdice play` says so.
"""

from __future__ import annotations

from typing import Any

from bluffdice.games.base import BluffdiceError
from bluffdice.games.registry import game_of, games, plugin
from bluffdice.terminal.base import Presenter, PresenterFactory


def presenter_for(rules: Any) -> Presenter:
    """The presenter for a rules object; BluffdiceError if its game has none yet."""
    spec = game_of(rules)
    if not spec.presenter:
        playable = ", ".join(sorted(s.name for s in games() if s.presenter))
        raise BluffdiceError(
            f"{spec.title} cannot be played in the terminal yet; playable games: {playable}"
        )
    factory: PresenterFactory = plugin(spec.presenter)
    return factory(rules)


__all__ = ["Presenter", "PresenterFactory", "presenter_for"]
