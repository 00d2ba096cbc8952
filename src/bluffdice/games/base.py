"""Contracts every game of the engine shares.

A game is a pure state machine. Whoever drives it (a table, the simulator, the solver,
the odds tables) asks a state whose turn it is. When the turn belongs to chance, the
state lists its outcomes with exact probabilities and the driver samples or enumerates
them; otherwise the driver applies one of the player's legal actions. Applying returns a
new state plus the events that the step caused, so the API and the game log are the
same thing.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from typing import Any, Final, NamedTuple, Protocol, runtime_checkable

import msgspec

CHANCE: Final = -1
"""`current_player` when the next step is a chance outcome (dice, seat draw)."""

TERMINAL: Final = -2
"""`current_player` when the game is over."""


class BluffdiceError(ValueError):
    """Base of the errors this package raises on bad input."""


class RuleError(BluffdiceError):
    """A rule set or rule string that does not describe a valid game."""


class IllegalAction(BluffdiceError):
    """An action the rules refuse in this state; the state is unchanged.

    `reason` is a sentence meant for the person or bot that sent the action.
    """

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


class Event(msgspec.Struct, frozen=True, tag=True):
    """Something that happened, as every player may see it."""


class PrivateEvent(Event, frozen=True, tag=True):
    """An event only `player` may see (their own dice); views drop it for others."""

    player: int


def visible_to(event: Event, player: int | None) -> bool:
    """Whether `player` (None: a spectator) may see `event`."""
    if isinstance(event, PrivateEvent):
        return player is not None and event.player == player
    return True


class Step(NamedTuple):
    """The result of applying one action: the new state and what happened."""

    state: Any
    events: tuple[Event, ...]


class TableState(msgspec.Struct, frozen=True):
    """The fields and answers every game's state shares; each game adds its own.

    `phase` names whose move it is in words ("seat" before the first chance outcome,
    "over" at the end); `moves` counts applied steps and serves as the state id.
    """

    rules: Any  # the game's rules dataclass; Any keeps msgspec from validating it
    players: int
    phase: str = "seat"
    turn: int = -1
    round: int = 0
    moves: int = 0

    @property
    def num_players(self) -> int:
        return self.players

    @property
    def state_id(self) -> int:
        """Counts applied steps; a move made against an older id is stale."""
        return self.moves

    @property
    def is_terminal(self) -> bool:
        return self.phase == "over"


@runtime_checkable
class GameState(Protocol):
    """What the table, bots, simulator and solver rely on, for every game."""

    @property
    def num_players(self) -> int: ...

    @property
    def current_player(self) -> int: ...

    @property
    def is_terminal(self) -> bool: ...

    @property
    def state_id(self) -> int: ...

    def legal_actions(self) -> Sequence[Any]: ...

    def chance_outcomes(self) -> Sequence[tuple[Any, Fraction]]: ...

    def apply(self, action: Any) -> Step: ...

    def view(self, player: int | None) -> Any: ...

    def returns(self) -> tuple[float, ...]: ...

    def physical_roll(self) -> tuple[int, int]:
        """The real dice behind this chance node, (dice, faces): fair dice sources roll
        them one by one (a seat draw among n players is one die of n faces)."""
        ...

    def outcome_of_roll(self, dice: Sequence[int]) -> Any:
        """The chance outcome that these dice, as rolled, make."""
        ...
