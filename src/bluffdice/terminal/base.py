"""How a game shows itself in the terminal: one `Presenter` per game.

The terminal session (`bluffdice play`) is game-agnostic: it asks the game's presenter to
draw the table from a view, to describe events in words, to say what can be typed and to
read what the player typed. A new game gets terminal play by writing one presenter and
naming its factory on the game's registration (`GameSpec.presenter`).

A presenter is made for one rule set (`PresenterFactory`), because the words depend on
the rules: a lost round costs a life, a sip or a point. Strings it returns are Rich
markup, so names and other user text must be escaped (`rich.markup.escape`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
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
        """For --watch (bots only): every hidden die at the end of a round, or None.

        The session passes the state *before* the step that ended the round, since the
        state after it has already put the dice away.
        """
        ...

    # Added for the session's round ends, help text and result screen.

    def truth(self, state: GameState, action: Any) -> str | None:
        """For a replay of a finished game: what was really under the cup when `action`
        (an announcement, a pass) was made in `state`; None where there is nothing to say."""
        return None

    def round_break(self, events: Sequence[Event]) -> int | None:
        """Where in the events of one step a round closed: the index of the first event
        that belongs to the next round (`len(events)` when the game ended), or None if the
        round goes on. The session shows the standings there, and under --watch the
        hidden dice."""
        ...

    def scoreline(self, view: Any, names: Sequence[str]) -> str:
        """One line of standings (lives, dice, score), shown when a round ends."""
        ...

    def commands(self) -> str:
        """Every game command with a short explanation, for `help`."""
        ...

    def result(self, view: Any, names: Sequence[str]) -> RenderableType:
        """The result screen: who won, who lost, the final standings."""
        ...


PresenterFactory = Callable[[Any], Presenter]
"""Makes the presenter for one rule set of the game: `MiaPresenter(rules)`."""
