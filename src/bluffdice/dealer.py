"""Drives games synchronously: samples chance outcomes, asks agents, keeps the record.

The terminal game, `--watch`, the tournament runner and tests all play through `play`,
so seeding and recording behave the same everywhere. Dice come from a `random.Random`
seeded by the caller (reproducible runs) or from the operating system's generator.
"""

from __future__ import annotations

import random
import secrets
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from bluffdice.games.base import CHANCE, Event, GameState, visible_to
from bluffdice.games.record import Record, new_record
from bluffdice.table.dice import sample


class Agent(Protocol):
    """Anything that chooses an action from a view: a bot, a human at a terminal."""

    def act(self, view: Any) -> Any: ...


class Observer(Protocol):
    def observe(self, events: Sequence[Event]) -> None: ...


def system_rng() -> random.Random:
    """Dice nobody can predict: the operating system's cryptographic generator."""
    return secrets.SystemRandom()


@dataclass
class Game:
    """A game in progress with its record and the full event log."""

    state: GameState
    start: Record
    steps: list[str] = field(default_factory=list)
    events: list[Event] = field(default_factory=list)

    @classmethod
    def new(cls, rules: Any, players: int) -> Game:
        from bluffdice.games.registry import game_of

        state = game_of(rules).new_game(rules, players)
        return cls(state=state, start=new_record(rules, players))

    @property
    def record(self) -> Record:
        """Rules, players and every step so far: replays to the current state."""
        return Record(
            game=self.start.game,
            rules=self.start.rules,
            players=self.start.players,
            steps=tuple(self.steps),
        )

    def step(self, action: Any) -> tuple[Event, ...]:
        """Apply one action or outcome; on IllegalAction nothing changes."""
        state, events = self.state.apply(action)
        self.state = state
        self.steps.append(str(action))
        self.events.extend(events)
        return events

    def events_for(self, player: int | None) -> list[Event]:
        return [e for e in self.events if visible_to(e, player)]


def play(
    game: Game,
    agents: Sequence[Agent],
    rng: random.Random,
    on_events: Callable[[Sequence[Event]], None] | None = None,
    max_steps: int = 1_000_000,
) -> Game:
    """Play `game` to the end. Each agent sees only its own view and its visible events."""
    for _ in range(max_steps):
        state = game.state
        if state.is_terminal:
            return game
        player = state.current_player
        if player == CHANCE:
            action = sample(state.chance_outcomes(), rng)
        else:
            action = agents[player].act(state.view(player))
        events = game.step(action)
        if on_events is not None:
            on_events(events)
        for seat, agent in enumerate(agents):
            observe = getattr(agent, "observe", None)
            if observe is not None:
                seen = [e for e in events if visible_to(e, seat)]
                if seen:
                    observe(seen)
    raise RuntimeError(f"game did not end within {max_steps} steps")
