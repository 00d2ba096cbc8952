"""Games played by the rules engine, for bots that have no table form and for the
cross-checks: the same questions answered the slow, exact way.

The driver is deliberately plain (sample chance, ask the bot, apply), so that a
difference between it and the batch simulator can only come from the simulator.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from bluffdice.bots.base import Bot, load_bot
from bluffdice.games.base import CHANCE, visible_to
from bluffdice.games.registry import game_of


def sample_outcome(outcomes: Sequence[tuple[Any, Any]], rng: random.Random) -> Any:
    """One chance outcome, drawn with its exact probability."""
    pick = rng.random()
    for outcome, p in outcomes:
        pick -= float(p)
        if pick < 0:
            return outcome
    return outcomes[-1][0]


def play_engine_game(
    rules: Any, bots: Sequence[Bot], rng: random.Random, first: int | None = None
) -> Any:
    """Play one game to the end and return the final state. `first` fixes the opening
    seat where chance would pick it."""
    state: Any = game_of(rules).new_game(rules, len(bots))
    while not state.is_terminal:
        player = state.current_player
        if player == CHANCE:
            outcomes = state.chance_outcomes()
            if first is not None and state.phase == "seat":
                action = outcomes[first][0]
            else:
                action = sample_outcome(outcomes, rng)
        else:
            action = bots[player].act(state.view(player))
        state, events = state.apply(action)
        for seat, bot in enumerate(bots):
            seen = [e for e in events if visible_to(e, seat)]
            if seen:
                bot.observe(seen)
    return state


def engine_bots(names: Sequence[str], game: str, seed: int) -> list[Bot]:
    """Fresh bots for one game, each with its own seeded random source."""
    return [
        load_bot(name, game, random.Random(seed * 7919 + seat)) for seat, name in enumerate(names)
    ]
