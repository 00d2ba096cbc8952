"""A finished (or stored) game rebuilt at a table from its record.

The record holds every step as text, dice included. Rebuilding it at a `Table`, with a
dice source that replays the recorded outcomes, gives the same log, projections and
outcome as the live game had: replays, exports, reviews and restarted servers all read
a game through the same table API as live play. A restarted server also needs the game
to go on afterwards: `then` is the dice source for every roll after the record's last.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from bluffdice.games.base import CHANCE, GameState, IllegalAction
from bluffdice.games.record import Record
from bluffdice.games.registry import get_game, parse_rules
from bluffdice.table.dice import DiceSource
from bluffdice.table.table import TABLE, Table
from bluffdice.table.wire import Refused


class ScriptedDice:
    """A dice source that hands out given outcomes in order (replays, scripted tests)."""

    def __init__(self, outcomes: Iterable[Any]) -> None:
        self._outcomes = iter(outcomes)

    def draw(self, state: GameState) -> Any:
        try:
            return next(self._outcomes)
        except StopIteration:
            raise IllegalAction("the record ends before this roll of the dice") from None


class RecordedDice:
    """The record's outcomes in order, then `then`'s dice once the record has run out.

    With `redraw`, `then` rolls the recorded dice again and each must come out as the
    record says: a deterministic source (fair dice) has to read its stream over the
    recorded rolls, so that the rolls after them are the ones it committed to.
    """

    def __init__(self, outcomes: Iterable[Any], then: DiceSource, redraw: bool = False) -> None:
        self._outcomes = list(outcomes)
        self._next = 0
        self.then = then
        self.redraw = redraw

    def draw(self, state: GameState) -> Any:
        if self._next == len(self._outcomes):
            return self.then.draw(state)
        recorded = self._outcomes[self._next]
        self._next += 1
        if not self.redraw:
            return recorded
        drawn = self.then.draw(state)
        if drawn != recorded:
            raise IllegalAction(f"roll {self._next}: the record says {recorded}, the dice {drawn}")
        return drawn


def rebuild(
    record: Record,
    names: Iterable[str] | None = None,
    *,
    actors: Sequence[int] | None = None,
    then: DiceSource | None = None,
    redraw: bool = False,
    **table_options: Any,
) -> Table:
    """A table that has played every step of `record`; IllegalAction names a bad step.

    `actors` (one per step, as `Entry.actor`) marks the moves the table made for a seat
    whose time ran out (TABLE): they replay as such, timeout event included. `then`
    (with `redraw`, see `RecordedDice`) rolls on after the record, for a game that goes
    on; without it the table refuses to roll past the record's end.
    """
    spec = get_game(record.game)
    state = record.start()
    chance: list[Any] = []
    moves: list[tuple[int, Any]] = []
    if actors is not None and len(actors) != len(record.steps):
        raise ValueError(f"{len(actors)} actors for {len(record.steps)} steps")
    for number, text in enumerate(record.steps, start=1):
        try:
            action = spec.parse_action(text)
            player = state.current_player
            state = state.apply(action).state
        except ValueError as exc:
            raise IllegalAction(f"step {number} ({text!r}) cannot be replayed: {exc}") from exc
        if player == CHANCE:
            chance.append(action)
        else:
            moves.append((TABLE if actors and actors[number - 1] == TABLE else player, action))
    dice: DiceSource = ScriptedDice(chance) if then is None else RecordedDice(chance, then, redraw)
    table = Table(
        parse_rules(record.rules, game=spec.name),
        record.players,
        dice=dice,
        names=list(names) if names is not None else None,
        **table_options,
    )
    for player, action in moves:
        if player == TABLE:
            table.force_default()
            made = table.log[_last_move(table)].action
            if made != action:
                raise IllegalAction(f"the timed-out move {action} is not the default {made}")
            continue
        result = table.submit(player, table.state_id, action)
        if isinstance(result, Refused):  # pragma: no cover - the record replayed above
            raise IllegalAction(f"the table refused {action}: {result.reason}")
    return table


def _last_move(table: Table) -> int:
    """The index in the log of the last step that was not chance."""
    for index in range(len(table.log) - 1, -1, -1):
        if table.log[index].actor != CHANCE:
            return index
    return 0
