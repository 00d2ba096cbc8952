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
from typing import (
    TYPE_CHECKING,
    Any,
    Final,
    Generic,
    NamedTuple,
    Protocol,
    Self,
    SupportsIndex,
    runtime_checkable,
)

import msgspec

from bluffdice.errors import BluffdiceError as BluffdiceError  # re-exported
from bluffdice.errors import WordedError

if TYPE_CHECKING:
    from typing_extensions import TypeVar
else:
    from typing import TypeVar as _TypeVar

    def TypeVar(name: str, *constraints: Any, default: Any = None, **options: Any) -> Any:
        """A type variable with a default for mypy (PEP 696), which `typing` takes only
        from Python 3.13 on: at run time the default is dropped, as only mypy reads it.
        The defaults let code that runs any game write a bare `GameState` or `Bot`."""
        return _TypeVar(name, *constraints, **options)


CHANCE: Final = -1
"""`current_player` when the next step is a chance outcome (dice, seat draw)."""

TERMINAL: Final = -2
"""`current_player` when the game is over."""

ViewT = TypeVar("ViewT", covariant=True, default=Any)
"""What a game's state shows one recipient (`MiaView`)."""
ActionT = TypeVar("ActionT", default=Any)
"""A game's player actions (`MiaAction`)."""
ChanceT = TypeVar("ChanceT", default=Any)
"""A game's chance outcomes (`MiaOutcome`): dice, seat draws."""
StateT = TypeVar("StateT", default=Any)
RulesT = TypeVar("RulesT", default=Any)


class RuleError(WordedError):
    """A rule set or rule string that does not describe a valid game.

    Made by `said`, it also carries the key of its template in
    `bluffdice.games.rule_texts.RULE_TEXTS` and the parameters (`params`, ready for
    JSON), so the web page can say it in its own language; the text is the English.
    """

    @classmethod
    def said(cls, key: str, **params: Any) -> RuleError:
        from bluffdice.games.rule_texts import json_params, words

        return cls(str(words(key, **params)), key, json_params(params))


class IllegalAction(BluffdiceError):
    """An action the rules refuse in this state; the state is unchanged.

    `reason` is a sentence meant for the person or bot that sent the action.
    """

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


class Event(msgspec.Struct, frozen=True, tag=True, gc=False):
    """Something that happened, as every player may see it.

    Untracked by the garbage collector (`gc=False`, inherited by every event): an event
    holds plain values, never part of a reference cycle, and a table keeps every event
    of its game, which the collector would otherwise walk again and again."""


class PrivateEvent(Event, frozen=True, tag=True):
    """An event only `player` may see (their own dice); views drop it for others."""

    player: int


def visible_to(event: Event, player: int | None) -> bool:
    """Whether `player` (None: a spectator) may see `event`."""
    if isinstance(event, PrivateEvent):
        return player is not None and event.player == player
    return True


# Events every game has. Front ends (tables, tournaments, replays, pages) recognise
# these by type, so they never need one game's classes. A game adds fields by
# subclassing under a tag of its own.


class RoundStarted(Event, frozen=True, tag="round_started"):
    round: int
    starter: int


class DiceDealt(PrivateEvent, frozen=True, tag="dice_dealt"):
    """A player learns dice of their own (a roll they look at, a cup dealt to them)."""


class DiceRevealed(Event, frozen=True, tag="dice_revealed"):
    """Dice that were hidden are shown to everyone (a challenge, an open roll)."""


class Eliminated(Event, frozen=True, tag="eliminated"):
    player: int


class GameOver(Event, frozen=True, tag="game_over"):
    winners: tuple[int, ...]
    losers: tuple[int, ...]
    standings: tuple[int, ...]


class Outcome(msgspec.Struct, frozen=True):
    """How a finished game ranks its players, in terms every game shares.

    `places` gives each seat its place, 0 the best, equal where the rules make a tie;
    `left` is what each seat kept (lives, dice), `score` the game's own tally
    (equal to `left` where the game has no other), `eliminated` the (seat, round) pairs
    in the order the seats went out.
    """

    winners: tuple[int, ...]
    losers: tuple[int, ...]
    standings: tuple[int, ...]
    places: tuple[int, ...]
    left: tuple[int, ...]
    score: tuple[int, ...]
    eliminated: tuple[tuple[int, int], ...]
    rounds: int


