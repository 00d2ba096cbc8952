"""Game records: rules + players + every step (dice included) as text, replayable exactly.

A record is the append-only log of a game. Each entry is the text form of a chance
outcome (`first 2`, `dice 43`) or a player's action (`roll`, `65`, `pass 65`), so a record
reads like a score sheet and replays to the identical state.
"""

from __future__ import annotations

from typing import Any

import msgspec

from bluffdice.games.base import CHANCE, GameState, IllegalAction
from bluffdice.games.registry import game_of, get_game, parse_rules, rules_string


class Record(msgspec.Struct, frozen=True):
    game: str
    rules: str
    players: int
    steps: tuple[str, ...] = ()

    def start(self) -> GameState:
        spec = get_game(self.game)
        return spec.new_game(parse_rules(self.rules, game=spec.name), self.players)

    def replay(self) -> GameState:
        """Apply every step to a fresh game; IllegalAction names the first bad step."""
        spec = get_game(self.game)
        state = self.start()
        for number, text in enumerate(self.steps, start=1):
            try:
                action = spec.parse_action(text)
                state = state.apply(action).state
            except (ValueError, IllegalAction) as exc:
                raise IllegalAction(f"step {number} ({text!r}) cannot be replayed: {exc}") from exc
        return state

    def states(self) -> list[tuple[str | None, GameState]]:
        """Every state of the game, each with the step that led to it (None for the start)."""
        spec = get_game(self.game)
        state = self.start()
        out: list[tuple[str | None, GameState]] = [(None, state)]
        for text in self.steps:
            state = state.apply(spec.parse_action(text)).state
            out.append((text, state))
        return out


def new_record(rules: Any, players: int) -> Record:
    return Record(game=game_of(rules).name, rules=rules_string(rules), players=players)


def is_chance(state: GameState) -> bool:
    return state.current_player == CHANCE
