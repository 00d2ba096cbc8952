"""A finished (or stored) game rebuilt at a table from its record.

The record holds every step as text, dice included. Rebuilding it at a `Table`, with a
dice source that replays the recorded outcomes, gives the same log, projections and
outcome as the live game had: replays, exports and restarted servers all read a game
through the same table API as live play.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from bluffdice.games.base import CHANCE, GameState, IllegalAction
from bluffdice.games.record import Record
from bluffdice.games.registry import get_game, parse_rules
from bluffdice.table.table import Table
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


def rebuild(record: Record, names: Iterable[str] | None = None, **table_options: Any) -> Table:
    """A table that has played every step of `record`; IllegalAction names a bad step."""
    spec = get_game(record.game)
    state = record.start()
    chance: list[Any] = []
    moves: list[tuple[int, Any]] = []
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
            moves.append((player, action))
    table = Table(
        parse_rules(record.rules, game=spec.name),
        record.players,
        dice=ScriptedDice(chance),
        names=list(names) if names is not None else None,
        **table_options,
    )
    for player, action in moves:
        result = table.submit(player, table.state_id, action)
        if isinstance(result, Refused):  # pragma: no cover - the record replayed above
            raise IllegalAction(f"the table refused {action}: {result.reason}")
    return table