class Scoring(NamedTuple):
    """What a rule set's results count, for tables of results made before any game.

    `left` names what `Outcome.left` counts ("lives", "dice") or is None when the
    tally (`score`) is what matters; `count_losses` is true when a game ends at its
    first loser, so losing is the rare event worth counting.
    """

    left: str | None
    count_losses: bool


def ranked_outcome(
    over: GameOver,
    left: tuple[int, ...],
    eliminated: tuple[tuple[int, int], ...],
    rounds: int,
) -> Outcome:
    """The outcome of a game whose standings leave no ties: places follow them."""
    standings = over.standings
    return Outcome(
        winners=over.winners,
        losers=over.losers,
        standings=standings,
        places=places_from([-standings.index(p) for p in range(len(left))]),
        left=left,
        score=left,
        eliminated=eliminated,
        rounds=rounds,
    )


_Key = TypeVar("_Key", int, tuple[int, ...])


def places_from(keys: Sequence[_Key]) -> tuple[int, ...]:
    """Places from sort keys where a greater key is better; equal keys share a place."""
    return tuple(sum(1 for other in keys if other > key) for key in keys)


class Step(NamedTuple, Generic[StateT]):
    """The result of applying one action: the new state and what happened."""

    state: StateT
    events: tuple[Event, ...]


class TableState(msgspec.Struct, Generic[RulesT], frozen=True):
    """The fields and answers every game's state shares; each game adds its own.

    `phase` names whose move it is in words ("seat" before the first chance outcome,
    "over" at the end); `moves` counts applied steps and serves as the state id.
    `RulesT` is the game's rules dataclass (`MiaRules`); a type variable, unlike a
    concrete type, leaves msgspec nothing to validate, and states are never decoded.
    """

    rules: RulesT
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
class GameState(Protocol[ViewT, ActionT, ChanceT]):
    """What the table, bots, simulator and solver rely on, for every game.

    Each game's state fills in its own types (`MiaState` is a
    `GameState[MiaView, MiaAction, MiaOutcome]`), so code that knows its game is
    checked against that game's actions; code that runs whichever game the rules name
    holds a bare `GameState` (any game's: the type variables default to `Any`).
    """

    @property
    def num_players(self) -> int: ...

    @property
    def current_player(self) -> int: ...

    @property
    def is_terminal(self) -> bool: ...

    @property
    def state_id(self) -> int: ...

    def legal_actions(self) -> Sequence[ActionT]: ...

    def chance_outcomes(self) -> Sequence[tuple[ChanceT, Fraction]]: ...

    def apply(self, action: ActionT | ChanceT) -> Step[Self]:
        """A player's action on their turn, a chance outcome at a chance node; the
        state checks which it got at run time too, as moves also come off the wire."""
        ...

    def view(self, player: int | None) -> ViewT: ...

    def returns(self) -> tuple[float, ...]: ...

    def outcome(self) -> Outcome | None:
        """The ranking of a finished game; None while it goes on."""
        ...

    def default_action(self) -> ActionT:
        """The move a table makes for a player whose time ran out."""
        ...

    def physical_roll(self) -> tuple[int, int]:
        """The real dice behind this chance node, (dice, faces): fair dice sources roll
        them one by one (a seat draw among n players is one die of n faces)."""
        ...

    def outcome_of_roll(self, dice: Sequence[int]) -> ChanceT:
        """The chance outcome that these dice, as rolled, make."""
        ...


def is_whole(number: object) -> bool:
    """An integer, but neither a bool nor a float: a chance outcome or action must read
    back from its text form (first 1, not first 1.5 or first True) so its record replays."""
    if type(number) is int:
        return True
    return isinstance(number, SupportsIndex) and not isinstance(number, bool | float)
