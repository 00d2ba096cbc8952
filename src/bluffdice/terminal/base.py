"""How a game shows itself in the terminal: one `Presenter` per game.

The terminal session (`bluffdice play`) is game-agnostic: it asks the game's presenter to
draw the table from a view, to describe events in words, to say what can be typed and to
read what the player typed. A new game gets terminal play by writing one presenter.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol

from rich.console import RenderableType

from bluffdice.games.base import Event, GameState


class Presenter(Protocol):
    game: str

    def table(self, view: Any, names: Sequence[str]) -> RenderableType:
        """The board as the viewer sees it: lives or dice counts, this round's history,
        whose turn it is, the viewer's own dice."""
        ...

    def event(self, event: Event, names: Sequence[str], viewer: int | None) -> str | None:
        """One line of commentary for an event the viewer may see; None to stay quiet."""
        ...

    def hint(self, view: Any) -> str:
        """What the player can type now, e.g. `roll, challenge or pass 65`."""
        ...

    def parse(self, text: str, view: Any) -> Any:
        """Read typed text into an action; ValueError with a reason if it makes no sense."""
        ...

    def reveal(self, state: GameState, names: Sequence[str]) -> str | None:
        """For --watch (bots only): every hidden die at the end of a round, or None."""
        ...
